"""Fixtures of the ingest tests that read claims back through a knowledge base."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import hyrag
from hyrag.kb import KnowledgeBase
from hyrag.settings import Settings


@pytest.fixture()
def kb(tmp_path: Path) -> Iterator[KnowledgeBase]:
    """An empty knowledge base without vectors (ingest tests read claims, not search)."""
    k = hyrag.open(tmp_path / "kb", settings=Settings(answer_use_search=False))
    yield k
    k.close()


def cell_claims(kb: KnowledgeBase, name: str) -> dict[str, tuple]:
    """cell address -> (entity, attribute, time_key, value_num) of a file's cell claims."""
    rows = kb.store.con.execute(
        "SELECT cell, entity, attribute, time_key, value_num FROM claims "
        "WHERE kind = 'cell' AND file = ?", [name]).fetchall()
    return {r[0]: r[1:] for r in rows}
