"""`KnowledgeBase`: the one object a user holds. `hyrag.open("kb/")` returns it."""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import os
import sys
import threading
import weakref
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from hyrag.errors import HyragError, IngestFailed, StoreError
from hyrag.settings import Settings, default_kb_path
from hyrag.store import Store

# Imported where used, not here: every command opens a KnowledgeBase, and `hyrag sql` or a
# notebook that only reads must not pay for pandas and the ingest pipeline (~1 s of a cold
# start) or the SQL guard's sqlglot before it needs them (issue 20).
if TYPE_CHECKING:
    import pandas as pd

    from hyrag.ingestion import Ingestor, IngestReport
    from hyrag.sql import QueryResult


class KnowledgeBase:
    """A knowledge-base folder: DuckDB claims store plus (later) vector indices."""

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        settings: Settings | None = None,
        read_only: bool = False,
        subject: str | None = None,
        policy: object = None,
        attestation: str | None = None,
        llm: object = None,
    ) -> None:
        from hyrag.policy import Enforcer, find_policy
        from hyrag.scale.layout import is_dataset, local_store

        self.path = Path(path if path is not None else default_kb_path())
        self.settings = settings or Settings()
        # Issue 21: a dataset a distributed ingest wrote (`hyrag.scale`) opens as the ordinary
        # store it is loaded into (`layout.local_store`), so SQL guard, governance and audit
        # are the same code; `dataset` is the location, `path` the loaded store.
        self.dataset: Path | None = None
        if is_dataset(self.path):
            self.dataset, self.path = self.path, local_store(self.path)
        # Governance (issue 8): `policy.toml` in the folder, or `policy=` (a path or a Policy);
        # none -> the single local owner with everything allowed (said so in the audit record).
        policy_obj = find_policy(self.dataset or self.path, policy)
        self.store = _acquire_store(self.path, read_only)
        # One Store per folder per process (`_acquire_store`); this object's share of it is
        # given back by close() or, for an object dropped unclosed, when it is collected.
        self._release = weakref.finalize(self, _release_store, self.store)
        self.pep = Enforcer(self.store, policy_obj, subject, attestation)
        self._grant = None  # the active request's Grant (set by `_request`)
        self._readers: dict = {}
        self._ingestor_obj: Ingestor | None = None  # built at the first ingest (`_ingestor`)
        self._horizon = None
        # Vectors are written after the DuckDB transaction, lazily by default: at the first
        # search after an ingest, or by `kb.index()` (the CLI's `ingest` calls it once at the
        # end). Embedding a table's rows takes far longer than ingesting them, and most
        # ingests (tests, bulk loads, the ingest benchmark) never search. Set True to index
        # after every ingest.
        self.index_on_ingest = False
        # The LLM route (issue 9): an `hyrag.llm.LLMClient`, or None -> built from the
        # environment the first time a step named in `settings.llm_steps` needs it.
        self._llm = llm

    @property
    def llm(self):  # hyrag.llm.LLMClient | None
        """The LLM client the steps in `settings.llm_steps` use; None when no step is named
        or no endpoint is configured (the offline route runs, CONTRACT.md environment)."""
        if self._llm is None and self.settings.llm_steps:
            from hyrag.llm import LLMClient, LLMNotConfigured

            try:
                self._llm = LLMClient.from_env(self.settings)
            except LLMNotConfigured:
                self._llm = False
        return self._llm or None

    @property
    def _ingestor(self) -> Ingestor:
        """The ingest pipeline of this store, built (and its modules imported) on first use."""
        if self._ingestor_obj is None:
            from hyrag.ingestion import Ingestor

            self._ingestor_obj = Ingestor(self.store, self.settings)
        return self._ingestor_obj

    # -- context management ----------------------------------------------------------------
    def close(self) -> None:
        """Give back this object's share of the folder's store; the last one closes it (after
        any SQL statement still unwinding from a timeout has stopped)."""
        execute = sys.modules.get("hyrag.sql.execute")  # not imported: no statement ever ran
        if execute is not None:
            execute.wait_for_queries()
        self._release()

    def __enter__(self) -> KnowledgeBase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"KnowledgeBase({str(self.path)!r})"

    # -- governance (issue 8) -----------------------------------------------------------------
    @property
    def policy(self):  # hyrag.policy.Policy | None
        return self.pep.policy

    def as_subject(self, subject: str | None, *, attestation: str | None = None,
                   policy: object = ...) -> KnowledgeBase:
        """The same open knowledge base (store, indices) acting for another subject."""
        import copy

        from hyrag.policy import Enforcer, find_policy

        self.horizon  # noqa: B018 - build once, share with the copy
        kb = copy.copy(self)
        pol = self.pep.policy if policy is ... else find_policy(self.path, policy)
        kb.pep = Enforcer(self.store, pol, subject, attestation)
        kb._grant = None
        kb._readers = {}
        kb._release = _no_release  # the store stays the original object's to give back
        return kb

    @contextlib.contextmanager
    def _request(self, action: str, *, grant=None, **detail: object):
        """One governed request: verdicts decided and written in one batch before the body
        runs; a call inside an active request (kb.search inside kb.ask) reuses its grant."""
        if self._grant is not None:
            yield self._grant
            return
        if grant is None:
            grant = self.pep.authorize(action, detail=detail)
        self._grant = grant
        try:
            yield grant
        finally:
            self._grant = None
            self._readers.clear()

    @property
    def reader(self):  # Store or hyrag.policy.views.GovernedStore
        """The store as the active request's subject sees it (views over allowed sources)."""
        g = self._grant
        if g is None:
            if self.pep.governed:
                raise HyragError("this knowledge base is governed by a policy: read it through "
                                 "kb.search / kb.ask / kb.sql, which decide first")
            return self.store
        if g.unrestricted:
            return self.store
        r = self._readers.get(g.request_id)
        if r is None:  # shared per (allowed sources, tables, store version): hyrag.policy.views
            from hyrag.policy.views import governed_store

            r = self._readers[g.request_id] = governed_store(self.store, g.allowed_sources,
                                                             g.allowed_tables)
        return r

    def audit_trail(self):  # hyrag.answer.audit.AuditTrail
        """The answer's audit trail, continuing the active request the PEP opened."""
        from hyrag.answer.audit import AuditTrail
        from hyrag.answer.synthesize.contextpack import GovernedTrail

        return GovernedTrail(self._grant) if self._grant is not None else AuditTrail()

    def audit(self, request_id: str) -> list[dict]:
        """The audit events of one request (needs the `audit.read` action). Under a policy the
        claims and values the request was shown appear only as far as this subject's own
        classification and source rules allow their sources (`hyrag.policy.replay`)."""
        from hyrag.answer.audit import replay
        from hyrag.policy.replay import redact_replay

        with self._request("audit.read", request=request_id) as grant:
            return redact_replay(replay(self.store, request_id), grant)

    def _repr_html_(self) -> str:  # notebooks: sources, tables with roles, claims, embeddings
        from hyrag.display import kb_html

        return kb_html(self)

    # -- ingestion -------------------------------------------------------------------------
    def ingest(
        self,
        source: str | os.PathLike[str] | pd.DataFrame,
        *,
        name: str | None = None,
        tenant: str | None = None,
        classification: str = "internal",
        effective_date: dt.date | None = None,
        authority: int | None = None,
    ) -> IngestReport:
        """Ingest one file or DataFrame. Same content again is a no-op; a changed file at the
        same path supersedes its previous version. Raises IngestFailed (store unchanged)."""
        tenant, classification = self._authorize_ingest(
            name or (source if isinstance(source, str | os.PathLike) else ""), tenant,
            classification)
        # a DataFrame can only exist once pandas is imported: no import for a path
        pandas = sys.modules.get("pandas")
        if pandas is not None and isinstance(source, pandas.DataFrame):
            if not name:
                raise IngestFailed("a DataFrame needs name= (it becomes the table name)")
            report = self._ingestor.ingest_frame(
                source, name, tenant=tenant, classification=classification
            )
        else:
            report = self._ingestor.ingest_path(
                source, tenant=tenant, classification=classification,
                effective_date=effective_date, authority=authority,
            )
        return self._index_vectors(report)

    def ingest_many(
        self,
        paths: Iterable[str | os.PathLike[str]],
        *,
        progress: Callable[[int, int, str], None] | None = None,
        keep_going: bool = False,
        **kw: object,
    ) -> tuple[list[IngestReport], list[HyragError]]:
        """Ingest files (folders expanded to the supported files inside, sorted)."""
        files = expand_paths(paths)
        reports: list[IngestReport] = []
        errors: list[HyragError] = []
        for i, f in enumerate(files):
            if progress:
                progress(i, len(files), str(f))
                # within a file, what it is doing: a large table takes tens of seconds
                self._ingestor.progress_hook = functools.partial(
                    _tell_step, progress, i, len(files), str(f))
            try:
                reports.append(self.ingest(f, **kw))  # type: ignore[arg-type]
            except HyragError as e:
                if not keep_going:
                    raise
                errors.append(e)
            finally:
                self._ingestor.progress_hook = None
        if progress:
            progress(len(files), len(files), "")
        return reports, errors

    def ingest_text(
        self, texts: str | list[str], *, source: str, tenant: str | None = None,
        classification: str = "internal",
    ) -> IngestReport:
        tenant, classification = self._authorize_ingest(source, tenant, classification)
        items = [texts] if isinstance(texts, str) else list(texts)
        return self._index_vectors(self._ingestor.ingest_texts(
            items, source, tenant=tenant, classification=classification
        ))

    def _authorize_ingest(self, name: object, tenant: str | None,
                          classification: str) -> tuple[str, str]:
        """`ingest` is decided for the new source (tenant, classification, name); the tenant
        defaults to the subject's own."""
        from hyrag.policy import Resource

        tenant = tenant or self.pep.subject.tenant
        if self._grant is None:
            self.pep.authorize("ingest", resource=Resource(
                "source", Path(str(name)).name, tenant, classification),
                detail={"source": str(name), "tenant": tenant,
                        "classification": classification})
        return tenant, classification

    # -- retrieval (Horizon) -----------------------------------------------------------------
    @property
    def horizon(self):  # hyrag.retrieve.Horizon, imported lazily
        """Embeddings, vector indices and the ensemble retriever of this knowledge base."""
        if self._horizon is None:
            from hyrag.retrieve import Horizon

            self._horizon = Horizon(self.store, self.path, self.settings)
        return self._horizon

    def pending_vectors(self) -> list[str]:
        """Current sources whose vectors are not written yet (the next search writes them).
        Read from the sidecar list without building the Horizon: a process that asks this and
        then answers structurally never imports the retrieval stack or a vector backend."""
        from hyrag.index import resolve_backend

        if self._horizon is not None or resolve_backend("auto") == "numpy":
            # NumPy files are cheap to open, and one that can only be read by unpickling
            # makes every source pending again (found when the indices are opened)
            return self.horizon.vectors.pending()
        from hyrag.index.sidecar import pending_sources, side_folder

        return pending_sources(self.store.con, side_folder(self.path))

    def _index_vectors(self, report: IngestReport) -> IngestReport:
        """After the DuckDB transaction committed: write the new source's vectors. A failure
        leaves the source un-indexed (retried by the next ingest or search), never lost."""
        if report.status == "unchanged" or not self.index_on_ingest:
            return report
        from dataclasses import replace

        rep = self.horizon.sync()
        if rep.failed:
            notes = tuple(f"vectors pending (will retry): {why}" for why in rep.failed.values())
            return replace(report, notes=report.notes + notes)
        return report

    def index(self, progress: Callable[[int, int, str], None] | None = None):
        """Write the vectors of every source not yet indexed and drop those of superseded
        versions. Idempotent; a failed source stays pending and is retried next time.
        `progress(done, total, step)` is told each step as it starts (sources, tables
        embedded, the approximate index). Then builds and saves the retrieval indexes (claim
        catalog, BM25, name graph) unless they are saved for this store, so the first search
        after an ingest does not build them. Returns a `hyrag.index.builder.SyncReport`."""
        if progress is None:
            rep = self.horizon.sync()
            self.horizon.prepare()
            return rep
        held: list[int] = []

        def relay(i: int, n: int, what: str) -> None:
            if not what and i == n:  # the display's last line: said after the indexes too
                held.append(n)
            else:
                progress(i, n, what)

        rep = self.horizon.sync(relay)
        n = held[-1] if held else 0
        built = self.horizon.prepare(
            lambda: progress(n, n + 1, "retrieval indexes (claim catalog, BM25, name graph)"))
        if held or built:
            progress(n if held else 1, n if held else 1, "")
        return rep

    def search(self, question: str, k: int = 10, *, allowed_sources: set[str] | None = None,
               strategies: list[str] | None = None, expand: bool | None = None):
        """Ranked claims for a question, each with its per-strategy ranks and similarities and
        the fused RRF score; `.best_strategy` names the strategy that scored best. Sources
        outside `allowed_sources` are excluded inside candidate generation."""
        if k < 1:
            raise HyragError(f"k must be >= 1, got {k}")
        with self._request("search", question=question, k=k) as grant:
            if grant.governed:  # the entitlement pre-filter, inside candidate generation
                allowed_sources = grant.allowed_sources if allowed_sources is None else (
                    grant.allowed_sources & frozenset(allowed_sources))
            res = self._search(question, k, allowed_sources, strategies, expand)
            res.step_up = grant.step_up_notice()  # STEP_UP sources: announced, not searched
            return res

    def _search(self, question, k, allowed_sources, strategies, expand):
        from hyrag.embed import EmbeddingError

        try:
            return self.horizon.search(question, k, allowed_sources=allowed_sources,
                                       strategies=strategies, expand=expand)
        except EmbeddingError:
            raise
        except (OSError, ValueError, RuntimeError) as e:
            raise HyragError(f"search failed: {e}") from e

    # -- answering (issue 6) ----------------------------------------------------------------
    def ask(self, question: str, trust: str = "balanced", as_of: object = None):
        """Answer a question from this knowledge base: an `hyrag.answer.Answer` with its
        decision, requirements and their support, cited evidence, Knowledge Gaps, conflicts,
        derivations, verification, ECR trace and audit id."""
        from hyrag.answer import AnswerEngine

        if not isinstance(question, str) or not question.strip():
            raise HyragError("ask needs a non-empty question")
        with self._request("ask", question=question, trust=trust) as grant:
            return _step_up_gap(AnswerEngine(self).ask(question, trust=trust, as_of=as_of),
                                grant)

    def ask_stream(self, question: str, trust: str = "balanced", as_of: object = None):
        """Yield the answer's stage events (route, horizon count, each commitment and gap, each
        sentence of the brief once verification ran, then the final `answer` event carrying
        the `Answer`). Deterministic offline: the stages run, then the events are replayed in
        the order they happened."""
        events: list[dict] = []
        answer = AnswerEngineProxy.run(self, question, trust, as_of, events.append)
        yield from events
        yield {"type": "final", "answer": answer}

    # -- inspection ------------------------------------------------------------------------
    def schema(self, table: str | None = None) -> pd.DataFrame:
        """Inferred schemas of the current tables: role, type, unit, null and parse rates."""
        sql = (
            "SELECT s.table_name, s.column_name, s.header, s.role, s.dtype, s.unit, s.scale, "
            "round(s.null_rate, 3) AS null_rate, round(s.parse_rate, 3) AS parse_rate, "
            "s.distinct_values FROM schemas s JOIN kb_tables t USING (table_name, source_id) "
        )
        params: list[object] = []
        if table:
            sql += "WHERE s.table_name = ? "
            params.append(table)
        sql += "ORDER BY s.table_name, s.position"
        return self._read("schema", sql, params)

    def adjustments(self) -> pd.DataFrame:
        """Every reclassification the SchemaFeedbackLoop made, with its reason."""
        return self._read(
            "schema",
            "SELECT a.table_name, a.column_name, a.from_role, a.to_role, a.reason, a.stage "
            "FROM schema_adjustments a JOIN kb_tables t USING (table_name, source_id) "
            "ORDER BY 1, 2"
        )

    def tables(self) -> pd.DataFrame:
        return self._read(
            "schema",
            "SELECT t.table_name, s.name AS source, t.sheet, t.page, t.n_rows, t.melted, "
            "(SELECT count(*) FROM claims c WHERE c.table_name = t.table_name "
            " AND c.source_id = t.source_id) AS claims "
            "FROM kb_tables t JOIN sources s USING (source_id) ORDER BY 1"
        )

    def sources(self) -> pd.DataFrame:
        return self._read(
            "schema",
            "SELECT source_id, name, kind, version, status, tenant, classification, bytes, "
            "ingested_at FROM sources ORDER BY ingested_at, name"
        )

    def claims(
        self, *, entity: str | None = None, attribute: str | None = None,
        table: str | None = None, include_superseded: bool = False, limit: int = 1000,
    ) -> pd.DataFrame:
        where = [] if include_superseded else ["NOT superseded"]
        params: list[object] = []
        for col, val in (("entity", entity), ("attribute", attribute), ("table_name", table)):
            if val is not None:
                where.append(f"lower({col}) = lower(?)")
                params.append(val)
        sql = (
            "SELECT claim_id, kind, entity, attribute, value_text, value_num, unit, scale, "
            "time_key, text, locator, conf_base, support, contradict FROM claims"
            + (" WHERE " + " AND ".join(where) if where else "")
            + f" ORDER BY table_name, row_num, column_name LIMIT {int(limit)}"
        )
        return self._read("search", sql, params)

    def conflicts(self) -> pd.DataFrame:
        """Pairs of current claims from different sources that disagree (under a policy: only
        pairs whose both claims the subject may see)."""
        return self._read(
            "search",
            "SELECT a.entity, a.attribute, a.time_key, a.value_text AS value_a, a.file AS file_a,"
            " a.locator AS locator_a, b.value_text AS value_b, b.file AS file_b, "
            "b.locator AS locator_b FROM claim_links l JOIN claims a ON a.claim_id = l.src "
            "JOIN claims b ON b.claim_id = l.dst WHERE l.kind = 'contradicts' "
            "AND NOT a.superseded AND NOT b.superseded ORDER BY 1, 2, 3"
        )

    def _read(self, action: str, sql: str, params: list | tuple = ()) -> pd.DataFrame:
        """An inspection query, decided as `action` and run over the subject's views."""
        with self._request(action):
            return self.reader.con.cursor().execute(sql, list(params)).df()

    # -- SQL route -------------------------------------------------------------------------
    def sql(self, query: str, *, row_cap: int | None = None,
            timeout_s: float | None = None) -> QueryResult:
        """One read-only statement over this knowledge base's tables (guarded, capped).

        Under a policy: the statement is checked against the subject's tables (typed tables of
        allowed sources and the engine tables as per-subject views), the tables it reads (from
        the sqlglot AST) are written with the verdicts in one batch, and it runs over TEMP views
        filtered to the allowed sources (`hyrag.policy.views`). Either way DuckDB's own plan of
        the statement must scan only those tables (`hyrag.sql.check_plan`), and no CTE may take
        the name of a relation in the catalog."""
        from hyrag.errors import SettingsError, SqlRejected
        from hyrag.policy import StepUpRequired
        from hyrag.policy.views import GOVERNED_ENGINE_TABLES, HIDDEN, VISIBLE
        from hyrag.sql import PlanScope, catalog_names, check_sql, fold, run_query
        from hyrag.store import CLAIM_STORAGE

        if row_cap is not None and (isinstance(row_cap, bool) or not isinstance(row_cap, int)
                                    or row_cap < 1):
            raise SettingsError(f"row_cap must be a whole number >= 1, got {row_cap!r}")
        if timeout_s is not None and not (isinstance(timeout_s, int | float) and timeout_s > 0):
            raise SettingsError(f"timeout_s must be a number of seconds > 0, got {timeout_s!r}")
        active = self._grant
        grant = active if active is not None else self.pep.plan("sql", detail={"sql": query})
        cur = self.store.con.cursor()
        try:
            db = cur.execute("SELECT current_database()").fetchone()[0]
            reserved = catalog_names(cur)
        finally:
            cur.close()
        if grant.unrestricted:
            readable = self.store.readable_tables()
            scope = PlanScope.of(db, "main", readable)
        else:
            present = set(self.store.readable_tables())
            readable = sorted(grant.allowed_tables | grant.step_up_tables) + [
                t for t in GOVERNED_ENGINE_TABLES if t in present]
            # the plan expands the subject's views: their base tables and per-cursor temp tables
            scope = (PlanScope.of(db, "main", [*grant.allowed_tables, *GOVERNED_ENGINE_TABLES])
                     | PlanScope.of("temp", "main", [VISIBLE, HIDDEN]))
        # the plan expands the `claims` view into the tables it stores claims in, which no
        # statement may name itself (they are not in `readable`)
        scope = scope | PlanScope.of(db, "main", CLAIM_STORAGE)
        try:
            guarded = check_sql(query, readable, reserved)
        except SqlRejected as e:
            if active is None:
                grant.detail["rejected"] = e.reason
                self.pep.record(grant)
                self.pep.enforce(grant)
            raise
        if active is None:
            grant.detail["tables"] = sorted(guarded.tables)
            self.pep.record(grant)
            self.pep.enforce(grant)
        step = guarded.tables & {fold(t) for t in grant.step_up_tables}
        if step:
            v = next(v for sid, v in grant.source_verdicts.items()
                     if sid in grant.step_up_sources)
            raise StepUpRequired(
                f"reading {', '.join(sorted(step))} needs an attestation (rule {v.rule_id}, "
                f"policy {v.policy_version}): pass attestation= or --attest TEXT",
                verdict=v, action="sql", request_id=grant.request_id)
        with self._request("sql", grant=grant):
            return run_query(
                self.reader.con,
                guarded,
                row_cap=row_cap if row_cap is not None else self.settings.sql_row_cap,
                timeout_s=timeout_s if timeout_s is not None else self.settings.sql_timeout_s,
                scope=scope,
            )


