"""`hyrag bench tatqa --shared N`: the first N TAT-QA documents' tables and text ingested into
ONE knowledge base, as a user's folder of reports would be, and `kb.ask` timed over their
questions: the first ask (the table models and rankers load), then p50 / p95 of the rest.

A TAT-QA question does not name its company, so among N reports it is ambiguous: asking which
report is meant (clarify) or declaring a gap is a fair reply, and its exact match says little
of the reader. What does say something is *where* an answer's evidence comes from: each
document is written as `docNNNN.csv` / `docNNNN.txt`, so an answer citing another document's
file or table answered from a report the question is not about — the failure an analyst with a
folder of reports meets. The run counts those beside the answers that cite only their own
document (and how many of those are exactly right by TAT-QA's scoring).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import tempfile
import time
from pathlib import Path

# a document's files and the tables ingested from them are named after it (`_name`)
_DOC = re.compile(r"doc(\d{4})")


def _name(i: int) -> str:
    return f"doc{i:04d}"


def cited_documents(ans) -> set[int]:  # hyrag.Answer
    """The documents an answer's evidence comes from: the file of a cell or a sentence, the
    table a query read (named after its file at ingestion)."""
    found: set[int] = set()
    for e in ans.evidence:
        found |= {int(m) for m in _DOC.findall(f"{e.get('source', '')} {e.get('locator', '')}")}
    return found


def run_shared(args: argparse.Namespace, docs: list[dict], settings: object) -> int:
    import hyrag
    from hyrag.bench.tatqa import _num_str, score, write_document

    docs = docs[: args.shared]
    with tempfile.TemporaryDirectory(prefix="hyrag-tatqa-shared-") as tmp:
        t0 = time.perf_counter()
        kb = hyrag.open(Path(tmp) / "kb", settings=settings)
        try:
            for i, doc in enumerate(docs):
                table, text = write_document(doc, Path(tmp) / "docs", _name(i))
                kb.ingest(table)
                if text is not None:
                    kb.ingest(text)
            ingest_s = time.perf_counter() - t0
            tables = f"{kb.sql('SELECT count(*) FROM kb_tables').rows[0][0]} tables"
            questions = [(i, q) for i, d in enumerate(docs) for q in d["questions"]][
                : args.limit or 100]
            times, records = [], []
            for i, q in questions:
                t = time.perf_counter()
                a = kb.ask(q["question"], trust=args.trust)
                times.append(time.perf_counter() - t)
                cited = cited_documents(a)
                pred = [v if isinstance(v, str) else _num_str(v) for v in a.values]
                em = score(q, pred or None, a.scale)[0] if a.decision == "answer" else 0.0
                records.append({"doc": i, "question": q["question"], "decision": a.decision,
                                "route": a.route, "cited": sorted(cited), "answer": pred,
                                "gold": q["answer"], "em": em})
        finally:
            kb.close()
    if args.out:
        Path(args.out).write_text(json.dumps(records, indent=1) + "\n", encoding="utf-8")
    answers = [r for r in records if r["decision"] == "answer"]
    own = [r for r in answers if r["cited"] == [r["doc"]]]
    wrong = sum(bool(r["cited"]) and r["cited"] != [r["doc"]] for r in answers)
    unplaced = sum(not r["cited"] for r in answers)
    right = sum(r["em"] > 0 for r in own)
    rest = sorted(times[1:])
    p95 = rest[max(0, round(0.95 * len(rest)) - 1)] if rest else 0.0
    print(f"one knowledge base of {len(docs)} TAT-QA documents' tables and text "
          f"({tables}; ingested in {ingest_s:.1f} s), answer_core={settings.answer_core}, "
          f"{len(times)} questions, {len(answers)} answered")
    print(f"answers citing only the question's own document: {len(own)} ({right} exactly right); "
          f"citing another document: {wrong}; citing no document's file or table: {unplaced}")
    print(f"first ask {times[0]:.2f} s; p50 {1000 * statistics.median(rest):.0f} ms, "
          f"p95 {1000 * p95:.0f} ms over the other {len(rest)} (goal: p50 <= 300 ms)")
    return 0
