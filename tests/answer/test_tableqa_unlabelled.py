"""Line items a statement names without naming them, and arithmetic conventions across periods:
an unlabelled row adding up the lines above it is their total ("Total long-lived assets", "Total
dividend"); a label's own period ("... for the year ended 30 June 2018") is no part of its name;
the percentage change of a line shown in brackets in both years is the change in its size; a
line's name quoting "attributable to" asks for no explanation; an average the direct route
only lists is computed by the line-item reader; a count column does not answer a money
question."""

from __future__ import annotations

import pytest

from hyrag.answer.readers import tableqa, tableqa_totals
from tests.answer.conftest import ask_with_table_answer, statement_kb

ASSETS = [
    ["Long-lived assets:", "", "", ""],
    ["United States", "933,054", "784,469", "575,264"],
    ["Europe", "72,928", "73,336", "77,211"],
    ["Korea", "28,200", "24,312", "19,982"],
    ["", "1,034,182", "882,117", "672,457"],
]

DIVIDENDS = [
    ["Final dividend for the year ended 30 June 2018 of AU 14 cents (2017: AU 12 cents)",
     "13,327", "12,534"],
    ["Interim dividend for the half year ended 31 December 2018 of AU 16 cents (2017: AU 13 "
     "cents)", "14,801", "13,099"],
    ["", "28,128", "25,633"],
]

# an unlabelled row that does not add up the lines above it: a memo line, not their total
MEMO = [
    ["Cash", "100", "90"],
    ["Receivables", "50", "40"],
    ["", "70", "60"],
]

BRACKETS = [
    ["Allowance for losses", "(238)", "(168)"],
    ["Net income (loss)", "542", "(762)"],
    ["Discount rate", "4.0%", "3.75%"],
    ["Net income attributable to Example Corporation stockholders", "1,887.8", "1,236.4"],
    ["Outstanding at end of period", "13,477,758", "10,692,594"],
]

SHARES = [
    ["Balance at end of period", "1,258.7", "1,313.3"],
]


@pytest.fixture(scope="module")
def assets(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, ASSETS, "Long-lived assets (in thousands)", "assets")
    yield k
    k.close()


@pytest.fixture(scope="module")
def dividends(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, DIVIDENDS, None, "dividends",
                     columns=("Consolidated", "2019 US$'000", "2018 US$'000"))
    yield k
    k.close()


@pytest.fixture(scope="module")
def memo(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, MEMO, None, "memo", columns=("item", "2019", "2018"))
    yield k
    k.close()


@pytest.fixture(scope="module")
def brackets(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, BRACKETS, "Results (in thousands)", "brackets",
                     columns=("item", "2019", "2018"))
    yield k
    k.close()


@pytest.fixture(scope="module")
def shares(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, SHARES, None, "shares",
                     columns=("item", "2019 NUMBER M", "2018 NUMBER M"))
    yield k
    k.close()


def ask(kb, q: str):
    return tableqa.resolve(q, kb.store.con)


def test_an_unlabelled_total_under_a_heading_is_the_headings_total(assets) -> None:
    r = ask(assets, "What is the percentage change in the total long-lived assets from 2018 "
                    "to 2019?")
    assert r.requirements[0].entity == "Total long-lived assets"
    assert (r.operation, r.answer) == ("change_ratio", round((1034182 - 882117) / 882117 * 100,
                                                             2))


def test_an_unlabelled_total_is_named_by_what_its_lines_share(dividends) -> None:
    r = ask(dividends, "What is the percentage change in the total dividends paid from 2018 "
                       "to 2019?")
    assert r.requirements[0].entity == "Total dividend"
    assert r.answer == 9.73


def test_a_labels_own_period_is_no_part_of_its_name(dividends) -> None:
    r = ask(dividends, "What is the percentage change in the final dividend from 2018 to 2019?")
    assert r.requirements[0].entity.startswith("Final dividend")
    assert r.answer == 6.33


def test_an_unlabelled_row_that_does_not_add_up_stays_nameless(memo, assets) -> None:
    assert tableqa_totals.names(memo.store.con) == {}
    assert list(tableqa_totals.names(assets.store.con).values()) == ["Total long-lived assets"]
    assert ask(memo, "What was the change in the total from 2018 to 2019?") is None


def test_a_bracketed_lines_percentage_change_is_the_change_in_its_size(brackets) -> None:
    r = ask(brackets, "What was the percentage change in the allowance for losses between 2018 "
                      "and 2019?")
    assert r.answer == 41.67
    assert [o.value for o in r.derivations[0].operands] == [168.0, 238.0]


def test_a_base_turning_from_negative_to_positive_is_not_guessed(brackets) -> None:
    assert ask(brackets, "What was the percentage change in net income (loss) between 2018 "
                         "and 2019?") is None


def test_a_percentage_change_of_a_rate_is_not_guessed(brackets) -> None:
    # relative (6.67%) or in points (0.25)? Readers take either
    assert ask(brackets, "What is the percentage change in the discount rate between 2018 "
                         "and 2019?") is None


def test_a_label_saying_attributable_to_asks_for_no_explanation(brackets) -> None:
    ans, t = ask_with_table_answer(brackets, "What was the percentage change in Net income "
                                   "attributable to Example Corporation stockholders between "
                                   "2018 and 2019?")
    assert ans.decision == "answer"
    assert t["value"] == 52.69


def test_an_average_the_direct_route_only_lists_is_computed(brackets) -> None:
    ans, t = ask_with_table_answer(brackets, "What is the average number of rights 'outstanding "
                                   "at end of period' for 2018 and 2019?")
    assert ans.decision == "answer"
    assert t is not None and t["value"] == 12085176.0


def test_a_count_column_does_not_answer_a_money_question(shares) -> None:
    assert ask(shares, "What is the average balance at end of period for 2018 and 2019 in "
                       "terms of $M?") is None
    assert ask(shares, "What is the average balance at end of period for 2018 and 2019?"
               ).answer == 1286.0


CARRYFORWARDS = [
    ["Income tax net operating loss carryforwards:", "", ""],
    ["Domestic-state", "2039", "$57,299"],
    ["Foreign", "2039 or indefinite", "$565,609"],
    ["Tax credit carryforwards:", "", ""],
    ["Domestic-federal", "2029", "$39,784"],
    ["Domestic-state", "2027", "$3,313"],
    ["Foreign", "2027 or indefinite", "$15,345"],
]


@pytest.fixture(scope="module")
def carry(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, CARRYFORWARDS, None, "carry",
                     columns=("(dollars in thousands)", "Last Fiscal Year of Expiration",
                              "Amount"))
    yield k
    k.close()
