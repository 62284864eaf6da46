"""The program route end to end: a report table a user ingests, questions through `kb.ask`
with `answer_core="programs"`, answers read from the public `Answer` (the shipped ranker)."""

from __future__ import annotations

from pathlib import Path

import pytest

import hyrag
from hyrag.errors import SettingsError
from hyrag.kb import KnowledgeBase
from hyrag.settings import Settings

REPORT = """Revenue by line (in thousands),,
,2019,2018
Product,100,80
Services,50,40
Total revenue,150,120
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBase:
    folder = tmp_path_factory.mktemp("route")
    path = Path(folder) / "revenue.csv"
    path.write_text(REPORT, encoding="utf-8")
    kb = hyrag.open(folder / "kb", settings=Settings(answer_use_search=False,
                                                     answer_core="programs"))
    kb.ingest(path)
    yield kb
    kb.close()


@pytest.mark.parametrize(("question", "values", "scale", "op"), [
    ("What was the change in Services revenue from 2018 to 2019?", (10.0,), "thousand",
     "difference"),
    ("What was the percentage change in Product revenue from 2018 to 2019?", (25.0,),
     "percent", "change_ratio"),
    ("What was the average Product revenue for 2018 and 2019?", (90.0,), "thousand",
     "average"),
    ("What was the total revenue in 2019?", (150.0,), "thousand", "lookup"),
])
def test_a_program_answers_and_cites_its_cells(kb: KnowledgeBase, question: str,
                                               values: tuple, scale: str, op: str) -> None:
    ans = kb.ask(question)
    assert ans.decision == "answer", ans.verification
    got = tuple(float(v) if isinstance(v, float) else str(v) for v in ans.values)
    assert got == tuple(float(v) if isinstance(v, float) else v for v in values)
    assert ans.scale == scale
    assert ans.program["kind"] == "program" and ans.program["operation"] == op
    # every operand is a cited cell of the file, with its address
    assert ans.evidence and all("revenue.csv" in str(e) for e in ans.evidence)
    assert len(ans.program["operands"]) == len(ans.program["program"]["args"])


def test_the_answer_core_is_a_checked_setting() -> None:
    with pytest.raises(SettingsError, match="answer_core"):
        Settings(answer_core="oracle")
    with pytest.raises(SettingsError, match="program_min_confidence"):
        Settings(program_min_confidence=1.5)


def test_the_program_route_reads_models_without_pandas() -> None:
    """Reading a stored table model and ranking programs imports neither pandas nor NumPy: a
    fresh `hyrag ask` on the program route pays for neither (issue 20)."""
    import subprocess
    import sys

    code = ("import sys, hyrag.answer.programs.route, hyrag.tablecells; "
            "print(sorted(m for m in ('pandas', 'numpy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_fallback_asks_the_programs_only_where_no_reader_answers(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """`answer_core="fallback"`: a question a reader answers keeps the reader's answer; one
    no reader answers goes to the program route (threshold 0 here, so any program answers)."""
    folder = tmp_path_factory.mktemp("fallback")
    path = Path(folder) / "revenue.csv"
    path.write_text(REPORT, encoding="utf-8")
    with hyrag.open(folder / "kb", settings=Settings(answer_use_search=False)) as kb:
        kb.ingest(path)
    unread = "What was the average of Product and Services revenue in 2019?"
    read = "What was the sum of Product and Services revenue in 2018?"
    answers = {}
    for core in ("readers", "fallback"):
        s = Settings(answer_use_search=False, answer_core=core, program_min_confidence=0.0)
        with hyrag.open(folder / "kb", settings=s, read_only=True) as kb:
            answers[core] = (kb.ask(unread), kb.ask(read))
    assert answers["readers"][0].decision == "abstain"
    got = answers["fallback"][0]
    assert got.decision == "answer" and got.values == (75.0,), got.text
    assert got.program["kind"] == "program" and got.program["operation"] == "average"
    for a in (answers["readers"][1], answers["fallback"][1]):
        assert a.values == (120.0,) and a.program["kind"] == "table_reader"


ORDERS = """order_id,order_date,region,units
SO-1,2024-01-03,North,4
SO-2,2024-01-09,South,2
SO-3,2024-02-14,North,7
SO-4,2024-03-01,West,1
"""


def test_a_table_the_question_names_nothing_of_gets_no_program(tmp_path: Path) -> None:
    """"How many registered nurses did Riverside Clinic employ in 2024?" over a table of
    orders: counting the orders of 2024 fits the question's shape, not what it asks. Even with
    no abstention threshold the program route offers nothing, and the question stays a gap."""
    from hyrag.answer.programs.route import rank
    from tests.answer.conftest import csv_kb

    s = Settings(answer_use_search=False, answer_core="programs", program_min_confidence=0.0)
    with csv_kb(tmp_path, "orders.csv", ORDERS, s) as kb:
        question = "How many registered nurses did Riverside Clinic employ in 2024?"
        assert rank(question, kb.store.con) == []
        a = kb.ask(question)
        assert a.decision != "answer" and (a.program or {}).get("kind") != "program", a.text
        # a question naming the table's own words is still read
        assert kb.ask("How many orders were in the North region?").values == (2.0,)


NOTE = ("Depreciation and amortization. Depreciation expense was $2.5 million in 2019, "
        "recorded within cost of revenue.\n")
ASSETS = """Property and equipment (in thousands),,
,2019,2018
Buildings,900,850
Depreciation,-410,-380
Net property and equipment,490,470
"""


def test_prose_evidence_measures_how_well_a_sentence_answers(tmp_path: Path) -> None:
    """`spans.evidence`: the share of the question's weighted words the best sentence covers,
    the runner-up's, and whether the best states a figure; a knowledge base without prose
    gives none (the calibrator then reads the table program alone)."""
    from hyrag.answer.programs.score import ProseEvidence
    from hyrag.answer.programs.spans import evidence

    (tmp_path / "assets.csv").write_text(ASSETS, encoding="utf-8")
    with hyrag.open(tmp_path / "kb", settings=Settings(answer_use_search=False)) as kb:
        kb.ingest(tmp_path / "assets.csv")
        q = "What was the depreciation expense in 2019?"
        assert evidence(q, kb.store.con) == ProseEvidence()
        (tmp_path / "memo.txt").write_text(NOTE, encoding="utf-8")
        kb.ingest(tmp_path / "memo.txt")
        got = evidence(q, kb.store.con)
        assert got.figure and 0.5 < got.cover <= 1.0 and got.second <= got.cover
        # a question none of whose words the prose has is not answered by it
        assert evidence("How many buildings were leased?", kb.store.con).cover < got.cover


def test_a_sentence_that_answers_the_question_lowers_the_programs_confidence(
        tmp_path: Path) -> None:
    """The shipped calibrator weighs a table program against the report's prose
    (`score.ProseEvidence`): the same program over the same cells is less sure when a sentence
    of the report covers the question and states a figure of its own, since the asked figure
    may be the sentence's ("Depreciation expense was $2.5 million in 2019" beside a table's
    accumulated depreciation line) — or gives way to the NONE operator (`score.NONE`) and
    abstains."""
    q = "What was the depreciation in 2019?"
    s = Settings(answer_use_search=False, answer_core="programs", program_min_confidence=0.0)
    confidence = {}
    for with_note in (False, True):
        folder = tmp_path / str(with_note)
        folder.mkdir()
        (folder / "assets.csv").write_text(ASSETS, encoding="utf-8")
        with hyrag.open(folder / "kb", settings=s) as kb:
            kb.ingest(folder / "assets.csv")
            if with_note:
                (folder / "memo.txt").write_text(NOTE, encoding="utf-8")
                kb.ingest(folder / "memo.txt")
            from hyrag.answer.programs.route import answer

            got = answer(q, kb.store.con, min_confidence=0.0)
            assert got is None or got.program["operation"] == "lookup"
            confidence[with_note] = got.program["confidence"] if got is not None else None
    assert confidence[False] is not None  # the table alone: its line is the answer
    assert confidence[True] is None or confidence[True] < confidence[False]


def test_a_question_pointing_at_the_table_reads_the_only_one(tmp_path: Path) -> None:
    """"Which years does the table show?" names no word of the table's cells, yet asked of a
    knowledge base holding one table it means that table: its programs are ranked (the
    periods among them). With a second table the pointing is ambiguous, and a question that
    names neither gets no program."""
    from hyrag.answer.programs.route import rank

    q = "Which years does the table show?"
    (tmp_path / "revenue.csv").write_text(REPORT, encoding="utf-8")
    with hyrag.open(tmp_path / "kb", settings=Settings(answer_use_search=False)) as kb:
        kb.ingest(tmp_path / "revenue.csv")
        ranked = rank(q, kb.store.con)
        assert any(r.candidate.program.op == "labels" and set(r.result.values) == {"2019", "2018"}
                   for r in ranked)
        (tmp_path / "orders.csv").write_text(ORDERS, encoding="utf-8")
        kb.ingest(tmp_path / "orders.csv")
        assert rank(q, kb.store.con) == []
