"""`hyrag bench tables PATH...`: an audit of the table model on files nobody labelled.

Each file (CSV, XLSX, PDF, ...; a folder is read whole) goes through `kb.ingest(path)` into a
fresh knowledge base, and every table's stored model (`hyrag.tablecells.load`) is checked for
what a person reading the table would never do. Each check is a pure function of one
`TableModel` and names the rows or columns it finds:

- `unnamed_rows`: a line of figures whose row path is empty (nothing names what its figures
  are; an unlabelled line that adds up the lines above is a `total`, not a `data` row);
- `figures_in_row_paths`: a level of a report row's path that is a figure or a nil mark
  ("3.7%", "$—"): a column of figures read as a column of names;
- `unread_period_headers`: a table with no period in its columns or rows although a header
  names a year ("2019 €m"): questions "in 2019" cannot meet its figures;
- `figure_columns_as_text`: a report's column of names whose cells are mostly figures.

The two checks of names read report tables only (`is_report`): a list's rows are named by
every naming column, a year or a rank among them.

No labels are needed, so it runs on real workbooks and reports as they are: a rate per check
and examples to read. `--tatqa FILE` audits TAT-QA's tables, each written as a CSV exactly as
its rows are (as `hyrag bench tatqa` does). Findings are for reading; a rule is kept for what
it does on held-out data, never for an example listed here.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from ingest.cells import is_empty
from ingest.tablemodel import TableModel, is_figure
from ingest.units import MAGNITUDES

_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
SHOW = 5  # examples shown per check


def unnamed_rows(m: TableModel) -> list[str]:
    """Data rows with figures whose row path is empty."""
    have = set(m.arrays.row)
    return [f"row {r.row}" for i, r in enumerate(m.rows)
            if r.kind == "data" and not r.path and i in have]


def is_report(m: TableModel) -> bool:
    """A report's table (line items x periods, or figures in thousands or millions), where a
    row is named by its label alone; a list's rows are named by every naming column, years and
    ranks included, so the two checks of names below read reports only."""
    return sum(c.period is not None for c in m.columns) >= 2 or any(
        s in MAGNITUDES for s in m.arrays.scale)


def figures_in_row_paths(m: TableModel) -> list[str]:
    """Row paths of a report's table holding a figure or a nil mark as a level."""
    if not is_report(m):
        return []
    return [f"row {r.row}: {' > '.join(r.path)}" for r in m.rows
            if any(is_figure(lvl) or is_empty(lvl) for lvl in r.path[r.headings:][1:])]


def unread_period_headers(m: TableModel) -> list[str]:
    """A table whose headers name a year while neither a column nor a row has a period (a
    date in the corner cell dates the rows, `ingest.tablemodel`)."""
    if any(c.period for c in m.columns) or any(r.period for r in m.rows):
        return []
    named = [" / ".join(c.path) for c in m.columns if _YEAR.search(" ".join(c.path))]
    return [f"columns {named}"] if named else []


def figure_columns_as_text(m: TableModel) -> list[str]:
    """Columns of names (not the first) of a report's table whose cells are mostly figures, as
    the table model itself tells a figure from a name (`tablemodel.is_figure`: "(12)%", "3-5")."""
    if not is_report(m):
        return []
    a = m.arrays
    out = []
    for j, c in enumerate(m.columns):
        if j == 0 or c.role == "numeric":
            continue
        texts = [t for t, cj in zip(a.text, a.column, strict=True) if cj == j]
        if texts and sum(is_figure(t) for t in texts if t.strip()) * 2 >= len(texts):
            out.append(f"column {' / '.join(c.path) or j}: {texts[:3]}")
    return out


CHECKS: dict[str, Callable[[TableModel], list[str]]] = {
    "unnamed_rows": unnamed_rows,
    "figures_in_row_paths": figures_in_row_paths,
    "unread_period_headers": unread_period_headers,
    "figure_columns_as_text": figure_columns_as_text,
}


def audit(m: TableModel) -> dict[str, list[str]]:
    """Every check's findings on one table (checks that find nothing left out)."""
    return {name: got for name, check in CHECKS.items() if (got := check(m))}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", help="files or folders to ingest and audit")
    p.add_argument("--tatqa", default=None,
                   help="TAT-QA's dataset_raw JSON: audit its tables (one CSV per document)")
    p.add_argument("--limit", type=int, default=None, help="the first N files or documents")
    p.add_argument("--show", type=int, default=SHOW, help="examples listed per check")
    p.add_argument("--out", default=None, help="write every table's findings as JSON")


def _files(args: argparse.Namespace, work: Path) -> Iterator[Path]:
    if args.tatqa:
        import csv

        docs = json.loads(Path(args.tatqa).read_text(encoding="utf-8"))
        for i, doc in enumerate(docs[: args.limit]):
            path = work / f"doc{i:04d}.csv"
            with path.open("w", newline="", encoding="utf-8") as fh:
                csv.writer(fh).writerows(doc["table"]["table"])
            yield path
        return
    paths = []
    for p in map(Path, args.paths):
        paths += sorted(q for q in p.rglob("*") if q.is_file()) if p.is_dir() else [p]
    yield from paths[: args.limit]


def run(args: argparse.Namespace) -> int:
    import hyrag
    from hyrag import tablecells
    from hyrag.errors import HyragError
    from hyrag.settings import Settings

    if not args.paths and not args.tatqa:
        print("hyrag bench tables: give files or folders, or --tatqa FILE", file=sys.stderr)
        return 2
    found: list[dict] = []
    failed: list[str] = []
    with tempfile.TemporaryDirectory(prefix="hyrag-tables-") as tmp:
        work = Path(tmp)
        kb = hyrag.open(work / "kb", settings=Settings(answer_use_search=False))
        try:
            for path in _files(args, work):
                try:
                    report = kb.ingest(path)
                except HyragError as e:  # a file the ingest refuses is reported, not audited
                    failed.append(f"{path}: {e}")
                    continue
                for name in report.tables:
                    m = tablecells.load(kb.store.con, name)
                    if m is not None:
                        found.append({"file": str(path), "table": name, "report": is_report(m),
                                      "findings": audit(m)})
        finally:
            kb.close()
    n = len(found)
    print(f"table model audit: {n} tables ({sum(f['report'] for f in found)} report tables) "
          f"from {len({f['file'] for f in found})} files"
          + (f"; {len(failed)} files refused" if failed else ""))
    for name in CHECKS:
        hit = [f for f in found if name in f["findings"]]
        print(f"  {name:24s} {len(hit):5d} tables ({len(hit) / max(n, 1):.1%})")
        for f in hit[: args.show]:
            print(f"      {Path(f['file']).name} {f['table']}: {f['findings'][name][0][:110]}")
    for line in failed[: args.show]:
        print(f"  refused: {line[:140]}")
    if args.out:
        Path(args.out).write_text(json.dumps(found, indent=1), encoding="utf-8")
    print("\nrerun: hyrag bench tables " + " ".join(shlex.quote(a) for a in sys.argv[3:]))
    return 0
