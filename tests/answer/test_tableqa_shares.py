"""Shares of a total read off a table's grid (`tableqa_shares`): a cell the question names (a
row in a column) over its row's Total column, over its column's total line (labelled or not),
or over another named line in the same column. Each answer goes through the engine (committed
cells, a recomputed derivation); a total that does not add up, or a part the words do not pin
down, is abstained on."""

from __future__ import annotations

import pytest

from hyrag.answer.readers import tableqa_shares
from tests.answer.conftest import ask_with_table_answer, statement_kb

SCHEDULE = [
    ["Operating leases", "1,000", "400", "350", "250"],
    ["Other long-term liabilities", "", "", "", ""],
    ["Purchase obligations", "2,000", "1,500", "300", "200"],
    ["Long-term debt", "3,000", "100", "900", "2,000"],
    ["Total", "6,000", "2,000", "1,550", "2,450"],
]
SCHEDULE_COLS = ("Contractual obligations", "Total", "Less than 1 year", "1-3 years",
                 "More than 5 years")

COSTS = [
    ["Employee severance and related costs", "750", "800"],
    ["Facility costs", "150", "—"],
    ["Other", "100", "200"],
    ["", "1,000", "1,000"],
]


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, SCHEDULE, "Contractual obligations (in thousands)",
                     "schedule", columns=SCHEDULE_COLS)
    yield k
    k.close()


@pytest.fixture(scope="module")
def costs(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, COSTS, "Restructuring costs (in thousands)", "costs",
                     columns=("item", "2019", "2018"))
    yield k
    k.close()


ask = ask_with_table_answer


def answered(kb, q: str) -> tuple:
    ans, ta = ask(kb, q)
    assert ans.decision == "answer", (q, ans.decision, ans.text)
    assert not ans.verification.get("failures"), ans.verification.get("failures")
    assert len(ans.evidence) == 2, "a share cites its part and its whole"
    return ta["operation"], ta["value"], ta["scale"]


def test_a_column_of_a_row_over_the_rows_total_column(kb) -> None:
    # "of more than 5 years": the column; "the total purchase obligations": the row's Total
    assert answered(kb, "What is the percentage of the purchase obligations of more than 5 "
                        "years in the total purchase obligations?") == (
        "percent_of", 10.0, "percent")


def test_a_cell_over_its_columns_total_line(kb) -> None:
    # the Total line adds up over the lines above it in the column (the header line without
    # figures is skipped); "one year" is the header's "1 year"
    assert answered(kb, "What is the value of purchase obligations that are due in less than "
                        "one year as a percentage of the total contractual obligations?") == (
        "percent_of", 75.0, "percent")


def test_two_lines_in_their_total_column(kb) -> None:
    assert answered(kb, "What is the value of the company's total operating leases as a "
                        "percentage of its total purchase obligations?") == (
        "percent_of", 50.0, "percent")


def test_a_ratio_is_a_fraction(kb) -> None:
    assert answered(kb, "What is the ratio of the operating leases due in 1-3 years to the "
                        "total purchase obligations due in 1-3 years?")[1:] == (1.17, "")
    # a proportion above 1 is a part and a whole read the wrong way round
    assert ask(kb, "What is the operating leases due in 1-3 years as a proportion of the "
                   "total purchase obligations due in 1-3 years?")[0].decision != "answer"


def test_an_unlabelled_total_line_of_a_year(costs) -> None:
    assert answered(costs, "For 2018, what is the percentage of constitution of employee "
                           "severance and related costs among the total cost?") == (
        "percent_of", 80.0, "percent")
    assert answered(costs, "In 2019, what is the percentage constitution of facility costs "
                           "among the total costs?")[1] == 15.0


def test_the_question_is_split_at_the_word_introducing_the_whole() -> None:
    assert tableqa_shares.split("What is the percentage of the A of more than 5 years in the "
                                "total A?") == ("the A of more than 5 years ", "the total A")
    assert tableqa_shares.split("What is the value of A due in 2020 as a percentage of the "
                                "total B?") == ("What is the value of A due in 2020 ",
                                                " the total B")
    assert tableqa_shares.split("What percentage of the total cost is made up of A?") == (
        "A", "the total cost")
    assert tableqa_shares.split("What is the percentage of A?") is None


