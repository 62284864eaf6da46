"""Answers that answer another question than the one asked: the engine abstains or reads the
question's own order instead (engine `_derive`, the CRAG retry, `guards`)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import hyrag
from hyrag.answer.decide import guards
from hyrag.settings import Settings
from tests.grids import ingest_grid

SETTINGS = Settings(answer_use_search=False)


@pytest.fixture()
def kb(tmp_path: Path):
    k = hyrag.open(tmp_path / "kb", settings=SETTINGS)
    yield k
    k.close()


def test_difference_between_two_items_is_first_named_minus_second(kb) -> None:
    df = pd.DataFrame([["Purchased technology", "4.2", "$232"],
                       ["Customer relationships", "7.0", "90"],
                       ["Trademarks and tradenames", "5.0", "25"]],
                      columns=["item", "Weighted-Average Useful Lives (in years)",
                               "Fair Value Amount"])
    df.attrs["title"] = "(in millions)"
    kb.ingest(df, name="intangibles")
    a = kb.ask("What was the difference in the fair value amount between purchased technology "
               "and trademarks and tradenames?")
    assert a.decision == "answer" and a.derivations[-1]["result"] == 207
    b = kb.ask("What was the difference in the fair value amount between trademarks and "
               "tradenames and purchased technology?")
    assert b.decision == "answer" and b.derivations[-1]["result"] == -207


def test_one_cell_standing_for_both_figures_is_no_difference(kb) -> None:
    df = pd.DataFrame([["Net receivables", "23,524", "4,055"], ["Allowance", "(120)", "(40)"]],
                      columns=["item", "Current $'000", "Non-current $'000"])
    kb.ingest(df, name="receivables")
    a = kb.ask("What was the difference between total net receivables and current net "
               "receivables?")
    assert a.decision != "answer"  # not "23,524 minus 23,524 is 0"
    assert not a.derivations


MORTALITY = [["", "2019", "", "2018", ""], ["", "Men", "Women", "Men", "Women"],
             ["", "Years", "Years", "Years", "Years"],
             ["Member aged 65 (current life expectancy)", "86.8", "88.9", "87.3", "89.3"],
             ["Member aged 45 (life expectancy at age 65)", "88.5", "90.7", "89.0", "91.1"]]


def test_a_change_is_not_answered_by_the_lookup_a_retry_asks(kb) -> None:
    ingest_grid(kb, MORTALITY, "mortality")
    for q in ("What was the change in the average life expectancy for a male member aged 65 "
              "in 2019 from 2018?",
              "What was the percentage change in the average life expectancy for a male member "
              "aged 65 in 2019 from 2018?"):
        assert kb.ask(q).decision != "answer", q
    # a plain lookup still may be answered by its rewrite
    a = kb.ask("What is the current average life expectancy in 2019 for a male member aged 65 "
               "in years?")
    assert a.decision == "answer" and "86.8" in a.text


def test_asks_for_comparison() -> None:
    for q in ("What was the change in revenue?", "What is the percentage change in X?",
              "What was the increase in interest income?", "What is the ratio of A to B?",
              "What is the proportion of long-term debt due in 5 years?",
              "What was A as a percentage of total sales?"):
        assert guards.asks_for_comparison(q), q
    for q in ("What was the revenue in 2019?", "In which year was revenue more than 500?",
              "What is the average price in 2019?"):
        assert not guards.asks_for_comparison(q), q


def test_increased_by_is_a_change_not_a_lookup() -> None:
    from hyrag.answer.readers import tableqa_read as read

    assert read.operation("How much did sales increased by from 2018 to 2019?", "Sales", 1) \
        == "difference"
    assert read.operation("How much was revenue decreased by in 2019?", "Revenue", 1) \
        == "difference"
    assert read.operation("What was the revenue in 2019?", "Revenue", 1) == "lookup"


def test_growth_is_of_one_line_item(kb) -> None:
    grid = [["($ in millions)", "", "", ""],
            ["Reporting Segment", "Fiscal 2019 Net Sales", "Fiscal 2018 Net Sales",
             "% Inc (Dec)"],
            ["Grocery & Snacks .", "$3,279.2", "$3,287.0", "—%"],
            ["Refrigerated & Frozen", "2,804.0", "2,753.0", "2%"],
            ["International", "793.4", "843.5", "(6)%"],
            ["Foodservice", "934.2", "1,054.8", "(11)%"],
            ["Pinnacle Foods", "1,727.6", "—", "100%"],
            ["Total", "$9,538.4", "$7,938.3", "20%"]]
    ingest_grid(kb, grid, "segments")
    a = kb.ask("What is the percentage change in total net sales of International and "
               "Foodservice from fiscal year 2018 to 2019?")
    # not "from International's 2018 to Foodservice's 2019" (10.75%)
    assert a.decision != "answer" or "10.75" not in a.text


def test_an_average_over_periods_is_not_one_periods_figure(kb) -> None:
    years = ["Year Ended December 31,"] * 3
    grid = [["", *years], ["", "2019", "2018", "2017"],
            ["", *["(As percentage of net revenues)"] * 3],
            ["OEM", "70%", "65%", "66%"], ["Distribution", "30", "35", "34"],
            ["Total", "100%", "100%", "100%"]]
    ingest_grid(kb, grid, "channels")
    a = kb.ask("What is the average percentage of net revenues of OEM?")
    assert a.decision != "answer" or "67" in a.text  # not 2017's 66%


def test_a_qualifier_the_line_lacks_names_another_line(kb) -> None:
    from hyrag.answer.readers import tableqa

    grid = [["", "Year Ended December 31,", ""], ["", "2019", "2018"],
            ["Current income tax expense (benefit):", "", ""], ["Federal", "$ 12", "$ 40"],
            ["State", "1,019", "903"], ["Income tax expense (benefit)", "$ (7,125)", "$ 4,508"]]
    ingest_grid(kb, grid, "taxes")
    r, _ = tableqa.read_line_item("How much was the company's income before income tax expense "
                                  "in 2019?", kb.store.con)
    assert r is None  # not the line "Income tax expense (benefit)"
    r, _ = tableqa.read_line_item("How much was the income tax expense in 2019?", kb.store.con)
    assert r is not None and r.answer == -7125


def test_the_greater_of_negative_figures_is_ambiguous(kb) -> None:
    from hyrag.answer.readers import tableqa

    grid = [["£m", "2019", "2018"], ["At 1 January", "65.6", "64.8"],
            ["Foreign exchange movements", "(4.2)", "(1.5)"], ["At 31 December", "61.4", "65.6"]]
    ingest_grid(kb, grid, "associates")
    r, _ = tableqa.read_line_item("In which year is there a greater foreign exchange movement?",
                                  kb.store.con)
    assert r is None  # 2019's (4.2) is larger in size, 2018's (1.5) the larger value
    r, _ = tableqa.read_line_item("In which year were foreign exchange movements higher?",
                                  kb.store.con)
    assert r is not None and r.answer == "2018"
