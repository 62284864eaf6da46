"""Header detection, titles, multi-row headers, repeated headers and blocks (pure functions)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.headers import (
    cell_kind,
    find_tables,
    make_unique_names,
    merge_header_rows,
    safe_identifier,
    token_overlap,
)


def tables(grid, **kw):
    return find_tables(grid, list(range(1, len(grid) + 1)), **kw)


def test_unique_names_fill_blanks_and_number_duplicates_case_insensitively():
    assert make_unique_names(["Revenue", "", "revenue", "Revenue", " Cost  (USD) "]) == (
        "Revenue", "column_2", "revenue_2", "Revenue_3", "Cost (USD)",
    )


def test_generated_name_does_not_collide_with_a_real_one():
    assert make_unique_names(["column_2", ""]) == ("column_2", "column_2_2")


def test_safe_identifier():
    assert safe_identifier("Q1 Sales (EU)") == "q1_sales_eu"
    assert safe_identifier("2024 report") == "t_2024_report"
    assert safe_identifier("Bodø Zürich") == "bodo_zurich"
    assert safe_identifier("***") == "t"


def test_cell_kind_tells_labels_from_numbers():
    assert cell_kind("Revenue") == "text"
    assert cell_kind("(1,234.5)") == "number"
    assert cell_kind("$1,200") == "number"
    assert cell_kind("13.1%") == "number"
    assert cell_kind("2024") == "year"
    assert cell_kind(2024) == "year"
    assert cell_kind("2024-03-31") == "date"
    assert cell_kind("2024Q1") == "text"
    assert cell_kind("n/a") == "na"


def test_simple_header_and_locators():
    [t] = tables([["Region", "Revenue"], ["North", "10"], ["South", "12"]])
    assert t.header == ("Region", "Revenue")
    assert t.rows == (("North", "10"), ("South", "12"))
    assert t.row_locs == (2, 3)
    assert t.col_locs == (1, 2)
    assert t.header_locs == (1,)


def test_title_line_above_header_is_captured():
    grid = [
        ["Regional report, USD thousands", None, None],
        ["Region", "Revenue", "Cost"],
        ["North", "10", "5"],
    ]
    [t] = tables(grid)
    assert t.title == "Regional report, USD thousands"
    assert t.header == ("Region", "Revenue", "Cost")
    assert t.row_locs == (3,)


def test_title_separated_by_blank_row_and_merged_across_is_captured():
    grid = [
        ["Sales by region", "Sales by region", "Sales by region"],  # merged title, filled across
        [None, None, None],
        ["Region", "Revenue", "Cost"],
        ["North", 10, 5],
    ]
    [t] = tables(grid)
    assert t.title == "Sales by region"
    assert t.header == ("Region", "Revenue", "Cost")


def test_sparse_multirow_header_is_merged():
    grid = [
        [None, "Revenue", None, "Cost", None],
        ["Region", "2023", "2024", "2023", "2024"],
        ["North", "100", "120", "60", "70"],
        ["South", "90", "95", "50", "55"],
    ]
    [t] = tables(grid)
    assert t.header == ("Region", "Revenue 2023", "Revenue 2024", "Cost 2023", "Cost 2024")
    assert t.row_locs == (3, 4)


def test_filled_multirow_header_from_merged_cells_is_merged_without_repeats():
    grid = [
        ["Region", "Revenue", "Revenue", "Cost", "Cost"],
        ["Region", 2023, 2024, 2023, 2024],
        ["North", 100, 120, 60, 70],
    ]
    [t] = tables(grid)
    assert t.header == ("Region", "Revenue 2023", "Revenue 2024", "Cost 2023", "Cost 2024")
    assert t.rows == (("North", 100, 120, 60, 70),)


def test_merge_header_rows_fills_group_labels_across():
    assert merge_header_rows([[None, "Revenue", None], ["Region", "Q1", "Q2"]]) == [
        "Region", "Revenue Q1", "Revenue Q2",
    ]


def test_first_data_row_of_an_all_text_table_is_not_taken_for_a_header_row():
    grid = [["Name", "City"], ["Ann", "Oslo"], ["Bo", "Bergen"]]
    [t] = tables(grid)
    assert t.header == ("Name", "City")
    assert len(t.rows) == 2


def test_year_header_over_numbers_is_a_header():
    grid = [["Line item", 2022, 2023, 2024], ["Revenue", 1000.5, 1100, 1210], ["Cost", 1, 2, 3]]
    [t] = tables(grid)
    assert t.header == ("Line item", "2022", "2023", "2024")
    assert len(t.rows) == 2


def test_numeric_first_row_gets_generated_names_and_a_note():
    grid = [["1", "2.5", "3"], ["4", "5.5", "6"]]
    [t] = tables(grid)
    assert t.header == ("column_1", "column_2", "column_3")
    assert t.row_locs == (1, 2)
    assert any("no header row" in n for n in t.notes)


def test_data_row_with_years_under_a_year_column_is_not_a_header():
    grid = [["Acme", "2021", "5"], ["Beta", "2022", "7"], ["Gamma", "2023", "9"]]
    [t] = tables(grid)
    assert t.header[0] == "column_1"
    assert len(t.rows) == 3


def test_repeated_header_is_skipped_with_a_note():
    grid = [
        ["Region", "Product", "Revenue"],
        ["North", "Widget", "10"],
        ["Region", "Product", "Revenue"],
        ["South", "Gadget", "12"],
    ]
    [t] = tables(grid)
    assert t.row_locs == (2, 4)
    assert any(n.startswith("row 3: repeated header skipped") for n in t.notes)


STACKED = [
    [None, None, "As of December 31, 2019", None],
    [None, "Amortized Cost", "Unrealized Gains", "Fair Value"],
    ["Government bonds", "129,499", "$—", "126,066"],
    ["Treasury bills", "99,700", "$—", "97,719"],
    ["Total", "229,199", "$—", "223,785"],
    [None, None, "As of December 31, 2018", None],
    [None, "Amortized Cost", "Unrealized Gains", "Fair Value"],
    ["Government bonds", "73,798", "14,234", "87,797"],
    ["Treasury bills", "97,223", "416", "91,203"],
    ["Total", "171,021", "14,650", "179,000"],
]


def test_tables_stacked_one_per_period_head_their_rows_with_their_captions():
    """A report's one table per period, stacked: each period's caption heads its block's rows
    (a section heading in the first column) and names no column, so the 2018 figures are not
    in columns named for 2019; the repeated header rows are skipped, the caption line is no
    data row (its text would make the "Unrealized Gains" column read as labels)."""
    [t] = tables(STACKED)
    assert t.header == ("column_1", "Amortized Cost", "Unrealized Gains", "Fair Value")
    assert t.rows[0] == ("As of December 31, 2019", None, None, None)
    assert t.rows[4] == ("As of December 31, 2018", None, None, None)
    assert t.row_locs == (1, 3, 4, 5, 6, 8, 9, 10)
    assert any("repeated header skipped" in n for n in t.notes)


def test_a_caption_spanning_the_header_is_said_of_every_column():
    """Without a second block under another caption, a caption alone over the header says the
    same of every column (ingest.layout rule 3): it is the table's title, which dates its
    figures, not a part of the one column name it happens to sit above."""
    [t] = tables(STACKED[:5])
    assert t.header[1:] == ("Amortized Cost", "Unrealized Gains", "Fair Value")
    assert t.title == "As of December 31, 2019"
    assert t.row_locs == (3, 4, 5)


def test_row_sharing_a_few_words_with_the_header_is_kept():
    grid = [
        ["Region", "Product", "Revenue", "Notes"],
        ["North", "Widget", "10", ""],
        ["Region total", "All products", "10", "revenue restated"],
    ]
    [t] = tables(grid)
    assert t.row_locs == (2, 3)
    assert not any("repeated header" in n for n in t.notes)


def test_overlap_threshold_is_a_parameter():
    grid = [["a b c d", "e"], ["1", "2"], ["a b c", "x"]]
    ov = token_overlap(frozenset("abcx"), frozenset("abcde"))
    assert ov == 0.5
    assert len(tables(grid)[0].rows) == 2
    assert len(tables(grid, header_overlap=0.5)[0].rows) == 1


def test_two_tables_separated_by_blank_rows():
    grid = [
        ["Region", "Revenue"], ["North", "10"],
        [None, None], [None, None],
        ["Q2 products", None, None],
        ["Product", "Units", "Price"], ["A", "5", "1.5"],
    ]
    a, b = tables(grid)
    assert a.header == ("Region", "Revenue") and a.row_locs == (2,)
    assert b.header == ("Product", "Units", "Price") and b.row_locs == (7,)
    assert b.title == "Q2 products"


def test_blank_row_inside_a_table_does_not_split_it():
    grid = [["Region", "Revenue"], ["North", "10"], [None, None], ["South", "12"]]
    [t] = tables(grid)
    assert t.row_locs == (2, 4)


def test_table_repeating_its_header_after_a_blank_row_continues():
    grid = [["Region", "Revenue"], ["North", "10"], [], ["Region", "Revenue"], ["South", "12"]]
    [t] = tables(grid)
    assert t.row_locs == (2, 5)
    assert any("repeated header" in n for n in t.notes)


def test_footnote_below_table_kept_out():
    grid = [
        ["Region", "Revenue", "Cost"],
        ["North", "10", "5"],
        ["Source: internal ledger", None, None],
    ]
    [t] = tables(grid)
    assert t.row_locs == (2,)
    assert any("footnote" in n for n in t.notes)


def test_header_only_block_gives_zero_rows():
    [t] = tables([["id", "name", "amount"]])
    assert t.header == ("id", "name", "amount")
    assert t.rows == ()


def test_empty_columns_are_dropped_and_col_locs_stay_real():
    grid = [[None, "Region", None, "Revenue"], [None, "North", None, 10]]
    [t] = tables(grid, normalized=False)
    assert t.header == ("Region", "Revenue")
    assert t.col_locs == (2, 4)


cells = st.one_of(
    st.none(),
    st.sampled_from(["Region", "Revenue", "North", "Total", "Cost", "n/a", "2024", "Q1"]),
    st.integers(-5, 3000),
    st.floats(-1e6, 1e6, allow_nan=False),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(cells, min_size=0, max_size=6), max_size=15))
def test_every_output_cell_is_the_input_cell_at_its_locators(grid):
    parts = find_tables(grid, [10 + i for i in range(len(grid))])
    for t in parts:
        assert len(set(t.header)) == len(t.header)
        assert all(t.header)
        assert list(t.row_locs) == sorted(set(t.row_locs))
        for row, loc in zip(t.rows, t.row_locs, strict=True):
            src = grid[loc - 10]
            for v, c in zip(row, t.col_locs, strict=True):
                expected = src[c - 1] if c - 1 < len(src) else None
                assert v == expected
