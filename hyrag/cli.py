"""`hyrag` on the command line: each command builds the library object, calls one method and
turns `HyragError` into one line on stderr with exit code 1 (a traceback only with --debug).

Everything the commands print passes through `_Escaping`: cell values, claim texts, file names
and error messages come from data, and a control character in them (ESC starting a terminal
sequence that clears the screen or retitles the window, a carriage return that overwrites a
line, a bidi override) must reach the terminal as visible text, never be obeyed. A bad argument
is one line too (`_Parser.error`), with exit code 2."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import traceback
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from typing import NoReturn, TextIO

from hyrag.errors import HyragError
from hyrag.settings import default_kb_path

# Bidirectional-text controls: not Cc, but they reorder what the terminal shows (Trojan Source).
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def escape_controls(text: str, *, keep: str = "\n\t") -> str:
    """`text` with every control character except those in `keep` written as a `\\u` escape
    with four hex digits (ESC as `\\u001b`), valid inside a JSON string too, so JSON output
    stays parseable."""
    if text.isprintable() and not any(ch in _BIDI for ch in text):
        return text
    return "".join(
        f"\\u{ord(ch):04x}" if ch not in keep and (
            unicodedata.category(ch) == "Cc" or ch in _BIDI) else ch
        for ch in text)


def cell(value: object) -> str:
    """One value in a one-line layout (a table cell, a search hit): newlines escaped too."""
    return escape_controls("" if value is None else str(value), keep="")


class _Escaping:
    """A text stream that escapes control characters in what is written (keeps \\n and \\t).
    The progress bar's carriage return is written to the raw stream (`raw`)."""

    def __init__(self, stream: TextIO) -> None:
        self.raw = stream

    def write(self, text: str) -> int:
        self.raw.write(escape_controls(text))
        return len(text)

    def __getattr__(self, name: str) -> object:
        return getattr(self.raw, name)


@contextlib.contextmanager
def _escaped_output() -> Iterator[None]:
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Escaping(out), _Escaping(err)  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


def _raw_stderr() -> TextIO:
    err = sys.stderr
    return err.raw if isinstance(err, _Escaping) else err


class _Parser(argparse.ArgumentParser):
    """argparse, with a bad argument reported on one line (and exit code 2)."""

    def error(self, message: str) -> NoReturn:
        line = escape_controls(" ".join(message.split()), keep="")
        self.exit(2, f"{self.prog}: error: {line} (see {self.prog} --help)\n")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {value}")
    return value


def _progress(i: int, n: int, name: str) -> None:
    if not sys.stderr.isatty():
        return  # a bar only for a person watching; logs and pipes get the report lines
    width = 30
    done = int(width * i / max(n, 1))
    bar = "#" * done + "-" * (width - done)
    shown = cell(name)[-50:]
    print(f"\r[{bar}] {i}/{n} {shown:<50}", end="" if i < n else "\n", file=_raw_stderr())


def _json_default(o: object) -> object:
    if hasattr(o, "isoformat"):
        return o.isoformat()  # type: ignore[no-any-return]
    return str(o)


def _print_json(obj: object) -> None:
    print(json.dumps(obj, default=_json_default, ensure_ascii=False, indent=2))


def _open(args: argparse.Namespace, *, read_only: bool = False, **kw: object):
    """The knowledge base as `--as SUBJECT` under `--policy FILE` (or the folder's policy.toml)
    with `--attest TEXT`. A command that only reads opens the store read-only, governed or not:
    its audit records go to the read log (`hyrag.readlog`), so readers never lock each other
    (or a notebook) out."""
    from hyrag.kb import KnowledgeBase

    return KnowledgeBase(args.kb, read_only=read_only, subject=args.as_subject,
                         policy=args.policy, attestation=args.attest, **kw)


def _open_searching(args: argparse.Namespace, **kw: object):
    """`_open` read-only for a command that searches. Vectors of sources ingested without them
    (`--no-vectors`, or `kb.ingest` in Python) are written by the first search, which needs
    the store read-write: then, and only then, the knowledge base is opened read-write; when
    other processes hold it the search runs without those vectors and says so."""
    from hyrag.errors import StoreError

    kb = _open(args, read_only=True, **kw)
    try:
        pending = kb.pending_vectors()
    except BaseException:
        kb.close()
        raise
    if not pending:
        return kb
    kb.close()
    try:
        return _open(args, **kw)
    except StoreError as e:
        print(f"note: vectors of {len(pending)} source(s) are not written yet ({e}); searching "
              "without them", file=sys.stderr)
        return _open(args, read_only=True, **kw)


