"""`hyrag` on the command line: each command builds the library object, calls one method and
turns `HyragError` into one line on stderr with exit code 1 (a traceback only with --debug)."""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from collections.abc import Callable, Sequence

from hyrag.errors import HyragError
from hyrag.settings import default_kb_path


def _progress(i: int, n: int, name: str) -> None:
    if not sys.stderr.isatty():
        if name:
            print(f"[{i + 1}/{n}] {name}", file=sys.stderr)
        return
    width = 30
    done = int(width * i / max(n, 1))
    bar = "#" * done + "-" * (width - done)
    print(f"\r[{bar}] {i}/{n} {name[-50:]:<50}", end="" if i < n else "\n", file=sys.stderr)


def _json_default(o: object) -> object:
    if hasattr(o, "isoformat"):
        return o.isoformat()  # type: ignore[no-any-return]
    return str(o)


def _print_json(obj: object) -> None:
    print(json.dumps(obj, default=_json_default, ensure_ascii=False, indent=2))


def cmd_ingest(args: argparse.Namespace) -> int:
    from hyrag.kb import KnowledgeBase

    with KnowledgeBase(args.kb) as kb:
        reports, errors = kb.ingest_many(
            args.paths,
            progress=None if args.json else _progress,
            keep_going=args.keep_going,
            tenant=args.tenant,
            classification=args.classification,
        )
    if args.json:
        _print_json(
            {"reports": [r.to_dict() for r in reports], "errors": [str(e) for e in errors]}
        )
    else:
        for r in reports:
            tables = f" tables: {', '.join(r.tables)}" if r.tables else ""
            print(f"{r.status:<12} {r.source}  claims: {r.claims}  links: {r.links}{tables}")
            for note in r.notes:
                print(f"             note: {note}")
        for e in errors:
            print(f"error: {e}", file=sys.stderr)
    return 1 if errors else 0


def cmd_schema(args: argparse.Namespace) -> int:
    from hyrag.kb import KnowledgeBase

    with KnowledgeBase(args.kb, read_only=True) as kb:
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
    from hyrag.kb import KnowledgeBase

    with KnowledgeBase(args.kb, read_only=True) as kb:
        result = kb.sql(args.query, row_cap=args.max_rows)
    if args.json:
        _print_json(result.to_dict())
        return 0
    cols = result.columns
    rows = [["" if v is None else str(v) for v in r] for r in result.rows]
    widths = [max([len(c)] + [len(r[i]) for r in rows]) for i, c in enumerate(cols)]
    print("  ".join(c.ljust(w) for c, w in zip(cols, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)))
    more = " (truncated at the row cap)" if result.truncated else ""
    print(f"({len(rows)} row{'s' if len(rows) != 1 else ''}{more})")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    return int(args.bench_run(args))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hyrag", description=__doc__)
    p.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    sub = p.add_subparsers(dest="command", required=True)

    def common(sp: argparse.ArgumentParser, json_flag: bool = True) -> None:
        sp.add_argument("--kb", default=default_kb_path(),
                        help="knowledge-base folder (default: $HYRAG_KB or ./hyrag_kb)")
        if json_flag:
            sp.add_argument("--json", action="store_true", help="print JSON")

    sp = sub.add_parser("ingest", help="ingest files or folders (CSV, XLSX, PDF, TXT, MD)")
    sp.add_argument("paths", nargs="+")
    sp.add_argument("--keep-going", action="store_true",
                    help="report a failing file and continue with the others")
    sp.add_argument("--tenant", default="default")
    sp.add_argument("--classification", default="internal",
                    choices=["public", "internal", "confidential", "restricted"])
    common(sp)
    sp.set_defaults(func=cmd_ingest)

    sp = sub.add_parser("schema", help="show the inferred schemas and the adjustments made")
    sp.add_argument("--table", default=None)
    common(sp)
    sp.set_defaults(func=cmd_schema)

    sp = sub.add_parser("sql", help="run one read-only SQL query")
    sp.add_argument("query")
    sp.add_argument("--max-rows", type=int, default=None, help="row cap (default 1000)")
    common(sp)
    sp.set_defaults(func=cmd_sql)

    sp = sub.add_parser("bench", help="benchmarks (not tests): ingest, ecr")
    bsub = sp.add_subparsers(dest="bench", required=True)
    for name, loader in BENCHES.items():
        bp = bsub.add_parser(name, help=f"{name} benchmark")
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


def _bench_ingest():  # noqa: ANN202
    from hyrag.bench import ingest

    return ingest


def _bench_ecr():  # noqa: ANN202
    from hyrag.bench import ecr

    return ecr


BENCHES: dict[str, Callable[[], object]] = {"ingest": _bench_ingest, "ecr": _bench_ecr}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except HyragError as e:
        if args.debug:
            traceback.print_exc()
        print(f"hyrag: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("hyrag: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
