"""The prose reader (`prose_read`, `prose_periods`) on a few report paragraphs written for these
tests: amounts a sentence states are answered in the sentence's own form, the period of each
amount is read the way an analyst reads it ("respectively", bracketed comparatives, a change
"from 2018 to 2019"), simple arithmetic runs through derivations the verifier re-computes, and
a question the prose does not answer unambiguously is abstained on."""

from __future__ import annotations

import pandas as pd
import pytest

import hyrag
from hyrag.answer.engine import AnswerEngine
from hyrag.answer.readers import prose_periods, prose_read
from hyrag.settings import Settings

PARAGRAPHS = [
    "Network infrastructure costs include $4.2 million of hosting related costs that were "
    "recorded in cost of revenue in fiscal year 2018.",
    "Depreciation expense on plant and equipment was $7.1 million, $6.4 million and $5.9 "
    "million during fiscal 2019, 2018 and 2017, respectively.",
    "The maximum exposure to credit risk at 31 March 2019 was £41.3m (2018: £38.0m).",
    "Our field service workforce increased by 85 employees, from 1,240 employees at June 30, "
    "2018 to 1,325 employees at June 30, 2019.",
    "Net cash provided by operating activities increased $118 million for fiscal 2019 as "
    "compared to fiscal 2018.",
    "The Company adopted ASC 842 effective January 1, 2019.",
    "Warranty reserves were $3.0 million at the end of 2019.",
    "After the reclassification, warranty reserves were $3.4 million at the end of 2019.",
    "At December 31, 2019, the weighted-average remaining lease term of the office leases is "
    "approximately 6.5 years.",
    "The standard rate of corporation tax in the United Kingdom is 19.0%.",
    "Freight costs decreased $2.6 million from 2018 to 2019, primarily due to a $1.9 million "
    "decrease in fuel surcharges.",
    "Amortization expense was $8,410 and $7,950 for the years ended December 31, 2019 and 2018, "
    "respectively, of which $2,115 and $1,870, respectively, related to acquired customer "
    "lists.",
    "Fiscal 2019 includes pre-tax restructuring expenses of $3.3 million, offset by income from "
    "a regional grant.",
    "At December 31, 2019, the Group held a reserve of $44.2 million against its Canadian "
    "receivables and a reserve of $12.8 million against certain of its Mexican receivables.",
    "In 2019, $75 million of trade receivables were sold without recourse.",
    "Plan assets included approximately $41 million of Northwind bonds, or 0.18% of total plan "
    "assets, at December 31, 2019 and approximately $37 million of Northwind bonds, or 0.16% of "
    "total plan assets, at December 31, 2018.",
    "Of the $5.1 billion and $4.6 billion deferred revenue at December 31, 2019 and 2018, "
    "respectively, $3.2 billion and $2.9 billion is reported as short-term deferred revenue and "
    "$1.9 billion and $1.7 billion is reported as long-term deferred revenue at December 31, "
    "2019 and 2018, respectively.",
    "In 2024, travel claims had to be filed within 45 days of the trip.",
    "The price per share of Northwind at 31 December 2019 was 412p, valuing our holding at £5.6 "
    "million.",
]


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):
    k = hyrag.open(tmp_path_factory.mktemp("prose") / "kb",
                   settings=Settings(answer_use_search=False))
    k.ingest_text(PARAGRAPHS, source="annual_report")
    yield k
    k.close()


def read(kb, q: str):
    r = prose_read.resolve(q, kb.store.con)
    return None if r is None else (r.answer, r.scale)


# -- amounts a sentence states ---------------------------------------------------------------
def test_amount_in_its_sentence_form(kb) -> None:
    assert read(kb, "What was the hosting related costs in 2018?") == ("$4.2 million", "")


def test_respectively_pairs_amounts_with_periods_in_order(kb) -> None:
    assert read(kb, "What was the depreciation expense in 2018?") == ("$6.4 million", "")
    assert read(kb, "What was the depreciation expense in 2017?") == ("$5.9 million", "")


def test_several_periods_respectively_is_a_multi_span(kb) -> None:
    assert read(kb, "What was the depreciation expense in 2019 and 2018 respectively?") == (
        ["$7.1 million", "$6.4 million"], "")


