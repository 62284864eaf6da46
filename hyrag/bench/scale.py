"""`hyrag bench scale`: one generated corpus ingested single-node and by Ray tasks (issue 21).

Reports wall time and time per file of both, the Ray job's parts (starting Ray, the parallel
ingest, the set-wise links, the write), the tasks' own time, what shipping results costs
(exporting each file's rows to Arrow and fetching them: `transfer`), peak memory of the single
process and of each Ray worker, and the claim-set digest of both, which must be equal.

The corpus is CSV tables of a sales-like shape (`bench.ingest.make_table`), XLSX workbooks,
Markdown notes whose figures repeat across files (so the set-wise linking has supports and
contradictions to find) and copies of the sample PDFs made distinct by a trailing comment. A
few files share a name in different folders, so their tables are named by file order
(`sales_2`) and the Ray job ingests them a second time with those names (`renamed`).

On the 2-core machine this was written on, two workers cannot beat one process by much: the
figures that carry to a cluster are time per file per worker and the transfer share.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import resource
import shutil
import tempfile
import time
from pathlib import Path

from hyrag.bench.ingest import make_table
from hyrag.errors import HyragError

SMALL_FILES = 200
LARGE_FILES = 2_000
SMALL_ROWS = 60  # rows per CSV / XLSX table: 200 files, 160 tables of 60 x 12 = 115,200 cells
LARGE_ROWS = 520  # 2,000 files: 1,600 tables of 520 x 12 = 9.98 M cells
SAME_NAME_SHARE = 0.05  # files whose name an earlier file in another folder has
SAMPLE_PDFS = Path(__file__).resolve().parents[2] / "sample_data" / "docs"
COMPANIES = ("Northwind", "Contoso", "Fabrikam", "Tailspin", "Litware", "Adventure Works")


def make_corpus(folder: Path, files: int, rows: int) -> dict[str, int]:
    """`files` files under `folder`: 70% CSV, 10% XLSX, 10% Markdown, 10% PDF. Returns the
    count per kind and the cells of the tables."""
    pdfs = sorted(SAMPLE_PDFS.glob("*.pdf"))
    counts = {"csv": 0, "xlsx": 0, "md": 0, "pdf": 0, "cells": 0}
    same = max(1, int(files * SAME_NAME_SHARE))
    for i in range(files):
        kind = ("md", "pdf", "xlsx", *(["csv"] * 7))[i % 10]
        sub = folder / (f"part_{i % 4}" if i >= files - same else "")
        sub.mkdir(parents=True, exist_ok=True)
        stem = "sales_common" if i >= files - same else f"{kind}_{i:05d}"
        if kind == "pdf" and pdfs:
            data = pdfs[i % len(pdfs)].read_bytes() + f"\n% hyrag bench copy {i}\n".encode()
            (sub / f"{stem}.pdf").write_bytes(data)
        elif kind == "md":
            lines = [f"# Notes {i}"]
            for j, company in enumerate(COMPANIES):
                value = 100 + 10 * j + (i % 3)  # the same figure in some files, not in others
                lines.append(f"{company} reported revenue of {value} million USD in 2024.")
            (sub / f"{stem}.md").write_text("\n\n".join(lines) + "\n", encoding="utf-8")
        else:
            df = make_table(rows, seed=i)
            counts["cells"] += df.size
            if kind == "xlsx":
                df.to_excel(sub / f"{stem}.xlsx", index=False, sheet_name="orders")
            else:
                df.to_csv(sub / f"{stem}.csv", index=False)
        counts[kind] += 1
    return counts


def _single(corpus: str, kb: str, q: mp.Queue) -> None:
    import hyrag
    from hyrag.scale.merge import claim_set_digest

    t0 = time.perf_counter()
    with hyrag.open(kb) as k:
        _, errors = k.ingest_many([corpus], keep_going=True)
        seconds = time.perf_counter() - t0
        digest = claim_set_digest(k.store)
        claims = k.store.count("SELECT count(*) FROM claims")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    q.put((seconds, peak, digest, claims, len(errors)))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--files", type=int, default=None,
                        help=f"files in the corpus (default {SMALL_FILES}; --large: "
                        f"{LARGE_FILES})")
    parser.add_argument("--large", action="store_true",
                        help=f"{LARGE_FILES:,} files, ~10 M cells (tens of minutes per run on "
                        "2 cores)")
    parser.add_argument("--workers", type=int, default=2, help="Ray workers (default 2)")
    parser.add_argument("--workdir", default=None, help="keep the corpus and outputs here")
    parser.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    import importlib.util

    from hyrag.scale import job

    if importlib.util.find_spec("ray") is None:  # said before the corpus is made; not imported
        job.require_ray()  # here: Ray reads its environment when imported (job.local_ray_env)
    files = args.files or (LARGE_FILES if args.large else SMALL_FILES)
    rows = LARGE_ROWS if args.large else SMALL_ROWS
    if files < 1 or args.workers < 1:
        raise HyragError("--files and --workers must be >= 1")
    work = Path(args.workdir) if args.workdir else Path(tempfile.mkdtemp(prefix="hyrag-scale-"))
    corpus, kb, dataset = work / "corpus", work / "single_kb", work / "dataset"
    for p in (corpus, kb, dataset):
        shutil.rmtree(p, ignore_errors=True)
    try:
        t0 = time.perf_counter()
        counts = make_corpus(corpus, files, rows)
        made = time.perf_counter() - t0
        q: mp.Queue = mp.get_context("spawn").Queue()
        proc = mp.get_context("spawn").Process(target=_single, args=(str(corpus), str(kb), q))
        proc.start()
        s_seconds, s_peak, s_digest, s_claims, s_errors = q.get()
        proc.join()
        rep = job.run([corpus], dataset, workers=args.workers, keep_going=True)
    finally:
        if not args.workdir:
            shutil.rmtree(work, ignore_errors=True)
    same = s_digest == rep.manifest.claim_digest
    out = {
        "files": files, "corpus": counts, "corpus_seconds": round(made, 1),
        "single": {"seconds": round(s_seconds, 2),
                   "ms_per_file": round(1000 * s_seconds / files, 1),
                   "peak_mb": round(s_peak / 2**20), "claims": s_claims,
                   "failed": s_errors, "digest": s_digest},
        "ray": {**rep.to_dict(), "ms_per_file": round(1000 * rep.seconds / files, 1),
                "task_ms_per_file": round(1000 * rep.task_seconds / files, 1),
                "transfer_share": round(rep.transfer_seconds / max(rep.task_seconds, 1e-9), 4),
                "peak_mb_per_worker": sorted(round(v / 2**20)
                                             for v in rep.peak_rss_bytes.values())},
        "same_digest": same,
    }
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        r = out["ray"]
        print(f"corpus       {files} files ({counts['csv']} CSV, {counts['xlsx']} XLSX, "
              f"{counts['md']} Markdown, {counts['pdf']} PDF), {counts['cells']:,} table cells "
              f"(made in {made:.1f} s)")
        print(f"single-node  {s_seconds:.1f} s, {out['single']['ms_per_file']} ms per file, "
              f"peak {out['single']['peak_mb']} MB, {s_claims:,} claims")
        print(f"ray x{args.workers}       {rep.seconds:.1f} s (+{rep.start_seconds:.1f} s "
              f"starting Ray): ingest {rep.ingest_seconds:.1f} s, links "
              f"{rep.link_seconds:.1f} s, write {rep.write_seconds:.1f} s; "
              f"{r['ms_per_file']} ms per file")
        print(f"             tasks {rep.task_seconds:.1f} s in all ({r['task_ms_per_file']} ms "
              f"per file per worker); transfer {rep.transfer_seconds:.2f} s "
              f"({100 * r['transfer_share']:.1f}% of task time, "
              f"{rep.transfer_bytes / 2**20:.0f} MB of Arrow); "
              f"{len(rep.renamed)} file(s) ingested again for their table names")
        print(f"             peak per worker: "
              f"{', '.join(f'{m} MB' for m in r['peak_mb_per_worker'])}")
        print(f"digest       single {s_digest}, ray {rep.manifest.claim_digest}: "
              f"{'same' if same else 'DIFFERENT'}")
    return 0 if same else 1
