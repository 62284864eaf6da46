"""Horizon retrieval for one knowledge base: embeddings, vector indices, the claim catalog, the
four strategies and their fusion, assembled once and rebuilt when the knowledge base changes.
(Imported as `hyrag.retrieve.Horizon`, on first use: see the package's docstring.)

`Horizon.search(question, k, allowed_sources=...)` is what `KnowledgeBase.search` calls;
`Horizon.sync()` is what ingestion calls after a file's transaction committed.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np

from hyrag.embed import Embedder, embedder_for
from hyrag.index.ann import AnnSettings
from hyrag.index.builder import SyncReport, VectorStore
from hyrag.retrieve.bm25 import BM25Index
from hyrag.retrieve.catalog import ClaimCatalog, generation, load_catalog
from hyrag.retrieve.ensemble import EnsembleRetriever, RetrievalSettings, SearchResult
from hyrag.retrieve.graph import EntityGraph
from hyrag.retrieve.strategies import (
    ClaimVectorStrategy,
    GraphStrategy,
    LexicalStrategy,
    RowVectorStrategy,
)
from hyrag.retrieve.temporal import Interval, latest_key, question_interval

STRATEGIES = ("row_vectors", "claim_vectors", "lexical", "graph")
# KB/cache/RETRIEVAL_CACHE.KEY/: the saved catalog, BM25 postings and name graph, and the
# modules whose code decides their contents and layout (part of the key)
RETRIEVAL_CACHE = "retrieval"
_LEGACY_FILES = ("bm25.npz", "name_graph.json")
_INDEX_CODE = ("hyrag.retrieve.bm25", "hyrag.retrieve.text", "hyrag.retrieve.graph",
               "hyrag.retrieve.catalog", "hyrag.retrieve.columns", "hyrag.kbcache")


class Horizon:
    def __init__(
        self,
        store,
        folder: str | os.PathLike[str],
        settings: object | None = None,
        *,
        backend: str = "auto",
        embedder: Embedder | None = None,
    ) -> None:
        self.store = store
        self.folder = Path(folder)
        self.settings = settings
        self.rsettings = RetrievalSettings.from_settings(settings)
        self.backend = backend
        self._embedder = embedder
        self._vectors: VectorStore | None = None
        self._retriever: EnsembleRetriever | None = None
        self._gen: tuple | None = None
        self._latest = None
        self._synced_gen: tuple | None = None  # store generation at the last search's sync
        self._sync_failed = True  # a source failed to index then (or no sync yet): sync again

    @property
    def con(self):
        return self.store.con

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            writable = not getattr(self.store, "read_only", False)
            self._embedder = embedder_for(
                self.store.meta, self.store.set_meta if writable else None,
                tier=getattr(self.settings, "embed_tier", "") or None,
            )
        return self._embedder

    @property
    def vectors(self) -> VectorStore:
        if self._vectors is None:
            self._vectors = VectorStore(
                self.folder, self.con, self.embedder, self.backend,
                AnnSettings.from_settings(self.settings),
            )
        return self._vectors

    def sync(self, progress=None) -> SyncReport:  # builder.Progress
        """Bring the vectors in step with DuckDB (new sources in, superseded ones out);
        `progress` as `VectorStore.sync` takes it."""
        if getattr(self.store, "read_only", False):
            return SyncReport()
        return self.vectors.sync(progress)

    def _sync_if_changed(self) -> None:
        """`sync` before a search only when the store changed since the last one (or a source
        failed to index then and must be retried): reading the sources and the sidecar on
        every search cost ~6 ms at 1.1 M claims."""
        gen = generation(self.con)
        if gen != self._synced_gen or self._sync_failed:
            rep = self.sync()
            self._synced_gen, self._sync_failed = gen, bool(rep.failed)

    def retriever(self) -> EnsembleRetriever:
        gen = generation(self.con)
        if self._retriever is None or gen != self._gen:
            cat, bm25, graph = self._indexes(gen)
            v = self.vectors
            strategies = [
                RowVectorStrategy(v.searcher("rows"), cat, graph),
                ClaimVectorStrategy(v.searcher("claims"), cat),
                LexicalStrategy(bm25, cat),
                GraphStrategy(graph, cat),
            ]
            self._retriever = EnsembleRetriever(
                cat, graph, strategies, self.rsettings, v.summaries, self.embedder.info.label(),
                con=self.con,  # issue 8: a restricted scope's counters over visible claims
            )
            timed = np.flatnonzero(~np.isnan(cat.order_keys) & cat.time_keys.notnull())
            self._latest = None
            if timed.size:
                j = timed[np.argmax(cat.order_keys[timed])]
                self._latest = latest_key(cat.time_keys[j])
            self._gen = gen
        return self._retriever

    def prepare(self, announce: Callable[[], None] | None = None) -> bool:
        """Build and save the retrieval indexes now unless saved for the current store (what
        `kb.index()` calls after writing vectors, so the first search after an ingest opens
        them instead of building them: ~35 s at 1.1 M claims). `announce()` is called before a
        build starts (a progress display's step). True when it built them."""
        from hyrag import kbcache

        gen = generation(self.con)
        if kbcache.persistable(self.store):
            key = kbcache.cache_key(self.store, _INDEX_CODE, gen)
            if (kbcache.columns_dir(self.store, RETRIEVAL_CACHE, key) / kbcache.MANIFEST).exists():
                return False
        if announce is not None:
            announce()
        self.retriever()
        return True

    def _indexes(self, gen: tuple) -> tuple[ClaimCatalog, BM25Index, EntityGraph]:
        """The claim catalog, BM25 postings and name graph of the current claims: opened
        memory-mapped from the knowledge-base folder when saved there for this store
        generation (`hyrag.kbcache`), else built from the store and saved. Building them was
        most of a fresh process's first search (~1.5 s on the sample knowledge base, ~50 s at
        1.1 M claims: a Python object per claim and column, every claim tokenised). Saved for
        the whole store only: a subject's restricted statistics are derived from these in
        memory (`BM25Index.restrict`, `EntityGraph.restrict`)."""
        from hyrag import kbcache

        saved = kbcache.persistable(self.store)
        key = kbcache.cache_key(self.store, _INDEX_CODE, gen) if saved else ""
        got = kbcache.read_columns(self.store, RETRIEVAL_CACHE, key) if saved else None
        if got is not None:
            arrays, state = got
            try:
                parts = {p: {k.split(".", 1)[1]: a for k, a in arrays.items()
                             if k.startswith(p + ".")} for p in ("catalog", "bm25", "graph")}
                cat = ClaimCatalog.from_arrays(parts["catalog"], gen)
                bm25 = BM25Index.from_arrays(parts["bm25"])
                graph = EntityGraph.from_arrays(cat, parts["graph"], state)
                if bm25.n_docs == len(cat):
                    return cat, bm25, graph
            except (KeyError, TypeError, ValueError, IndexError):
                pass  # a damaged or foreign folder: rebuilt below
        cat = load_catalog(self.con)
        bm25 = BM25Index(cat.texts.tolist())
        rels = self.con.execute("SELECT head, relation, tail, source_id FROM relations").fetchall()
        graph = EntityGraph(cat, rels)
        if saved:
            g_arrays, g_state = graph.to_arrays()
            arrays = {**{f"catalog.{k}": a for k, a in cat.to_arrays().items()},
                      **{f"bm25.{k}": a for k, a in bm25.to_arrays().items()},
                      **{f"graph.{k}": a for k, a in g_arrays.items()}}
            if kbcache.write_columns(self.store, RETRIEVAL_CACHE, key, arrays, g_state):
                for old in _LEGACY_FILES:  # what HyRAG saved before these arrays (~150 MB)
                    with contextlib.suppress(OSError):
                        kbcache.path_of(self.store, old, "").unlink(missing_ok=True)
        return cat, bm25, graph

    def current_sources(self) -> frozenset[str]:
        return frozenset(
            r[0]
            for r in self.con.execute(
                "SELECT source_id FROM sources WHERE status = 'current'"
            ).fetchall()
        )

    def interval(self, question: str, allowed_sources: set[str] | None = None) -> Interval | None:
        r = self.retriever()
        latest = self._latest
        if allowed_sources is not None:  # issue 8: the latest period the subject can see
            tk = r.latest_time_key(allowed_sources)
            latest = latest_key(tk) if tk is not None else None
        fy = getattr(self.settings, "fiscal_year_start_month", 1)
        return question_interval(question, latest=latest, fiscal_year_start_month=fy)

    def search(
        self,
        question: str,
        k: int = 10,
        *,
        allowed_sources: set[str] | None = None,
        strategies: list[str] | None = None,
        expand: bool | None = None,
        interval: Interval | None | str = "auto",
    ) -> SearchResult:
        """Ranked claims for a question; `allowed_sources` is the entitlement pre-filter."""
        self._sync_if_changed()
        r = self.retriever()
        allowed = self.current_sources()
        if allowed_sources is not None:
            allowed = allowed & frozenset(allowed_sources)
        iv = self.interval(question, allowed) if interval == "auto" else interval
        needs_vec = strategies is None or {"row_vectors", "claim_vectors"} & set(strategies)
        qvec = self.embedder.embed_one(question) if needs_vec else None
        return r.search(
            question,
            qvec,
            k=k,
            interval=iv,
            allowed_sources=allowed,  # type: ignore[arg-type]
            strategies=strategies,
            expand=expand,
        )


__all__ = ["STRATEGIES", "Horizon", "SearchResult"]