def test_bracketed_comparative_is_the_prior_period(kb) -> None:
    assert read(kb, "What was the maximum exposure to credit risk at 31 March 2018?") == (
        "£38.0m", "")
    assert read(kb, "What was the maximum exposure to credit risk at 31 March 2019?") == (
        "£41.3m", "")


def test_count_drops_its_noun_and_picks_the_period(kb) -> None:
    q = "How many employees were in the field service workforce at June 30, 2019?"
    assert read(kb, q) == ("1,325", "")


def test_a_stated_change_answers_a_change_question(kb) -> None:
    q = "What was the increase in cash provided by operating activities in 2019?"
    assert read(kb, q) == ("$118 million", "")
    # a change stated "from 2018 to 2019" is that span's change, not its component's
    assert read(kb, "How much did freight costs decrease by from 2018 to 2019?") == (
        "$2.6 million", "")


def test_a_part_answers_only_a_question_naming_it(kb) -> None:
    assert read(kb, "What was the amortization expense in 2019?") == ("$8,410", "")
    q = "What was the amortization expense related to acquired customer lists in 2018?"
    assert read(kb, q) == ("$1,870", "")


def test_a_word_only_another_amount_carries_rules_out_the_nearer_one(kb) -> None:
    q = "What was the reserve against Canadian receivables at December 31, 2019?"
    assert read(kb, q) == ("$44.2 million", "")
    q = "What was the reserve against certain of its Mexican receivables at December 31, 2019?"
    assert read(kb, q) == ("$12.8 million", "")


def test_how_many_million_asks_for_an_amount(kb) -> None:
    q = "How many million of trade receivables were sold without recourse in 2019?"
    assert read(kb, q) == ("$75 million", "")


def test_a_duration_answers_only_a_duration_question(kb) -> None:
    q = "Within how many days did travel claims have to be filed in 2024?"
    assert read(kb, q) == ("45 days", "")
    assert read(kb, "What was the travel claims amount in 2024?") is None


def test_a_duration_keeps_its_unit(kb) -> None:
    q = "What was the weighted-average remaining lease term of the office leases in 2019?"
    assert read(kb, q) == ("6.5 years", "")


# -- arithmetic over stated amounts ----------------------------------------------------------
def test_average_and_percentage_change_through_derivations(kb) -> None:
    r = prose_read.resolve("What was the average depreciation expense in 2018 and 2019?",
                           kb.store.con)
    assert r is not None and (r.answer, r.scale) == (6.75, "million")
    assert r.derivations[0].name == "mean"
    r = prose_read.resolve("What was the percentage change in depreciation expense from 2018 "
                           "to 2019?", kb.store.con)
    assert r is not None and (r.answer, r.scale) == (10.94, "percent")
    assert [o.value for o in r.derivations[0].operands] == [6.4, 7.1]


def test_an_aside_of_another_kind_does_not_hide_the_period(kb) -> None:
    assert read(kb, "What is the average Northwind bonds for 2018 and 2019?") == (39.0,
                                                                                 "million")


def test_lists_joined_by_and_each_own_their_predicate(kb) -> None:
    q = "What is the total amount reported as long-term deferred revenue in 2018 and 2019?"
    assert read(kb, q) == (3.6, "billion")


# -- abstentions -----------------------------------------------------------------------------
@pytest.mark.parametrize("q", [
    "When did the Company adopt ASC 842?",  # a date, not an amount; 842 is a label
    "What was the warranty reserve at the end of 2019?",  # two sentences, two values
    "What was the depreciation expense in 2016?",  # no amount for that period
    "What was the hosting related costs for Europe in 2018?",  # "Europe" is unexplained
    "What was the depreciation expense?",  # three periods, none named
    "Why did depreciation expense increase in 2019?",  # asks for words
    "What is the percentage change in the number of Northwind stores from 2018 to 2019?",
    "What was the income tax expense in 2019?",  # the words are scattered over the sentence
    "What was the price per share of Northwind at 31 December 2019?",  # £5.6 million is not
    "How much did freight costs decrease by from 2017 to 2019?",  # stated for 2018-2019 only
    "How much did freight costs change by in 2020?",
    # no period named: the engine asks to clarify; the prose reader does not date it itself
    "What was the standard rate of corporation tax in the United Kingdom?",
    "What was the increase in cash provided by operating activities?",
])
def test_abstains_when_the_prose_does_not_say(kb, q: str) -> None:
    assert read(kb, q) is None


