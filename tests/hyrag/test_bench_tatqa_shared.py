"""`hyrag bench tatqa --shared`: which report an answer's evidence comes from."""

from __future__ import annotations

from hyrag.answer.answer import Answer
from hyrag.bench.tatqa_shared import cited_documents


def _answer(*evidence: dict) -> Answer:
    return Answer(text="", brief="", decision="answer", route="LOOKUP", trust="balanced",
                  evidence=evidence)


def test_the_documents_an_answer_cites_are_read_off_its_files_and_tables() -> None:
    cell = {"source": "doc0007.csv", "locator": '{"file": "doc0007.csv", "row": 3}'}
    sentence = {"source": "doc0012.txt", "locator": '{"file": "doc0012.txt", "sentence": 0}'}
    query = {"source": "sql", "locator": '{"sql": "SELECT 1", "table": "doc0031"}'}
    assert cited_documents(_answer(cell)) == {7}
    assert cited_documents(_answer(cell, sentence, query)) == {7, 12, 31}


def test_evidence_naming_no_document_places_the_answer_nowhere() -> None:
    assert cited_documents(_answer({"source": "sql", "locator": '{"sql": "SELECT 1"}'})) == set()
    assert cited_documents(_answer()) == set()