def cmd_ingest(args: argparse.Namespace) -> int:
    if args.engine == "ray":
        return _ingest_ray(args)
    if args.workers is not None:
        raise HyragError("--workers needs --engine ray (the single-node ingest is one process)")
    with _open(args, **_tier_settings(args)) as kb:
        if args.tier:
            kb.horizon.embedder  # noqa: B018 - a refused --tier stops before anything is ingested
        reports, errors = kb.ingest_many(
            args.paths,
            progress=None if args.json else _progress,
            keep_going=args.keep_going,
            tenant=args.tenant,
            classification=args.classification,
        )
        vec = None if args.no_vectors else kb.index(
            progress=None if args.json else _progress)
    if args.json:
        _print_json(
            {"reports": [r.to_dict() for r in reports], "errors": [str(e) for e in errors]}
        )
    else:
        for r in reports:
            tables = f" tables: {', '.join(r.tables)}" if r.tables else ""
            print(f"{r.status:<12} {r.source}  claims: {r.claims}  links: {r.links}{tables}")
            for note in r.notes:
                if note not in ("encoding utf-8", "delimiter comma"):
                    print(f"             note: {note}")
        for e in errors:
            print(f"error: {e}", file=sys.stderr)
        if vec is not None and (vec.indexed or vec.failed):
            print(f"vectors: {vec.vectors} written for {len(vec.indexed)} source(s) "
                  f"({kb.horizon.embedder.info.label()})")
            for sid, why in vec.failed.items():
                print(f"vectors pending for {sid} (retried at the next ingest or search): {why}",
                      file=sys.stderr)
    return 1 if errors else 0


def _tier_settings(args: argparse.Namespace) -> dict[str, object]:
    """`--tier`: the embedding tier of a new knowledge base, or a check on an existing one
    (which keeps its recorded tier: another one is refused, naming both)."""
    if not getattr(args, "tier", None):
        return {}
    from hyrag.settings import Settings

    return {"settings": Settings(embed_tier=args.tier)}


def _ingest_ray(args: argparse.Namespace) -> int:
    """`hyrag ingest --engine ray`: a dataset at --kb, written whole or not at all."""
    from hyrag.scale import job

    if args.tier:
        raise HyragError("--tier needs the single engine: a dataset's vectors are written at "
                         "its first search, with HYRAG_EMBED_TIER's tier")
    job.refuse_unsupported(policy=args.policy, attest=args.attest, **{"as": args.as_subject})
    rep = job.run(args.paths, args.kb, workers=args.workers or job.DEFAULT_WORKERS,
                  tenant=args.tenant or "default", classification=args.classification,
                  keep_going=args.keep_going, progress=None if args.json else _progress)
    if args.json:
        _print_json(rep.to_dict())
    else:
        m = rep.manifest
        print(f"ingested     {len(rep.ingested)} of {rep.files} file(s) with {rep.workers} "
              f"worker(s) into {rep.location}: {m.claims:,} claims, {m.links:,} links, "
              f"{len(m.tables)} tables (claim digest {m.claim_digest})")
        for f in rep.unchanged:
            print(f"unchanged    {f} (the same bytes as an earlier file)")
        ray_start = f" (+{rep.start_seconds:.1f} s starting Ray)" if rep.start_seconds else ""
        print(f"time         {rep.seconds:.1f} s: ingest {rep.ingest_seconds:.1f} s, links "
              f"{rep.link_seconds:.1f} s, write {rep.write_seconds:.1f} s{ray_start}")
        print("vectors      written at the first search of the dataset (hyrag search / ask "
              f"--kb {rep.location})")
        for f in rep.failed:
            print(f"error: {f.error}", file=sys.stderr)
    return 1 if rep.failed else 0