# -- through the engine: the same Answer, audit and verification as a table answer -----------
def test_engine_answers_from_prose_and_verifies(kb) -> None:
    eng = AnswerEngine(kb)
    a = eng.ask("What was the hosting related costs in 2018?")
    assert a.decision == "answer", a.text
    assert a.verification["verdict"] == "pass"
    assert eng.last_table_answer["value"] == "$4.2 million"
    assert "$4.2 million [1]" in a.text
    a = eng.ask("What was the average depreciation expense in 2018 and 2019?")
    assert a.decision == "answer", a.text
    assert a.derivations and a.derivations[0]["result"] == 6.75


def test_prose_does_not_replace_a_direct_table_answer(tmp_path) -> None:
    k = hyrag.open(tmp_path / "kb", settings=Settings(answer_use_search=False))
    try:
        df = pd.DataFrame({"region": ["North", "South", "North", "South"],
                           "year": [2023, 2023, 2024, 2024],
                           "revenue": [1200.0, 900.0, 1500.0, 950.0]})
        k.ingest(df, name="sales")
        k.ingest_text(["North revenue was $9.9 million in 2024 under the old segment map."],
                      source="memo")
        q = "What was the revenue of North in 2024?"
        assert read(k, q) == ("$9.9 million", "")  # the prose alone would answer
        eng = AnswerEngine(k)
        a = eng.ask(q)
        assert a.decision == "answer"
        assert "1,500" in a.text and "9.9" not in a.text  # the table's direct answer stands
    finally:
        k.close()


# -- the periods of a sentence's amounts -----------------------------------------------------
def _assign(text: str, amounts: list[str]) -> list[str | None]:
    spans, at = [], 0
    for t in amounts:
        k = text.index(t, at)
        spans.append((k, k + len(t)))
        at = k + len(t)
    return prose_periods.assign(text, spans)


def test_periods_respectively_brackets_and_neighbours() -> None:
    s = "Revenue was $5 million, $4 million and $3 million in 2019, 2018 and 2017, respectively."
    assert _assign(s, ["$5 million", "$4 million", "$3 million"]) == ["2019", "2018", "2017"]
    s = "Debt was £13.0 million at 31 December 2019 (2018: £12.4 million)."
    assert _assign(s, ["£13.0 million", "£12.4 million"]) == ["2019", "2018"]
    s = "Income rose to $299.3 million in 2019 compared to $148.6 million in 2018."
    assert _assign(s, ["$299.3 million", "$148.6 million"]) == ["2019", "2018"]
    # counts that do not pair leave the amounts without a period
    s = "Fees were $2 million, $3 million and $4 million in 2019 and 2018, respectively."
    assert _assign(s, ["$2 million", "$3 million", "$4 million"]) == [None, None, None]


# -- a table that states the figure more precisely -------------------------------------------
def test_declines_a_rounded_restatement_of_a_table_figure(tmp_path) -> None:
    k = hyrag.open(tmp_path / "kb", settings=Settings(answer_use_search=False))
    try:
        df = pd.DataFrame([["Hosting fees", "4,215", "3,980"]], columns=["item", "2018", "2017"])
        df.attrs["title"] = "Fees (in thousands)"
        k.ingest(df, name="fees")
        k.ingest_text(["Hosting fees were $4.2 million and $4.0 million in 2018 and 2017, "
                       "respectively."], source="report")
        # the sentence's own figure is quoted; a mean of its roundings is not computed
        assert read(k, "What were the hosting fees in 2018?") == ("$4.2 million", "")
        assert read(k, "What were the average hosting fees in 2017 and 2018?") is None
        k.ingest_text(["Hosting margin was $7.5 million and $6.5 million in 2018 and 2017, "
                       "respectively."], source="report2")
        assert read(k, "What was the average hosting margin in 2017 and 2018?") == (7.0,
                                                                                     "million")
    finally:
        k.close()
