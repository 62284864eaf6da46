"""The reader stage's caches (speed only; answers must not change): the view key read once per
question, memoised word helpers that still hand out their own sets, per-view indexes that a new
ingest invalidates, tableops' candidate tables from a cached index equal to the store's answer,
and audit rows written in one statement."""

from __future__ import annotations

import pandas as pd
import pytest

import hyrag
from hyrag.answer.audit import AuditTrail, replay
from hyrag.answer.parse import catalog
from hyrag.answer.readers import tableops, tableqa
from hyrag.answer.readers import tableqa_rows as tr
from hyrag.settings import Settings

SETTINGS = Settings(answer_use_search=False)
STATEMENT = [["Revenue", "1,200", "1,000"], ["Cost of sales", "700", "650"],
             ["Operating income", "500", "350"]]


def _statement(kb, rows: list[list[str]], name: str) -> None:
    df = pd.DataFrame(rows, columns=["item", "2019", "2018"])
    df.attrs["title"] = "Northwind — Income statement"
    kb.ingest(df, name=name)


@pytest.fixture
def kb(tmp_path):
    k = hyrag.open(tmp_path / "kb", settings=SETTINGS)
    _statement(k, STATEMENT, "income")
    yield k
    k.close()


def test_view_key_pinned_once_per_question(kb) -> None:
    con = kb.store.con
    calls = []  # view_key opens one cursor per read

    class Counting:
        def __init__(self, c) -> None:
            self.c = c

        def cursor(self):
            calls.append(1)
            return self.c.cursor()

    counted = Counting(con)
    key = catalog.view_key(counted)
    assert len(calls) == 1
    with catalog.pinned_view(counted) as pinned:
        assert pinned == key
        for _ in range(5):
            assert catalog.view_key(counted) == key
        assert len(calls) == 2  # the pin's own read, none after
        # another connection is not served the pinned key
        other = Counting(con)
        catalog.view_key(other)
        assert len(calls) == 3
    catalog.view_key(counted)
    assert len(calls) == 4  # outside the block: read again


def test_memoised_words_hand_out_their_own_sets() -> None:
    a = tr.content("Operating income, net")
    a.add("mutated")
    assert "mutated" not in tr.content("Operating income, net")
    w = tr.words("Incentive schemes1")
    assert w == ["incentive", "schemes"]
    w.append("x")
    assert tr.words("Incentive schemes1") == ["incentive", "schemes"]


def test_line_item_index_follows_a_new_ingest(kb) -> None:
    q = "What was the Gross margin in 2019?"
    assert tableqa.resolve(q, kb.store.con) is None
    _statement(kb, [["Gross margin", "500", "350"]], "margin")
    r = tableqa.resolve(q, kb.store.con)
    assert r is not None and r.answer == 500.0


def test_candidate_tables_index_equals_the_store(tmp_path, monkeypatch) -> None:
    k = hyrag.open(tmp_path / "kb", settings=SETTINGS)
    try:
        k.ingest(pd.DataFrame({"club": ["Crettyard", "Rovers"], "wins": [3, 5]}), name="clubs")
        k.ingest(pd.DataFrame({"city": ["Dublin", "Cork"], "people": [10, 20],
                               "region": ["Leinster", "Munster"]}), name="cities")
        qs = ["how many wins did crettyard have?", "is munster there?",
              "which club had the most wins?", "what about the Leinster and Munster region?",
              "what about Dublin?"]
        cached = [tableops.candidate_tables(q, k.store.con) for q in qs]
        # a header word (wins, region), a text cell's value (munster); an id is no cell value
        assert cached == [{"clubs"}, {"cities"}, {"clubs"}, {"cities"}, set()]
        monkeypatch.setattr(tableops, "_MAX_VALUES", 0)  # too many values: ask the store
        tableops._HEADERS.clear()
        assert [tableops.candidate_tables(q, k.store.con) for q in qs] == cached
    finally:
        tableops._HEADERS.clear()
        k.close()


def test_audit_rows_written_whole(kb, monkeypatch) -> None:
    from hyrag.answer import audit

    monkeypatch.setattr(audit, "CHUNK", 3)  # several statements
    trail = AuditTrail()
    for i in range(7):
        trail.add("step", {"i": i})
    assert trail.write(kb.store)
    got = replay(kb.store, trail.request_id)
    assert [e["payload"]["i"] for e in got] == list(range(7))
    assert [e["kind"] for e in got] == ["step"] * 7