def cmd_index(args: argparse.Namespace) -> int:
    """Write the vectors `hyrag ingest --no-vectors` left out (and drop superseded ones): a
    large load is ingested first, at DuckDB speed, and embedded once at the end."""
    with _open(args, **_tier_settings(args)) as kb:
        if args.tier:
            kb.horizon.embedder  # noqa: B018 - checked even when no source is pending
        pending = kb.pending_vectors()
        rep = kb.index(progress=None if args.json else _progress)
        label = kb.horizon.embedder.info.label() if (rep.indexed or rep.failed) else ""
    if args.json:
        _print_json({"pending": len(pending), "indexed": rep.indexed, "removed": rep.removed,
                     "vectors": rep.vectors, "failed": rep.failed, "ann": rep.ann})
        return 1 if rep.failed else 0
    if not (rep.indexed or rep.removed or rep.failed):
        print("vectors: up to date (no source waiting for its vectors)")
    if rep.indexed:
        print(f"vectors: {rep.vectors} written for {len(rep.indexed)} source(s) ({label})")
    if rep.removed:
        print(f"vectors: dropped those of {len(rep.removed)} superseded source version(s)")
    for name, did in rep.ann.items():
        print(f"approximate index of {name}: {did}")
    for sid, why in rep.failed.items():
        print(f"vectors pending for {sid} (retried by the next index or search): {why}",
              file=sys.stderr)
    return 1 if rep.failed else 0


def cmd_schema_suggestions(args: argparse.Namespace) -> int:
    """Columns whose verification failures passed the tracker's threshold (issue 7)."""
    from hyrag.answer.verify.tracker import SchemaEvolutionTracker

    with _open(args, read_only=True) as kb:
        frame = SchemaEvolutionTracker(kb.store, kb.settings.tracker_threshold).suggestions()
        threshold = kb.settings.tracker_threshold
    if args.json:
        _print_json({"threshold": threshold,
                     "suggestions": frame.astype({"updated_at": str}).to_dict(orient="records")})
        return 0
    if frame.empty:
        print(f"(no suggestions: no column has {threshold} or more verification failures)")
        return 0
    for _, r in frame.iterrows():
        print(f"{r['table_name']}.{r['column_name']}: {r['failures']} failures -> "
              f"{r['proposal']}  (last: {r['last_reason']})")
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    if getattr(args, "suggestions", False):
        return cmd_schema_suggestions(args)
    with _open(args, read_only=True) as kb:
        frame = kb.schema(args.table)
        adj = kb.adjustments()
        tables = kb.tables()
    if args.json:
        _print_json(
            {
                "tables": tables.to_dict(orient="records"),
                "columns": frame.to_dict(orient="records"),
                "adjustments": adj.to_dict(orient="records"),
            }
        )
        return 0
    if tables.empty:
        print("(no tables: run `hyrag ingest PATH` first)")
        return 0
    for _, t in tables.iterrows():
        if args.table and t["table_name"] != args.table:
            continue
        where = f", sheet {t['sheet']}" if t["sheet"] else ""
        print(f"\n{t['table_name']}  ({t['source']}{where}; {t['n_rows']} rows, "
              f"{t['claims']} claims{', melted from a wide table' if t['melted'] else ''})")
        cols = frame[frame["table_name"] == t["table_name"]]
        for _, c in cols.iterrows():
            unit = " ".join(x for x in (c["scale"], c["unit"]) if x)
            print(f"  {c['column_name']:<24} {c['role']:<12} {c['dtype']:<10} "
                  f"{unit:<14} nulls {c['null_rate']:.0%}")
        for _, a in adj[adj["table_name"] == t["table_name"]].iterrows():
            print(f"  adjusted {a['column_name']}: {a['from_role']} -> {a['to_role']} "
                  f"({a['reason']})")
    return 0


