"""Structure questions over a statement (`tablespans`): the periods a table or a line covers,
the lines that add up to a total, how many there are, the largest part of a whole, and a
line's figures for several years at once. Each answer goes through the engine (committed
cells, grounded text); a question the layout does not answer unambiguously is abstained on."""

from __future__ import annotations

import pandas as pd
import pytest

import hyrag
from hyrag.answer.readers import tableqa, tablespans
from hyrag.settings import Settings
from tests.answer.conftest import ask_with_table_answer, statement_kb

ROWS = [
    ["Product revenue", "600", "500", "400"],
    ["Service revenue", "300", "250", "200"],
    ["Other revenue", "100", "50", "—"],
    ["Total revenue", "1,000", "800", "600"],
    ["Cost of sales", "(400)", "(350)", "(300)"],
    ["Gross profit", "600", "450", "300"],
    ["Operating expenses", "", "", ""],
    ["Marketing", "100", "90", "80"],
    ["Research", "50", "40", "—"],
    ["Total operating expenses", "150", "130", "80"],
    ["Headcount", "12", "10", "9"],
    ["Contractors", "3", "4", "2"],
    ["Total staff", "16", "15", "12"],
]


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, ROWS, "Results (in thousands)", "results")
    yield k
    k.close()


ask = ask_with_table_answer


def answered(kb, q: str) -> tuple[str, object]:
    ans, ta = ask(kb, q)
    assert ans.decision == "answer", (q, ans.decision, ans.text)
    assert not ans.verification.get("failures"), ans.verification.get("failures")
    assert ans.evidence, "every answer cites the cells it rests on"
    return ta["operation"], ta["value"]


def test_the_tables_periods(kb) -> None:
    assert answered(kb, "Which years does the table provide information for?") == (
        "periods", ["2019", "2018", "2017"])
    assert answered(kb, "What are the years included in the table?")[1] == [
        "2019", "2018", "2017"]


def test_a_lines_periods_are_the_years_it_has_a_figure_for(kb) -> None:
    assert answered(kb, "In which years was other revenue recorded?") == (
        "periods", ["2019", "2018"])


def test_components_are_the_lines_that_add_up_to_the_total(kb) -> None:
    assert answered(kb, "What are the components of total revenue?") == (
        "components", ["Product revenue", "Service revenue", "Other revenue"])
    # "revenue" names "Total revenue"; a section header row ends the block above a total
    assert answered(kb, "What items make up operating expenses?")[1] == [
        "Marketing", "Research"]


def test_how_many_components(kb) -> None:
    assert answered(kb, "How many components are there under total revenue?") == (
        "count_components", 3.0)


def test_a_deduction_is_not_a_type(kb) -> None:
    # gross profit = total revenue + (cost of sales): both components, but the cost, opposite
    # in sign to the total, is no "type" of gross profit — one type left is no answer
    assert answered(kb, "What are the components of gross profit?")[1] == [
        "Total revenue", "Cost of sales"]
    ans, _ = ask(kb, "What types of gross profit are there?")
    assert ans.decision == "abstain"


def test_lines_with_a_figure_in_one_year_but_not_another(kb) -> None:
    assert answered(kb, "How many items had values in 2018 but not in 2017?") == (
        "count_new", 2.0)


def test_the_largest_part_of_a_named_whole(kb) -> None:
    assert answered(kb, "Which component of total revenue was the largest in 2018?") == (
        "part_max", "Product revenue")
    assert answered(kb, "Which component of total revenue was the smallest in 2019?")[1] == (
        "Other revenue")


def test_structure_questions_not_answerable_are_abstained_on(kb) -> None:
    # no lines add up to "Total staff" (12 + 3 != 16 and one off in every year, more than
    # rounding explains): its parts are not guessed
    ans, _ = ask(kb, "What are the components of total staff?")
    assert ans.decision == "abstain"
    ans, _ = ask(kb, "How many components are there under total staff?")
    assert ans.decision == "abstain"
    # several wholes and none named: which parts compete is not knowable
    ans, _ = ask(kb, "Which line had the largest value in 2019?")
    assert ans.decision == "abstain"
    # a named line that is no total
    assert tablespans.resolve("What are the components of marketing?", kb.store.con) == (
        None, True)


def test_question_kinds() -> None:
    k = tablespans._kind
    assert k("Which years does the table provide information for net sales?") == "periods"
    assert k("In which years was the total equity calculated?") == "periods"
    assert k("In which year was revenue larger?") is None  # a comparison: tableqa's
    assert k("Which years had revenue above 500 thousand?") is None
    assert k("What was the revenue in 2019?") is None
    assert k("What are the components of total revenue?") == "components"
    assert k("How many categories are there under total stock-based compensation?") == (
        "count_components")
    assert k("In which segment was the remaining charge the largest?") == "part_extreme"
    assert k("In which year was the remaining charge the largest?") is None