class AnswerEngineProxy:
    @staticmethod
    def run(kb: KnowledgeBase, question: str, trust: str, as_of: object, sink):
        from hyrag.answer import AnswerEngine

        if not isinstance(question, str) or not question.strip():
            raise HyragError("ask needs a non-empty question")
        with kb._request("ask", question=question, trust=trust) as grant:
            return _step_up_gap(
                AnswerEngine(kb).ask(question, trust=trust, as_of=as_of, on_event=sink), grant)


def _step_up_gap(answer, grant):
    """Sources that need an attestation were not consulted: say so as a Knowledge Gap (count
    and rule only; the policy.step_up audit event names them)."""
    gap = grant.step_up_gap()
    if gap is None:
        return answer
    from dataclasses import replace

    return replace(answer, gaps=(*answer.gaps, gap))


# The open stores of this process, by resolved folder: (store, number of KnowledgeBase objects
# sharing it). DuckDB keeps one database instance per file in a process and the engine locks its
# configuration on open, so a second independent open of the same folder cannot work (DuckDB
# refuses the hardening with a raw InvalidInputException); a second `hyrag.open` of a folder that
# is open gets the same store instead (a notebook cell run again while the first object lives).
_OPEN_STORES: dict[Path, tuple[Store, int]] = {}
_OPEN_LOCK = threading.Lock()