def cmd_sql(args: argparse.Namespace) -> int:
    with _open(args, read_only=True) as kb:
        result = kb.sql(args.query, row_cap=args.max_rows)
    if args.json:
        _print_json(result.to_dict())
        return 0
    cols = result.columns
    cols = [cell(c) for c in cols]
    rows = [[cell(v) for v in r] for r in result.rows]
    widths = [max([len(c)] + [len(r[i]) for r in rows]) for i, c in enumerate(cols)]
    print("  ".join(c.ljust(w) for c, w in zip(cols, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)))
    more = " (truncated at the row cap)" if result.truncated else ""
    print(f"({len(rows)} row{'s' if len(rows) != 1 else ''}{more})")
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    with _open_searching(args) as kb:
        result = kb.search(args.question, k=args.k)
    if args.json:
        _print_json(result.to_dict())
        return 0
    iv = f"  period filter: {result.interval[0]:.0f}..{result.interval[1]:.0f}" if result.interval else ""
    print(f"best strategy: {result.best_strategy}{iv}  ({result.embedding}, "
          f"{result.seconds * 1000:.0f} ms)")
    for c in result.claims:
        why = ", ".join(f"{n} #{r} ({c.scores.get(n, 0):.2f})" for n, r in c.ranks.items())
        if c.expanded_from:
            why = (why + "; " if why else "") + f"expanded from {c.expanded_from}"
        print(f"{c.rank:>3}. [{c.fused_score:.4f}] {cell(c.text)}")
        print(f"      {cell(c.file or c.table or '')} {cell(c.locator or c.claim_id)}  <- {why}")
    if not result.claims:
        print("(no claims above the horizon threshold)")
    if result.step_up:  # sources the subject may read once attested: said, never shown
        print(f"note: {result.step_up['notice']}")
    return 0


def cmd_ask(args: argparse.Namespace) -> int:
    from hyrag.settings import Settings

    settings = Settings(answer_use_search=not args.no_search)
    kb = (_open(args, read_only=True, settings=settings) if args.no_search
          else _open_searching(args, settings=settings))
    with kb:
        answer = kb.ask(args.question, trust=args.trust)
    if args.json:
        _print_json(answer.to_dict())
        return 0
    print(answer.brief if args.brief else answer.text)
    if not args.brief:
        for e in answer.evidence:
            print(f"  [{e['n']}] {e['source']} {e['locator']}")
        for g in answer.gaps:  # gaps the policy added after drafting (sources needing --attest)
            if g.get("reason") and g["reason"] not in answer.text:
                print(f"gap: {g['reason']}")
        print(f"decision: {answer.decision}  route: {answer.route}  "
              f"({answer.latency_ms:.0f} ms, audit {answer.audit_id or '-'})")
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    with _open(args, read_only=True) as kb:
        events = kb.audit(args.id)  # needs the audit.read action
    if not events:
        raise HyragError(f"no audit events for request {args.id!r}")
    if args.json:
        _print_json(events)
        return 0
    for ev in events:
        p = ev["payload"] or {}
        line = f"{ev['created_at']}  {ev['kind']:<13}"
        if isinstance(p, dict) and p.get("withheld"):  # the reader's rules hide its data
            line += f" ({p['withheld']})"
        elif ev["kind"] == "parse":
            line += f" {p.get('question')!r}  trust={p.get('trust')}"
        elif ev["kind"] == "route":
            line += f" {p.get('route')}"
        elif ev["kind"] == "horizon":
            line += f" {p.get('count')} candidates ({p.get('strategy')})"
        elif ev["kind"] == "requirements":
            line += " " + "; ".join(
                f"{r['rid']} {r.get('entity') or '-'} / {r['attribute']} / {r.get('period') or '-'}"
                for r in p.get("requirements", []))
        elif ev["kind"] == "commit":
            line += f" {p.get('requirement')} claim {p.get('claim_id')} from {p.get('source')}"
        elif ev["kind"] == "gap":
            line += (f" {p.get('entity')} / {p.get('attribute')} declared absent: "
                     f"{p.get('reason')}")
        elif ev["kind"] == "warrant":
            line += " " + "; ".join(f"{v['rid']} {v['support']}" for v in p.get("verdicts", []))
        elif ev["kind"] == "verification":
            line += f" {p.get('verdict')} (score {p.get('score')})"
        elif ev["kind"] == "ecr":
            line += f" triggered={p.get('triggered')} stop={p.get('stop_reason')}"
        elif ev["kind"] == "answer":
            line += f" {p.get('decision')}: {p.get('text')}"
        elif ev["kind"] == "policy.verdict":
            line += (f" {p.get('action')} by {p.get('subject')}: {p.get('effect')} "
                     f"rule {p.get('rule_id')} (policy {p.get('policy_version')})"
                     + (f" — {p.get('note')}" if p.get("note") else ""))
        elif ev["kind"] == "policy.scope":
            line += (f" {len(p.get('allowed_sources', []))} source(s) allowed, "
                     f"{len(p.get('step_up_sources', []))} need an attestation")
        elif ev["kind"] == "context_pack":
            line += (f" {len(p.get('claims', []))} claim(s) entered synthesis under policy "
                     f"{p.get('policy_version')}")
            for c in p.get("claims", []):
                if c.get("withheld"):
                    line += f"\n      {c.get('claim_id')} (withheld)"
                    continue
                line += (f"\n      {c.get('claim_id')} [{c.get('score')}] {c.get('source')} "
                         f"{c.get('locator')}: {cell(c.get('text'))}")
        print(line)
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    return int(args.bench_run(args))


