"""The readers' scope (`hyrag.answer.readers.scope`, issue 20): tables beyond a report's size
are left to the structural fetch and the SQL route. Here every table of more than one row counts as
large, so the views are exercised on the governance fixture: over the whole store, and over a
subject's own views (the source filter must still hold beneath the size filter)."""

from __future__ import annotations

import pytest

from hyrag.answer.readers import scope
from hyrag.policy.views import governed_store
from tests.policy.conftest import sources_by


def _large(con) -> set[tuple[str, str]]:
    return set(con.execute("SELECT source_id, table_name FROM main.kb_tables "
                           "WHERE n_rows > 1").fetchall())


def test_without_large_tables_the_readers_get_the_stores_own_connection(owner) -> None:
    assert scope.readers_con(owner.store) is owner.store.con  # no table beyond 5,000 rows


def test_the_readers_views_leave_out_the_large_tables_and_their_claims(
        owner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scope, "READER_MAX_ROWS", 1)
    large = _large(owner.store.con)
    assert large
    con = scope.readers_con(owner.store)
    assert con is not owner.store.con and scope.readers_con(owner.store) is con  # pooled
    cur = con.cursor()
    seen = set(cur.execute("SELECT source_id, table_name FROM kb_tables").fetchall())
    assert not seen & large
    cells = set(cur.execute("SELECT DISTINCT source_id, table_name FROM claims "
                            "WHERE table_name IS NOT NULL").fetchall())
    assert not cells & large
    n_text = owner.store.con.execute(
        "SELECT count(*) FROM claims WHERE table_name IS NULL").fetchone()[0]
    assert cur.execute("SELECT count(*) FROM claims WHERE table_name IS NULL"
                       ).fetchone()[0] == n_text  # prose stays


def test_under_a_policy_the_size_filter_sits_on_the_subjects_views(
        owner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scope, "READER_MAX_ROWS", 1)
    src = sources_by(owner)
    allowed = frozenset({src[("notes.md", "acme")], src[("orders.csv", "acme")]})
    gs = governed_store(owner.store, allowed)
    con = scope.readers_con(gs)
    got = {r[0] for r in con.cursor().execute("SELECT DISTINCT source_id FROM claims"
                                              ).fetchall()}
    assert got and got <= allowed  # nothing of a denied source
    large = _large(owner.store.con)
    assert not set(con.cursor().execute(
        "SELECT DISTINCT source_id, table_name FROM claims WHERE table_name IS NOT NULL"
    ).fetchall()) & large


def test_an_answer_over_a_large_table_still_comes_from_the_structural_fetch(
        owner, monkeypatch: pytest.MonkeyPatch) -> None:
    question = "What was the revenue of order SO-00007?"
    before = owner.ask(question)
    monkeypatch.setattr(scope, "READER_MAX_ROWS", 1)
    after = owner.ask(question)
    assert (after.decision, after.text) == (before.decision, before.text)
