"""Every tunable number of the engine, named, documented and validated once.

Defaults come from the seeds (the section is cited beside each). Under fusion the retrieval
thresholds apply to each strategy's own normalised similarity (cosine for vectors, BM25 divided
by the query's best BM25 score), never to RRF scores, which have no absolute scale.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, fields, replace

from hyrag.errors import SettingsError
from ingest.limits import (
    MAX_CELL_CHARS,
    MAX_MEMBER_BYTES,
    MAX_SHEET_CELLS,
    MAX_TABLE_COLUMNS,
    IngestLimits,
)

ANSWER_CORES = ("readers", "programs", "hybrid", "fallback")


@dataclass(frozen=True)
class Settings:
    # --- Pool-Gated Retrieval (seed 000, section IV) ---
    horizon_threshold: float = 0.25  # theta_H: minimum similarity to enter the Horizon
    horizon_max: int = 20  # N_H: Horizon size
    warrant_threshold: float = 0.50  # theta_W: minimum similarity to be warranted
    warrant_top_k: int = 5  # candidates offered to the Warrant gate
    # --- CSGR++ retrieval (seed 003, eq. 9) ---
    rrf_k: int = 60  # RRF dampening constant: 1/(k + rank); 60 as in Cormack et al. 2009
    # --- ECR (seed 003, section 3 and 4.1) ---
    ecr_epsilon: float = 0.3  # bits; eq. 11' epistemic sufficiency
    ecr_budget: int = 10  # T: at most this many claims evaluated
    ecr_lambda: float = 0.05  # eq. 6 weight of ConflictPotential
    ecr_trigger_candidates: int = 15  # trigger when MORE than this many candidate claims
    ecr_trigger_variance: float = 0.15  # trigger when claim-confidence variance exceeds this
    ecr_p_support: float = 0.7  # P(X_c=1 | a) when c supports a (CONTRACT.md likelihood model)
    ecr_p_other: float = 0.3  # P(X_c=1 | a) when c does not support a
    # --- Ingestion (seed 003, section 4.1) ---
    header_overlap: float = 0.70  # a row repeating >= this share of header tokens is skipped
    dry_run_rows: int = 200  # SchemaFeedbackLoop dry-run size
    numeric_min_parse_rate: float = 0.80  # a "numeric" column must parse at least this share
    time_min_parse_rate: float = 0.80  # a "time" column must parse at least this share
    categorical_max_distinct: int = 50  # more distinct strings than this -> text, not categorical
    categorical_max_ratio: float = 0.5  # distinct/non-null above this -> not categorical
    conf_cell: float = 0.95  # conf_base of a clean table cell
    conf_aggregate: float = 0.90  # conf_base of a derived aggregate
    conf_text: float = 0.75  # conf_base of a claim read from prose (lower than a cell)
    fiscal_year_start_month: int = 1  # fiscal years are calendar years unless told otherwise
    # Bounds on one file (ingest/limits.py says why these values): decompressed bytes of one
    # archive member (an XLSX sheet, its shared strings), cells of one sheet or table,
    # characters of one cell, columns of one table. Crossing one is a one-line error naming
    # the file; the store is unchanged.
    ingest_max_member_bytes: int = MAX_MEMBER_BYTES
    ingest_max_sheet_cells: int = MAX_SHEET_CELLS
    ingest_max_cell_chars: int = MAX_CELL_CHARS
    ingest_max_table_columns: int = MAX_TABLE_COLUMNS
    # --- Answering (seed 003, section 4.3) ---
    crag_retries: int = 2  # CRAG correction attempts at most
    # Schema-evolution tracker (seed 003, 4.3): failures per column before a reclassification
    # is proposed (`hyrag schema --suggestions`).
    tracker_threshold: int = 3
    # Calibrated abstention (seed 003, 4.3): below this confidence the engine abstains, one
    # threshold per trust mode (verify/abstain.py; `hyrag bench tatqa` calibrates it on one
    # half of TAT-QA dev and reports the other half's reliability table).
    abstain_threshold_strict: float = 0.70
    abstain_threshold_balanced: float = 0.50
    abstain_threshold_exploratory: float = 0.30
    # Use the retrieval ensemble (kb.search) as the Horizon beside the structural fetch of the
    # parsed question (seed 000 section IV.B: the Horizon is high recall; the Warrant decides).
    # False: structural only (no embedding model needed; tests and read-only folders).
    answer_use_search: bool = True
    # A direct answer whose committed evidence leaves more than this many of the question's
    # content words unexplained (neither the parse nor any committed claim names them) abstains
    # and names them (hyrag/answer/coverage.py): the figure answers a different question.
    answer_max_unexplained: int = 2
    # An answer resting on table cells alone is a Knowledge Gap when the tables it read hold
    # less than `answer_min_table_cover` of the question's term weight (idf over training
    # questions) and some term they lack names something: unseen in fewer than
    # `answer_term_min_seen` training questions, or held by its own table in at least
    # `answer_term_min_held` of them (hyrag/answer/link/aboutness.py; fitted statistics in
    # terms.json, `hyrag bench fit-terms`). 0 turns the check off.
    answer_min_table_cover: float = 0.1
    answer_term_min_seen: int = 3
    answer_term_min_held: float = 0.7
    # The term statistics the check reads: "" is the file shipped in the package
    # (hyrag/answer/link/terms.json); a path selects another (`hyrag bench fit-terms --out`).
    answer_terms_file: str = ""
    # A question using a name ("Dan Ng", "Europe") that no table and no sentence of the
    # knowledge base holds is a Knowledge Gap whatever the routes found (the same module).
    answer_check_names: bool = True
    # Where the knowledge base holds several documents (a file name without its extension is
    # one), a drafted answer whose figure another document also answers — the same words of
    # the question, the same period, another value — asks which document is meant instead of
    # answering with whichever was committed (hyrag/answer/decide/sources.py). At most
    # `answer_rival_candidates` claims are read per committed figure.
    answer_rival_documents: bool = True
    answer_rival_candidates: int = 5000
    # The answer core (issue 19; hyrag/answer/programs): "readers" asks the reader chain
    # (hyrag/answer/readers.py), "programs" the typed-program route over the table model,
    # "hybrid" the program route first and the reader chain where no program is confident;
    # "fallback" the reader chain first and the program route where no reader answers.
    answer_core: str = "fallback"
    # The program route's fitted ranker: "" is the one shipped in the package
    # (hyrag/answer/programs/weights.json); a path selects another (`hyrag bench fit --out`).
    program_weights: str = ""
    # Below this probability the best program is not answered; -1 takes the threshold fitted
    # with the weights (the training half's precision target, `hyrag bench fit --precision`).
    program_min_confidence: float = -1.0
    # With answer_core "fallback": the kinds of table (`programs.score.table_kind`: "report",
    # "list") on which the program route is asked first, before the reader chain, and answers
    # where its program passes the threshold fitted for that kind; the readers answer where it
    # does not. Elsewhere the readers stay first. Routing as data: which kinds is a measured
    # choice (README, WikiTableQuestions), not a rule in the engine.
    program_first_kinds: tuple[str, ...] = ()
    # With the LLM step "programs" on (`llm_steps`), the model proposes programs in the
    # language's JSON form (hyrag/answer/programs/propose.py); each proposal joins the ranking
    # with this log-odds bonus on its operator and operands. Not fitted: no LLM ran over the
    # training questions; 1.0 lets a proposal win where the ranker is torn, not overrule a
    # confident ranking (the fitted threshold still decides whether to answer).
    program_llm_prior: float = 1.0
    # Span programs (hyrag/answer/programs/spans.py): a text question answered by quoting a
    # clause of a sentence, asked last, after the table programs and the readers. Their
    # fitted model: "" is the one shipped (hyrag/answer/programs/span_weights.json); a path
    # selects another (`hyrag bench fit-spans --out`).
    program_span_weights: str = ""
    # Whether the span programs are asked at all (a run without them gives the questions they
    # would be asked: `hyrag bench tatqa --no-spans`, read by `hyrag bench fit-spans
    # --unanswered`).
    program_spans: bool = True
    # Below this calibrated confidence the best span is not answered (the question stays a
    # Knowledge Gap); -1 takes the threshold fitted out of fold with the weights at the
    # training half's precision target (`hyrag bench fit-spans --precision`, default 0.9).
    program_span_min_confidence: float = -1.0
    # Above this calibrated confidence that the best span quotes the answer's clause (and
    # below the one above), the cited sentence is offered as `needs_verification`, stating no
    # value; -1 takes the threshold fitted with the weights.
    program_span_quote_min_confidence: float = -1.0
    # --- Vector index (issue 4; hyrag/index/ann.py says why these values) ---
    ann_min_vectors: int = 100_000  # an index this large trains an approximate (IVF) index
    ann_index_type: str = "IVF_SQ"  # IVF_SQ, IVF_PQ, IVF_RQ or IVF_FLAT
    ann_nprobes: int = 32  # IVF partitions probed per query
    ann_refine_factor: int = 2  # re-rank k x this candidates with full vectors (0: none)
    ann_rebuild_growth: float = 0.25  # retrain once unindexed rows exceed this share
    # A vector table of at most this many vectors is also written as a float mirror (.npy,
    # memory-mapped) and searched exactly with NumPy, without importing LanceDB (1.5-3 s of a
    # fresh process); larger ones are searched by LanceDB's ANN index. Between ann_min_vectors
    # and this, search is therefore exact where it was approximate (hyrag/index/mirror.py).
    # 0: never mirror (always LanceDB).
    ann_mirror_max_vectors: int = 250_000
    # --- Embeddings (hyrag/embed) ---
    # The tier a NEW knowledge base is embedded with: "" chooses (HYRAG_EMBED_TIER, else an
    # endpoint when HYRAG_EMBED_BASE_URL is set, else the static model shipped in the package,
    # else the local MiniLM, else hashed); "static", "local", "remote" or "hashed" asks for one.
    # A knowledge base keeps the tier recorded when it was first indexed: asking another one
    # there is an error naming both (`hyrag ingest --tier`, `hyrag index --tier`).
    embed_tier: str = ""
    # --- SQL route ---
    sql_row_cap: int = 1000
    sql_timeout_s: float = 10.0
    # --- LLM route (issue 9; hyrag/llm). Offline stays the default: a step runs on the LLM
    # only when named here ("warrant", "hypotheses", "hyde", "rerank", "text2sql", "claims",
    # "synthesis", or "all") and a client is configured (HYRAG_LLM_BASE_URL, HYRAG_LLM_MODEL,
    # HYRAG_LLM_API_KEY else OPENAI_API_KEY). A failing step falls back to its offline twin.
    llm_steps: tuple[str, ...] = ()
    llm_call_limit: int = 8  # Warrant loop: at most this many tool calls (seed 000 IV.C)
    llm_timeout_s: float = 60.0  # per request
    llm_max_retries: int = 2  # retries of a transient failure, with exponential backoff
    llm_max_tokens: int = 512
    llm_temperature: float = 0.0
    # the endpoint's context window: the Warrant loop keeps prompt + llm_max_tokens within it,
    # trimming older tool results first (the tests' local server runs with n_ctx 4096)
    llm_context_tokens: int = 4096

    def __post_init__(self) -> None:
        for name in (
            "horizon_threshold",
            "warrant_threshold",
            "header_overlap",
            "numeric_min_parse_rate",
            "time_min_parse_rate",
            "categorical_max_ratio",
            "conf_cell",
            "conf_aggregate",
            "conf_text",
            "ecr_p_support",
            "ecr_p_other",
            "abstain_threshold_strict",
            "abstain_threshold_balanced",
            "abstain_threshold_exploratory",
        ):
            v = getattr(self, name)
            if not isinstance(v, int | float) or not 0.0 <= v <= 1.0:
                raise SettingsError(f"{name} must be a number in [0, 1], got {v!r}")
        if self.answer_core not in ANSWER_CORES:
            raise SettingsError(f"answer_core must be one of {', '.join(ANSWER_CORES)}, "
                                f"got {self.answer_core!r}")
        for name in ("program_min_confidence", "program_span_min_confidence",
                     "program_span_quote_min_confidence"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int | float) or not (
                    v == -1.0 or 0.0 <= v <= 1.0):
                raise SettingsError(f"{name} must be -1 (the fitted threshold) or in [0, 1], "
                                    f"got {v!r}")
        if not isinstance(self.program_first_kinds, tuple) or not set(
                self.program_first_kinds) <= {"report", "list"}:
            raise SettingsError("program_first_kinds must be a tuple of \"report\" / \"list\", "
                                f"got {self.program_first_kinds!r}")
        for name in ("program_weights", "program_span_weights"):
            if not isinstance(getattr(self, name), str):
                raise SettingsError(f"{name} must be a path (\"\" for the shipped file), got "
                                    f"{getattr(self, name)!r}")
        if not isinstance(self.program_llm_prior, int | float) or not (
                0.0 <= self.program_llm_prior <= 10.0):
            raise SettingsError("program_llm_prior must be a log-odds bonus in [0, 10], got "
                                f"{self.program_llm_prior!r}")
        for name in (
            "horizon_max",
            "warrant_top_k",
            "rrf_k",
            "ecr_budget",
            "dry_run_rows",
            "sql_row_cap",
            "categorical_max_distinct",
            "crag_retries",
            "tracker_threshold",
            "answer_max_unexplained",
            "answer_rival_candidates",
            "ingest_max_member_bytes",
            "ingest_max_sheet_cells",
            "ingest_max_cell_chars",
            "ingest_max_table_columns",
        ):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < (
                    0 if name in ("crag_retries", "answer_max_unexplained") else 1):
                raise SettingsError(f"{name} must be a positive integer, got {v!r}")
        if not isinstance(self.llm_context_tokens, int) or \
                self.llm_context_tokens <= self.llm_max_tokens:
            raise SettingsError(f"llm_context_tokens must exceed llm_max_tokens "
                                f"({self.llm_max_tokens}), got {self.llm_context_tokens!r}")
        from hyrag.embed import TIERS

        if self.embed_tier not in ("", *TIERS):
            raise SettingsError(f"embed_tier must be \"\" (chosen) or one of {', '.join(TIERS)}, "
                                f"got {self.embed_tier!r}")
        if self.ecr_epsilon < 0:
            raise SettingsError(f"ecr_epsilon must be >= 0 bits, got {self.ecr_epsilon!r}")
        if self.ecr_lambda < 0:
            raise SettingsError(f"ecr_lambda must be >= 0, got {self.ecr_lambda!r}")
        from hyrag.index.ann import AnnSettings
        from hyrag.llm.steps import STEPS

        AnnSettings.from_settings(self)  # validates the ann_* fields (messages name them)

        bad = sorted(set(self.llm_steps) - set(STEPS) - {"all"})
        if isinstance(self.llm_steps, str) or bad:
            raise SettingsError(f"llm_steps must be a tuple of {STEPS} or ('all',), got "
                                f"{self.llm_steps!r}")
        for name in ("llm_call_limit", "llm_max_tokens"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise SettingsError(f"{name} must be a positive integer, got {v!r}")
        if not isinstance(self.llm_max_retries, int) or self.llm_max_retries < 0:
            raise SettingsError(f"llm_max_retries must be >= 0, got {self.llm_max_retries!r}")
        if self.llm_timeout_s <= 0:
            raise SettingsError(f"llm_timeout_s must be > 0 seconds, got {self.llm_timeout_s!r}")
        if self.sql_timeout_s <= 0:
            raise SettingsError(f"sql_timeout_s must be > 0 seconds, got {self.sql_timeout_s!r}")
        if not 1 <= self.fiscal_year_start_month <= 12:
            raise SettingsError(
                f"fiscal_year_start_month must be 1..12, got {self.fiscal_year_start_month!r}"
            )

    def ingest_limits(self) -> IngestLimits:
        """The ingest bounds as `ingest` takes them (it never imports `hyrag`)."""
        return IngestLimits(
            max_member_bytes=self.ingest_max_member_bytes,
            max_sheet_cells=self.ingest_max_sheet_cells,
            max_cell_chars=self.ingest_max_cell_chars,
            max_table_columns=self.ingest_max_table_columns,
        )

    def with_(self, **changes: object) -> Settings:
        names = {f.name for f in fields(self)}
        unknown = sorted(set(changes) - names)
        if unknown:
            raise SettingsError(f"unknown setting(s) {unknown}; valid: {sorted(names)}")
        return replace(self, **changes)  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def default_kb_path() -> str:
    return os.environ.get("HYRAG_KB") or "./hyrag_kb"