def build_parser(*, benches: bool = True) -> argparse.ArgumentParser:
    """The command line. `benches=False` leaves each benchmark's own options out (its module
    is not imported): `main` passes it for every command but `bench`, whose modules import
    NumPy, datasets and the answer engine — a cold start of `hyrag sql` paid ~0.2 s for them."""
    p = _Parser(
        prog="hyrag",
        description="Ingest spreadsheets, PDFs and text into a claim store; ask questions whose "
        "every number cites a cell or a sentence; run read-only SQL.",
    )
    p.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def common(sp: argparse.ArgumentParser, json_flag: bool = True) -> None:
        sp.add_argument("--kb", default=default_kb_path(),
                        help="knowledge-base folder (default: $HYRAG_KB or ./hyrag_kb)")
        if json_flag:
            sp.add_argument("--json", action="store_true", help="print JSON")
        sp.add_argument("--as", dest="as_subject", metavar="SUBJECT",
                        default=os.environ.get("HYRAG_SUBJECT"),
                        help="act as this policy subject (default $HYRAG_SUBJECT)")
        sp.add_argument("--policy", metavar="FILE", default=None,
                        help="policy file (default: policy.toml in the knowledge-base folder; "
                        "none: single local owner, everything allowed)")
        sp.add_argument("--attest", metavar="TEXT", default=None,
                        help="attestation for a STEP_UP verdict (recorded in the audit log)")

    def tier_flag(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--tier", choices=["static", "local", "remote", "hashed"], default=None,
                        help="embedding tier of a new knowledge base (default: $HYRAG_EMBED_TIER, "
                        "else remote when $HYRAG_EMBED_BASE_URL is set, else static, the model "
                        "shipped with hyrag); an existing one keeps its own and refuses another")

    sp = sub.add_parser("ingest", help="ingest files or folders (CSV, XLSX, XLS, ODS, PDF, TXT, MD)")
    sp.add_argument("paths", nargs="+")
    sp.add_argument("--keep-going", action="store_true",
                    help="report a failing file and continue with the others")
    sp.add_argument("--no-vectors", action="store_true",
                    help="skip embedding now (`hyrag index` or the first search does it)")
    tier_flag(sp)
    sp.add_argument("--tenant", default=None,
                    help="tenant of the new sources (default: the subject's own)")
    sp.add_argument("--classification", default="internal",
                    choices=["public", "internal", "confidential", "restricted"])
    sp.add_argument("--engine", choices=["single", "ray"], default="single",
                    help="single: this process into the --kb folder (default); ray: one Ray "
                    "task per file into a new dataset (Lance + Parquet) at --kb, which must not "
                    "exist (needs pip install 'hyrag[scale]')")
    sp.add_argument("--workers", type=_positive_int, default=None,
                    help="--engine ray: tasks at a time (CPUs of a local Ray instance; "
                    "default 2)")
    common(sp)
    sp.set_defaults(func=cmd_ingest)

    sp = sub.add_parser("index", help="write the vectors of sources ingested with "
                        "--no-vectors (a progress display on a terminal)")
    tier_flag(sp)
    common(sp)
    sp.set_defaults(func=cmd_index)

    sp = sub.add_parser("schema", help="show the inferred schemas and the adjustments made")
    sp.add_argument("--table", default=None)
    sp.add_argument("--suggestions", action="store_true",
                    help="reclassifications the schema-evolution tracker proposes")
    common(sp)
    sp.set_defaults(func=cmd_schema)

    sp = sub.add_parser("sql", help="run one read-only SQL query")
    sp.add_argument("query")
    sp.add_argument("--max-rows", type=_positive_int, default=None,
                    help="row cap, >= 1 (default 1000)")
    common(sp)
    sp.set_defaults(func=cmd_sql)

    sp = sub.add_parser("search", help="ranked claims for a question, with why each was found")
    sp.add_argument("question")
    sp.add_argument("--k", type=_positive_int, default=10, help="how many claims (default 10)")
    common(sp)
    sp.set_defaults(func=cmd_search)

    sp = sub.add_parser("ask", help="answer a question with citations, gaps and conflicts")
    sp.add_argument("question")
    sp.add_argument("--trust", default="balanced",
                    choices=["strict", "balanced", "exploratory"])
    sp.add_argument("--brief", action="store_true", help="print the structured brief")
    sp.add_argument("--no-search", action="store_true",
                    help="structural Horizon only (no retrieval ensemble)")
    common(sp)
    sp.set_defaults(func=cmd_ask)

    sp = sub.add_parser("audit", help="replay what a request retrieved, committed and answered")
    asub = sp.add_subparsers(dest="audit_cmd", required=True, parser_class=_Parser)
    ap = asub.add_parser("show", help="show the audit events of one request id")
    ap.add_argument("id")
    common(ap)
    ap.set_defaults(func=cmd_audit)

    sp = sub.add_parser("bench", help="benchmarks (not tests): " + ", ".join(BENCHES))
    bsub = sp.add_subparsers(dest="bench", required=True, parser_class=_Parser)
    for name, loader in BENCHES.items():
        bp = bsub.add_parser(name, help=f"{name} benchmark")
        if not benches:
            continue
        try:
            mod = loader()
        except ImportError as e:  # a benchmark under construction must not break the CLI
            bp.set_defaults(func=lambda a, e=e: _missing(e))
            continue
        mod.add_arguments(bp)  # type: ignore[attr-defined]
        bp.set_defaults(func=cmd_bench, bench_run=mod.run)  # type: ignore[attr-defined]
    return p