def _tell_step(progress: Callable[[int, int, str], None], i: int, n: int, file: str,
               what: str) -> None:
    """A step within the i-th of n files, as the progress display shows it."""
    progress(i, n, f"{file}: {what}")


def _acquire_store(path: Path, read_only: bool) -> Store:
    key = path.resolve()
    with _OPEN_LOCK:
        entry = _OPEN_STORES.get(key)
        if entry is not None:
            store, users = entry
            if store.read_only != read_only:
                mode = "read-only" if store.read_only else "read-write"
                raise StoreError(
                    f"knowledge base {path} is already open {mode} in this process; close it "
                    f"(kb.close()) before opening it {'read-only' if read_only else 'read-write'}",
                    source=str(path))
            _OPEN_STORES[key] = (store, users + 1)
            return store
        try:
            store = Store(path, read_only=read_only)
        except duckdb.Error as e:  # opened outside hyrag.open (a bare Store) in this process
            raise StoreError(f"knowledge base {path} is already open in this process and cannot "
                             f"be opened again: {str(e).splitlines()[0]}", source=str(path)) from e
        _OPEN_STORES[key] = (store, 1)
        return store


def _release_store(store: Store) -> None:
    with _OPEN_LOCK:
        for key, (s, users) in list(_OPEN_STORES.items()):
            if s is store:
                if users > 1:
                    _OPEN_STORES[key] = (s, users - 1)
                    return
                del _OPEN_STORES[key]
                break
    store.close()


