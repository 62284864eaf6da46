"""The retrieval indexes saved in the knowledge-base folder (issue 20): a new knowledge-base
object (as a fresh process) searches from the saved, memory-mapped arrays with the same results
as a rebuild from the store, for the owner and for a restricted subject; an ingest makes the
saved ones stale; and the column layout reads back what was written."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from hyrag import kbcache
from hyrag.kb import KnowledgeBase
from hyrag.retrieve import catalog as catalog_mod
from hyrag.retrieve.columns import Groups, SortedKeys, TextColumn
from hyrag.retrieve.horizon import RETRIEVAL_CACHE

QUESTIONS = (
    "revenue of order SO-00007",
    "North region revenue in 2023",
    "Kara Lopze salary",  # a typo: the graph's fuzzy match
    "units sold by Kara Lopez",
    "Which company acquired Nordvik Shipping?",
    "What was the total revenue in 2024?",
)


def _files(root):
    root.mkdir(parents=True, exist_ok=True)
    pd.DataFrame({
        "order_id": [f"SO-{i:05d}" for i in range(40)],
        "region": [("North", "South", "East", "West")[i % 4] for i in range(40)],
        "sales_rep": [("Kara Lopez", "Ivo Brandt", "Mei Tanaka")[i % 3] for i in range(40)],
        "order_date": [f"202{2 + i % 3}-0{1 + i % 9}-15" for i in range(40)],
        "units": [i % 9 + 1 for i in range(40)],
        "revenue": [round(100.0 + 37.5 * i, 2) for i in range(40)],
    }).to_csv(root / "orders.csv", index=False)
    (root / "notes.md").write_text(
        "Halvorsen Group acquired Nordvik Shipping in 2023. Nordvik Shipping owns the "
        "Bergen terminal. Halvorsen Group reported revenue of 412 million NOK in 2024.\n")
    pd.DataFrame({"employee": ["Kara Lopez", "Ivo Brandt"], "salary": [81000, 79000]}).to_csv(
        root / "payroll.csv", index=False)
    return root


@pytest.fixture()
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HYRAG_EMBED_TIER", "hashed")
    files = _files(tmp_path / "files")
    with KnowledgeBase(tmp_path / "kb") as kb:
        for name in ("orders.csv", "notes.md", "payroll.csv"):
            kb.ingest(files / name)
        kb.index()
    return tmp_path / "kb"


def _view(res) -> list[tuple]:
    return [(c.claim_id, c.rank, round(c.fused_score, 9), c.ranks,
             {k: round(v, 6) for k, v in c.scores.items()}, c.text, c.locator, c.entity,
             c.value, c.time_key, None if c.confidence is None else round(c.confidence, 9),
             c.expanded_from) for c in res.claims]


def _searches(folder, sources=None) -> list[list[tuple]]:
    with KnowledgeBase(folder) as kb:
        return [_view(kb.search(q, k=10, allowed_sources=sources)) for q in QUESTIONS]


def test_index_saves_them_so_the_first_search_after_an_ingest_builds_nothing(folder,
                                                                               monkeypatch):
    (saved,) = (folder / kbcache.CACHE_DIR).glob(RETRIEVAL_CACHE + ".*")  # by kb.index()
    monkeypatch.setattr("hyrag.retrieve.horizon.load_catalog", _no_build)
    assert all(_searches(folder))
    with KnowledgeBase(folder) as kb:
        assert not kb.horizon.prepare()  # saved for this store: nothing to build


def _no_build(con):
    raise AssertionError("the catalog was rebuilt, not read from the folder")


def test_a_new_kb_object_searches_from_the_saved_arrays_as_a_rebuild_does(folder, monkeypatch):
    first = _searches(folder)
    saved = list((folder / kbcache.CACHE_DIR).glob(RETRIEVAL_CACHE + ".*"))
    assert len(saved) == 1 and (saved[0] / kbcache.MANIFEST).exists()
    with KnowledgeBase(folder) as kb:
        payroll = kb.store.con.execute(
            "SELECT source_id FROM sources WHERE name LIKE 'payroll%'").fetchone()[0]
        rows = kb.store.con.execute("SELECT source_id FROM sources").fetchall()
        others = {r[0] for r in rows} - {payroll}

    with monkeypatch.context() as m:
        m.setattr("hyrag.retrieve.horizon.load_catalog", _no_build)
        loaded = _searches(folder)
        loaded_restricted = _searches(folder, others)
        with KnowledgeBase(folder) as kb:
            cat = kb.horizon.retriever().cat
            assert isinstance(cat.conf.base, np.memmap)  # opened memory-mapped, not read
            assert isinstance(cat.texts.pool.data.base, np.memmap)
    with monkeypatch.context() as m:  # a rebuild from the store, saved nowhere
        m.setattr(kbcache, "read_columns", lambda *a, **k: None)
        m.setattr(kbcache, "write_columns", lambda *a, **k: False)
        rebuilt = _searches(folder)
        rebuilt_restricted = _searches(folder, others)
    assert loaded == rebuilt == first
    assert loaded_restricted == rebuilt_restricted
    assert all(r for r in loaded) and any(
        "salary" in (c[5] or "") for res in loaded for c in res)
    assert not any("salary" in (c[5] or "") for res in loaded_restricted for c in res)


def test_an_ingest_makes_the_saved_arrays_stale(folder, tmp_path):
    _searches(folder)
    (old,) = (folder / kbcache.CACHE_DIR).glob(RETRIEVAL_CACHE + ".*")
    legacy = [folder / kbcache.CACHE_DIR / n for n in ("bm25.npz", "name_graph.json")]
    for p in legacy:  # what an older HyRAG saved: removed once the arrays are rewritten
        p.write_bytes(b"old")
    (tmp_path / "more.csv").write_text("order_id,region,revenue\nSO-77777,Arctic,999.5\n")
    with KnowledgeBase(folder) as kb:
        kb.ingest(tmp_path / "more.csv")
    with KnowledgeBase(folder) as kb:  # a new object: only the folder tells what is current
        res = kb.search("revenue of order SO-77777", k=3)
    assert res.claims and "SO-77777" in res.claims[0].text
    (new,) = (folder / kbcache.CACHE_DIR).glob(RETRIEVAL_CACHE + ".*")
    assert new != old and not old.exists()
    assert not any(p.exists() for p in legacy)


def test_a_damaged_saved_folder_is_rebuilt(folder):
    first = _searches(folder)
    (saved,) = (folder / kbcache.CACHE_DIR).glob(RETRIEVAL_CACHE + ".*")
    np.save(saved / "catalog.conf.npy", np.zeros(3))  # wrong length for the catalog
    assert _searches(folder) == first


def test_columns_read_back_what_was_written(tmp_path) -> None:
    values = ["North", None, "", "Zürich ÅS", "North", "x" * 300, None]
    col = TextColumn.of(values)
    assert col.tolist() == values and [col[i] for i in range(len(values))] == values
    assert col[np.asarray([0, 3])].tolist() == ["North", "Zürich ÅS"]
    assert col.isin({"North", "Zürich ÅS"}).tolist() == [True, False, False, True, True,
                                                         False, False]
    assert col.distinct(np.asarray([1, 1, 1, 0, 0, 0, 1], dtype=bool)) == {"North", ""}
    back = TextColumn.from_arrays("c", {k: np.load(_save(tmp_path, k, a), mmap_mode="r")
                                        for k, a in col.to_arrays("c").items()}, len(values))
    assert back.tolist() == values

    keys = SortedKeys.build(["b", "a", "ä", "ab", ""], [10, 11, 12, 13, 14])
    assert [keys.get(k) for k in ("a", "ab", "b", "ä", "", "c")] == [11, 13, 10, 12, 14, None]
    with pytest.raises(KeyError):
        keys["zz"]
    # keys sharing their first 8 bytes (found by prefix, then bisection), one a prefix of another
    many = [f"order-{i:06d}" for i in range(0, 3000, 7)] + ["order-", "order-0", "abc", "ab"]
    keys = SortedKeys.build(many)
    assert all(keys.get(k) == i for i, k in enumerate(many))
    assert [keys.get(k) for k in ("order-000002", "order-00", "abcd", "a", "")] == [None] * 5

    g = Groups.build(np.asarray([2, -1, 0, 2, 1, 0]), ["z", "y", "x", "unused"])
    assert g.get("x") == [0, 3] and g.get("z") == [2, 5] and g.get("y") == [4]
    assert "unused" not in g and g.get("unused") == ()


def _save(tmp_path, name: str, a: np.ndarray):
    p = tmp_path / f"{name}.npy"
    np.save(p, a, allow_pickle=False)
    return p


def test_catalog_from_the_store_equals_its_saved_arrays(folder) -> None:
    with KnowledgeBase(folder) as kb:
        cat = catalog_mod.load_catalog(kb.store.con)
    back = catalog_mod.ClaimCatalog.from_arrays(cat.to_arrays())
    for name in catalog_mod.TEXT_COLUMNS:
        assert getattr(back, name).tolist() == getattr(cat, name).tolist(), name
    ids = cat.ids.tolist()
    assert ids == sorted(ids) and all(back.index[c] == i for i, c in enumerate(ids))
    items = {it for it in cat.item_ids.tolist() if it}
    for it in items:
        cells = back.by_item.get(it)
        assert cells and all(cat.item_ids[i] == it for i in cells)
        assert [cat.positions[i] for i in cells] == sorted(cat.positions[i] for i in cells)