def _missing(e: Exception) -> int:
    raise HyragError(f"benchmark unavailable: {e}")


def _bench_ingest():
    from hyrag.bench import ingest

    return ingest


def _bench_ecr():
    from hyrag.bench import ecr

    return ecr


def _bench_retrieval():
    from hyrag.bench import retrieval

    return retrieval


def _bench_latency():
    from hyrag.bench import latency

    return latency


def _bench_answers():
    from hyrag.bench import answers

    return answers


def _bench_policy():
    from hyrag.bench import policy

    return policy


def _bench_tatqa():
    from hyrag.bench import tatqa

    return tatqa


def _bench_diff():
    from hyrag.bench import diff

    return diff


def _bench_fit():
    from hyrag.bench import fit

    return fit


def _bench_fit_spans():
    from hyrag.bench import fit_spans

    return fit_spans


def _bench_fit_terms():
    from hyrag.bench import fit_terms

    return fit_terms


def _bench_wtq():
    from hyrag.bench import wtq

    return wtq


def _bench_tables():
    from hyrag.bench import tables

    return tables


def _bench_coldstart():
    from hyrag.bench import coldstart

    return coldstart


def _bench_embed():
    from hyrag.bench import embed

    return embed


def _bench_scale():
    from hyrag.bench import scale

    return scale


BENCHES: dict[str, Callable[[], object]] = {
    "ingest": _bench_ingest, "ecr": _bench_ecr,
    "retrieval": _bench_retrieval, "latency": _bench_latency,
    "answers": _bench_answers, "policy": _bench_policy,
    "tatqa": _bench_tatqa, "wtq": _bench_wtq, "fit": _bench_fit, "diff": _bench_diff,
    "fit-spans": _bench_fit_spans, "fit-terms": _bench_fit_terms, "tables": _bench_tables,
    "coldstart": _bench_coldstart, "scale": _bench_scale, "embed": _bench_embed,
}


def _command(argv: Sequence[str]) -> str | None:
    """The subcommand named on the line (the first word not an option), without parsing it."""
    return next((a for a in argv if not a.startswith("-")), None)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(benches=_command(argv) in ("bench", None))
    args = parser.parse_args(argv)
    with _escaped_output():
        try:
            return int(args.func(args))
        except HyragError as e:
            if args.debug:
                traceback.print_exc()
            print(f"hyrag: error: {cell(' '.join(str(e).split()))}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            print("hyrag: interrupted", file=sys.stderr)
            return 130


if __name__ == "__main__":
    raise SystemExit(main())
