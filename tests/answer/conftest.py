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


# a list table of players with a date column, read by the list-operator tests (the list-shape
# tests add a sixth player: `PLAYERS + ...`)
PLAYERS = """Name,Position,Club,Goals,Signed
Ana Ruiz,Forward,Montreal Impact,12,12 March 2004
Bo Lind,Defender,Toronto FC,3,2 May 2006
Cy Moss,Forward,Vancouver Whitecaps,9,9 June 2004
Di Park,Goalkeeper,Montreal Impact,0,1 July 2008
Ed Vale,Defender,Columbus Crew,5,3 April 2004
"""

# a list table (one row per skater), read by the list-table program tests
ROSTER = """Rank,Skater,Club,Wins,Podiums,Debut
1,Alma Torvik,Fjord SC,5,9,1998
2,Bram Ostler,Lakeside,3,7,2002
3,Cleo Marchetti,Alpina,3,6,2006
4,Dario Kent,Lakeside,1,4,2010
5,Esme Valdez,Sierra Norte,0,2,2014
"""


def fixed_ranker(folder: Path, weights: dict[str, float]) -> Settings:
    """Settings asking the program route alone, ranked by `weights` (saved in `folder`) with
    no abstention threshold: a test fixes which candidate wins, the fitted ranker's choice
    among them being no part of what it checks."""
    from hyrag.answer.programs.score import Model

    path = Path(folder) / "w.json"
    Model(weights, 0.0, {}).save(path)
    return Settings(answer_use_search=False, answer_core="programs", program_weights=str(path),
                    program_min_confidence=0.0)


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