def test_several_years_of_one_line_in_the_questions_order(kb) -> None:
    r = tableqa.resolve("What was the product revenue in 2019 and 2018?", kb.store.con)
    assert (r.operation, r.answer, r.scale) == ("each", [600.0, 500.0], "thousand")
    r = tableqa.resolve("What was the service revenue for 2017, 2018 and 2019?", kb.store.con)
    assert r.answer == [200.0, 250.0, 300.0]
    # "from 2018 and 2019" reads as a change, "the total ... for" may be a sum: not a list
    r = tableqa.resolve("What was the total revenue for 2019 and 2018?", kb.store.con)
    assert r is None or r.operation != "each"


def test_thresholds_read_without_a_space_and_below_zero(kb) -> None:
    r = tableqa.resolve("In which year was service revenue less than260 thousand?",
                        kb.store.con)
    assert (r.operation, sorted(r.answer)) == ("years_where", ["2017", "2018"])
    r = tableqa.resolve("In which year was cost of sales less than -320 thousand?",
                        kb.store.con)
    assert (r.operation, sorted(r.answer)) == ("years_where", ["2018", "2019"])
    r = tableqa.resolve("From 2017 to 2019, how many of the years was marketing more than "
                        "85 thousand?", kb.store.con)
    assert (r.operation, r.answer) == ("count_years", 2.0)


OBLIGATIONS = [
    ["Operating lease obligations", "16,164", "19,812", "6,551", "48,410"],
    ["Financing obligations", "2,956", "5,912", "—", "8,868"],
    ["Purchase obligations", "55,755", "16,220", "7,595", "79,570"],
    ["Total", "74,875", "41,944", "14,146", "136,848"],
]


@pytest.fixture(scope="module")
def obligations(tmp_path_factory: pytest.TempPathFactory):
    df = pd.DataFrame(OBLIGATIONS, columns=["item", "Less than 1 year", "1 to 3 years",
                                            "3 to 5 years", "Total"])
    df.attrs["title"] = "Contractual obligations (in thousands)"
    k = hyrag.open(tmp_path_factory.mktemp("cells") / "kb", settings=Settings(
        answer_use_search=False))
    k.ingest(df, name="obligations")
    yield k
    k.close()


def test_respective_cells_rows_by_one_column(obligations) -> None:
    op, vals = answered(obligations, "What are the respective values of operating lease and "
                                     "financing obligations due in 1 to 3 years?")
    assert (op, vals) == ("cells", [19812.0, 5912.0])


def test_respective_cells_one_row_by_columns_in_the_questions_order(obligations) -> None:
    assert answered(obligations, "What are the respective purchase obligations due in 1 to 3 "
                                 "years and less than one year?")[1] == [16220.0, 55755.0]
    # "total" names the total row, not also the Total column
    assert answered(obligations, "What are the respective values of total obligations due in "
                                 "less than one year and 3 to 5 years?")[1] == [
        74875.0, 14146.0]


def test_respective_cells_with_an_empty_cell_are_abstained_on(obligations) -> None:
    ans, _ = ask(obligations, "What are the respective values of operating lease and financing "
                              "obligations due in 3 to 5 years?")
    assert ans.decision == "abstain"


def test_which_year_a_line_was_negative(kb) -> None:
    r = tableqa.resolve("In which year was cost of sales negative?", kb.store.con)
    assert (r.operation, sorted(r.answer)) == ("years_where", ["2017", "2018", "2019"])
    r = tableqa.resolve("In which year was gross profit positive?", kb.store.con)
    assert r.operation == "years_where"


def test_a_figure_question_is_no_part_superlative() -> None:
    assert tablespans._kind("What was the maximum exposure to credit risk in 2019?") is None
    assert tablespans._kind("For 2019, what is the component that contributed the most to "
                            "total revenue?") == "part_extreme"


def test_periods_of_a_line_named_through_its_total(kb) -> None:
    assert answered(kb, "For which year(s) is staff recorded?")[1] == ["2019", "2018", "2017"]
    # a line the knowledge base does not hold, and no "table" to fall back on: no answer
    ans, _ = ask(kb, "In which years was goodwill calculated?")
    assert ans.decision == "abstain"


def test_the_years_of_the_subject_the_text_introduces_the_table_with(tmp_path_factory) -> None:
    """"In which years were deferred charges calculated?" names no line of the table; the text
    introduces the table with that subject ("Deferred charges consisted of the following:"),
    so the table's years are the subject's. A subject the text does not introduce the table
    with is abstained on, not answered with the table's years."""
    rows = [["Rent deposits", "1,200", "1,100"], ["Prepaid fees", "300", "250"]]
    k = statement_kb(tmp_path_factory, rows, None, "intro", ("item", "2019", "2018"))
    try:
        k.ingest_text(["Note 15. Deferred charges and other assets",
                       "Deferred charges and other assets consisted of the following:",
                       "Marketing spend rose in 2019 as the company expanded."], source="notes")
        q = "In which years were deferred charges and other assets calculated?"
        assert answered(k, q) == ("periods", ["2019", "2018"])
        ans, _ = ask(k, "In which years was marketing spend calculated?")
        assert ans.decision != "answer", ans.text
    finally:
        k.close()