def _no_release() -> None:
    return None


# How deep `expand_paths` follows a folder. Python's own walkers (`Path.rglob`, `os.walk`)
# recurse once per level and die with a RecursionError near 1,000 levels; the walk below is
# iterative, and a tree deeper than this is refused with a one-line error instead.
MAX_FOLDER_DEPTH = 256


def expand_paths(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Files to ingest: a folder becomes the supported files inside it (hidden ones skipped),
    sorted; a file is taken as given."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(_walk(path)))
        else:
            out.append(path)
    return out


def _walk(root: Path) -> list[Path]:
    from hyrag.parsing import SUPPORTED

    found: list[Path] = []
    stack: list[tuple[Path, int]] = [(root, 0)]
    while stack:
        folder, depth = stack.pop()
        if depth > MAX_FOLDER_DEPTH:
            raise IngestFailed(f"folder nests deeper than {MAX_FOLDER_DEPTH} levels; ingest a "
                               "shallower folder or the files themselves", source=str(root))
        try:
            entries = list(os.scandir(folder))
        except OSError as e:
            raise IngestFailed(f"cannot list folder: {e.strerror or e}",
                               source=str(folder)) from e
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if entry.is_dir(follow_symlinks=False):
                stack.append((Path(entry.path), depth + 1))
            elif entry.is_file() and Path(entry.name).suffix.lower() in SUPPORTED:
                found.append(Path(entry.path))
    return found


def open(path: str | os.PathLike[str] | None = None, **kw: object) -> KnowledgeBase:
    """Open (or create) a knowledge base folder."""
    return KnowledgeBase(path, **kw)  # type: ignore[arg-type]
