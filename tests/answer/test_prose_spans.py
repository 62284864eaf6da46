"""The span reader (`prose_spans`) on report paragraphs written for these tests: a question
asking what a term represents / comprises / includes, or how it is calculated, is answered with
the clause a sentence whose subject is that term states, quoted and cited; two sentences that
disagree, a sentence about another subject, a qualified verb or a breakdown of figures are
abstained on."""

from __future__ import annotations

import pytest

import hyrag
from hyrag.answer.engine import AnswerEngine
from hyrag.answer.readers import prose_spans
from hyrag.settings import Settings
from ingest.textclaims import defines, extract_claims
from ingest.types import Passage

PARAGRAPHS = [
    "Order intake represents commitments from customers to purchase goods that will result in "
    "recognised revenue.",
    "Working capital consists of current assets less current liabilities.",
    "Adjusted EBITDA is calculated by adding back depreciation and amortisation to operating "
    "profit; it is reported quarterly.",
    "The Company's capital leases reflect building and office equipment lease obligations.",
    "Infrastructure platforms consisted of our core networking products.",
    "Total lease liabilities as of January 31, 2020 excluded lease payments for leases signed "
    "but not yet commenced of $361 million.",
    "Services revenue is comprised primarily of fees for maintenance services.",
    "Investment in associates comprises a 32.4 per cent holding in Alpha Ltd and a 26.8 per cent "
    "holding in Beta Ltd.",
    "Goodwill represents the excess of the consideration over the fair value of net assets.",
    "Goodwill represents amounts arising on the acquisition of subsidiaries.",
    "The unit price, which represents the average selling price, is reported weekly.",
    "Audit fees include fees for the annual audit, while tax fees include fees for tax "
    "compliance.",
    "Purchase obligations represent open purchase orders for which we have not received the "
    "goods.",
    "Deferred revenue does not include amounts billed in advance.",
]


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):
    k = hyrag.open(tmp_path_factory.mktemp("spans") / "kb",
                   settings=Settings(answer_use_search=False))
    k.ingest_text(PARAGRAPHS, source="annual_report")
    yield k
    k.close()


def read(kb, q: str):
    r = prose_spans.resolve(q, kb.store.con)
    return None if r is None else r.answer


def test_a_definition_is_the_clause_after_the_verb(kb) -> None:
    assert read(kb, "What does order intake represent?") == (
        "commitments from customers to purchase goods that will result in recognised revenue")
    assert read(kb, "What does working capital consist of?") == (
        "current assets less current liabilities")
    assert read(kb, "What do capital leases reflect?") == (
        "building and office equipment lease obligations")


def test_how_is_it_calculated_cut_where_another_clause_starts(kb) -> None:
    assert read(kb, "How is Adjusted EBITDA calculated?") == (
        "by adding back depreciation and amortisation to operating profit")


def test_a_leading_our_is_the_reports_voice(kb) -> None:
    assert read(kb, "What did infrastructure platforms consist of?") == (
        "core networking products")


def test_the_subject_may_carry_the_date_the_question_names(kb) -> None:
    assert read(kb, "What did total lease liabilities as of 2020 exclude?") == (
        "lease payments for leases signed but not yet commenced of $361 million")
    assert read(kb, "What did total lease liabilities as of 2019 exclude?") is None


def test_a_qualified_verb_or_a_breakdown_of_figures_is_not_quoted(kb) -> None:
    assert read(kb, "What does services revenue comprise of?") is None
    assert read(kb, "What does investment in associates comprise of?") is None


def test_two_sentences_that_disagree_are_an_ambiguity(kb) -> None:
    assert read(kb, "What does goodwill represent?") is None


def test_the_term_must_be_the_sentences_subject(kb) -> None:
    assert read(kb, "What does the average selling price represent?") is None
    assert read(kb, "What does the unit price represent?") is None  # "which represents"
    # the clause after "while" speaks of tax fees, not of audit fees
    assert read(kb, "What do audit fees include?") == "fees for the annual audit"
    assert read(kb, "What do tax fees include?") is None


def test_a_negation_is_quoted_with_its_clause(kb) -> None:
    assert read(kb, "What do purchase obligations represent?") == (
        "open purchase orders for which we have not received the goods")
    assert read(kb, "What does deferred revenue include?") is None


def test_other_questions_are_not_read(kb) -> None:
    assert read(kb, "What was the order intake in 2019?") is None
    assert read(kb, "Why did order intake increase?") is None


def test_the_engine_answers_with_the_span_and_cites_the_sentence(kb) -> None:
    ans = AnswerEngine(kb).ask("What does working capital consist of?")
    assert ans.decision == "answer"
    assert "current assets less current liabilities" in ans.text
    assert len(ans.evidence) == 1
    assert ans.evidence[0]["text"].startswith("Working capital consists of")


def test_numberless_definitions_are_kept_as_sentence_claims() -> None:
    assert defines("Order intake represents commitments from customers.")
    assert defines("EBITDA is calculated by adding back depreciation.")
    assert not defines("Revenue grew strongly in the year.")
    assert not defines("What does order intake represent?")
    claims, _ = extract_claims([Passage(source="r", page=None, paragraph=0,
                                        text="Order intake represents commitments. "
                                             "Sales were strong.")])
    assert [(c.kind, c.text) for c in claims] == [
        ("sentence", "Order intake represents commitments.")]
