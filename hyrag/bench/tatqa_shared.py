"""`hyrag bench tatqa --shared N`: the first N TAT-QA documents' tables and text ingested into
ONE knowledge base, as a user's folder of reports would be, and `kb.ask` timed over their
questions: the first ask (the table models and rankers load), then p50 / p95 of the rest.
Latency only: a TAT-QA question does not name its company, so among N reports it is
ambiguous and its exact match says little (the per-document run, `hyrag bench tatqa`, scores).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path


def run_shared(args: argparse.Namespace, docs: list[dict], settings: object) -> int:
    import hyrag
    from hyrag.bench.tatqa import write_document

    docs = docs[: args.shared]
    with tempfile.TemporaryDirectory(prefix="hyrag-tatqa-shared-") as tmp:
        t0 = time.perf_counter()
        kb = hyrag.open(Path(tmp) / "kb", settings=settings)
        try:
            for i, doc in enumerate(docs):
                table, text = write_document(doc, Path(tmp) / "docs" / f"{i:04d}")
                kb.ingest(table)
                if text is not None:
                    kb.ingest(text)
            ingest_s = time.perf_counter() - t0
            tables = f"{kb.sql('SELECT count(*) FROM kb_tables').rows[0][0]} tables"
            questions = [q["question"] for d in docs for q in d["questions"]][
                : args.limit or 100]
            times, answered = [], 0
            for q in questions:
                t = time.perf_counter()
                a = kb.ask(q, trust=args.trust)
                times.append(time.perf_counter() - t)
                answered += a.decision == "answer"
        finally:
            kb.close()
    rest = sorted(times[1:])
    p95 = rest[max(0, round(0.95 * len(rest)) - 1)] if rest else 0.0
    print(f"one knowledge base of {len(docs)} TAT-QA documents' tables and text "
          f"({tables}; ingested in {ingest_s:.1f} s), answer_core={settings.answer_core}, "
          f"{len(times)} questions, {answered} answered")
    print(f"first ask {times[0]:.2f} s; p50 {1000 * statistics.median(rest):.0f} ms, "
          f"p95 {1000 * p95:.0f} ms over the other {len(rest)} (goal: p50 <= 300 ms)")
    return 0
