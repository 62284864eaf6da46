"""A knowledge base of all of sample_data/ (tables, messy workbooks, conflicts, PDFs), built once
per session without vectors; the answer engine runs on its structural Horizon here."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import hyrag
from hyrag.bench.answers import sample_files
from hyrag.settings import Settings

SETTINGS = Settings(answer_use_search=False)


def csv_kb(folder: Path, name: str, text: str, settings: Settings = SETTINGS):
    """A knowledge base in `folder` holding one CSV file `name` written with `text`, ingested as
    a user would (`kb.ingest(path)`); open, for the caller to close."""
    path = Path(folder) / name
    path.write_text(text, encoding="utf-8")
    kb = hyrag.open(Path(folder) / "kb", settings=settings)
    kb.ingest(path)
    return kb


@pytest.fixture(scope="session")
def answer_kb_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("kb") / "answers"
    with hyrag.open(path) as kb:
        kb.ingest_many(sample_files())
    return path


@pytest.fixture(scope="session")
def akb(answer_kb_dir: Path):
    kb = hyrag.open(answer_kb_dir, settings=SETTINGS)
    yield kb
    kb.close()


def statement_kb(tmp_path_factory: pytest.TempPathFactory, rows: list[list[str]],
                 title: str | None, name: str,
                 columns: tuple[str, ...] | list[str] = ("item", "2019", "2018", "2017")):
    """A knowledge base of one table (a DataFrame, with a caption unless `title` is None), as
    the table readers' tests build it: rows of (label, amounts per period or column)."""
    df = pd.DataFrame(rows, columns=list(columns))
    if title is not None:
        df.attrs["title"] = title
    k = hyrag.open(tmp_path_factory.mktemp(name) / "kb", settings=SETTINGS)
    k.ingest(df, name=name)
    return k


def ask_with_table_answer(kb, q: str):
    """(the engine's answer, the table reader's own reading of it) for one question."""
    from hyrag.answer.engine import AnswerEngine

    eng = AnswerEngine(kb)
    ans = eng.ask(q)
    return ans, eng.last_table_answer