def test_a_total_that_does_not_add_up_is_not_a_whole(tmp_path_factory) -> None:
    rows = [["Alpha", "100", "60", "40"], ["Beta", "50", "20", "20"],
            ["Total", "170", "80", "70"]]
    k = statement_kb(tmp_path_factory, rows, "Segments", "bad",
                     columns=("Segment", "Total", "Domestic", "Foreign"))
    try:
        # Beta's columns (20 + 20) do not make its Total (50); the Foreign line (40 + 20) does
        # not make 70: neither is taken for a whole
        assert ask(k, "What is the percentage of Beta of Domestic in the total Beta?")[
            0].decision != "answer"
        assert ask(k, "What is the value of Alpha Foreign as a percentage of the total "
                      "Foreign?")[0].decision != "answer"
        # Alpha's do (60 + 40 = 100)
        assert ask(k, "What is the percentage of the Alpha of Domestic in the total Alpha?"
                   )[1]["value"] == 60.0
    finally:
        k.close()


def test_a_part_the_words_do_not_pin_down_is_not_guessed(kb) -> None:
    # which column of long-term debt? the question names none and says no "total" of its own
    ans, _ = ask(kb, "What is the percentage of long-term debt among the obligations?")
    assert ans.decision != "answer"
    # two columns named for the part
    ans, _ = ask(kb, "What is the percentage of purchase obligations of less than 1 year and "
                     "more than 5 years in the total purchase obligations?")
    assert ans.decision != "answer"


ROLL = [
    ["Non-vested at December 31, 2018", "1,000", "$40.00"],
    ["Granted", "500", "$50.00"],
    ["Vested", "(300)", "$41.00"],
    ["Non-vested at December 31, 2019", "1,200", "$45.00"],
]
PLAN = [
    ["Balance payable as at June 30, 2018", "1,600", "3,400", "5,000"],
    ["Cash payments", "(500)", "(1,400)", "(1,900)"],
    ["Balance payable as at June 30, 2019", "1,100", "2,000", "3,100"],
]


def test_a_line_over_a_line_its_label_dates(tmp_path_factory) -> None:
    k = statement_kb(tmp_path_factory, ROLL, "Non-vested awards", "roll",
                     columns=("Non-vested awards", "Shares", "Weighted-average fair value"))
    try:
        # "non-vested" is not "Vested"; the year names the dated line, not a column
        assert answered(k, "What is the percentage of non-vested shares granted in 2019 as a "
                           "percentage of the total non-vested shares at December 31, 2019?"
                        ) == ("percent_of", 41.67, "percent")
        # a part shown in brackets against a positive whole: its size (a deduction's)
        assert answered(k, "What is the percentage of non-vested shares vested in 2019 as a "
                           "percentage of the total non-vested shares at December 31, 2019?"
                        ) == ("percent_of", 25.0, "percent")
    finally:
        k.close()


def test_two_columns_of_one_line(tmp_path_factory) -> None:
    k = statement_kb(tmp_path_factory, PLAN, "Restructuring plan", "plan",
                     columns=("Restructuring plan", "Workforce reduction", "Facility costs",
                              "Total"))
    try:
        assert answered(k, "For Balance payable as at June 30, 2019, what is Workforce "
                           "reduction expressed as a percentage of Facility costs?") == (
            "percent_of", 55.0, "percent")
        # the dated line the question names decides; naming none leaves two lines open
        assert ask(k, "What is Workforce reduction of the balance payable expressed as a "
                      "percentage of Facility costs?")[0].decision != "answer"
    finally:
        k.close()


def test_one_line_in_two_years(costs) -> None:
    # a comparison of two periods, not a part of a whole: it may exceed 100 %
    assert answered(costs, "What is the 2018 other costs expressed as a percentage of 2019 "
                           "other costs?") == ("percent_of", 200.0, "percent")
    assert answered(costs, "What is the ratio of the other costs in fiscal 2019 to fiscal "
                           "2018?")[1:] == (0.5, "")


def test_a_sum_of_listed_lines_over_their_total(costs, kb) -> None:
    assert answered_n(costs, "What is the proportion, in percentage, of facility costs and "
                             "other over the total costs in 2019?", 3) == (
        "percent_of", 25.0, "percent")
    assert answered_n(kb, "What is the percentage of operating leases and purchase "
                          "obligations due in less than 1 year over the total contractual "
                          "obligations?", 3)[1] == 95.0
    # a listed line without a figure in the year: no sum to give
    assert ask(costs, "What is the proportion, in percentage, of facility costs and other "
                      "over the total costs in 2018?")[0].decision != "answer"


def answered_n(kb, q: str, n: int) -> tuple:
    ans, ta = ask(kb, q)
    assert ans.decision == "answer", (q, ans.decision, ans.text)
    assert not ans.verification.get("failures"), ans.verification.get("failures")
    assert len(ans.evidence) == n, "the parts and the whole are cited"
    return ta["operation"], ta["value"], ta["scale"]
