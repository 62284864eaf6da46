"""`hyrag bench fit-terms --wtq DIR`: fit which question terms name what a table holds
(`hyrag.answer.link.aboutness`), on WikiTableQuestions' `random-split-1-train.tsv`.

For each training question: its terms (`aboutness.content_terms`) and the words of its own
table (the CSV's cells and header through the one tokenizer, `programs.lexicon.tokens`: what
`aboutness.table_words` reads from a stored table). A term's statistics are the questions
using it and those whose table holds it; `terms.json` ships them. `--tatqa FILE --train
even|odd|all` adds TAT-QA's questions with the words of their own report (its table and its
paragraphs: the check reads a knowledge base's prose beside its tables): report questions
word what they ask otherwise than WikiTableQuestions' do ("financial items", "calculated"),
and fitted on one half of the documents the check is reported on the other (`hyrag bench
tatqa --terms FILE`). `--hold-out N` leaves the tables of the first N training questions out
of the fit, so that `hyrag bench wtq --questions data/random-split-1-train.tsv --limit N` is
measured on tables the fit never read (the check's thresholds are chosen there, then
reported on `random-split-1-dev.tsv`).
"""

from __future__ import annotations

import argparse
import csv
import shlex
import sys
from pathlib import Path

TRAIN = "data/random-split-1-train.tsv"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--wtq", required=True, metavar="DIR",
                   help="the WikiTableQuestions folder (holding data/ and csv/)")
    p.add_argument("--hold-out", type=int, default=0, metavar="N",
                   help="leave out the tables of the first N training questions")
    p.add_argument("--tatqa", default=None, metavar="FILE",
                   help="also TAT-QA's questions (tatqa_dataset_dev.json)")
    p.add_argument("--train", choices=("even", "odd", "all"), default="all",
                   help="which TAT-QA documents (by their position in the file)")
    p.add_argument("--out", default=None, metavar="FILE",
                   help="where to write the statistics (default: the shipped terms.json)")


def table_words(path: Path) -> frozenset[str]:
    """A table's words: every cell's and header's tokens."""
    from hyrag.answer.programs.lexicon import tokens

    csv.field_size_limit(1 << 30)
    with open(path, encoding="utf-8", newline="") as f:
        return frozenset(t for row in csv.reader(f) for cell in row for t in tokens(cell))


def run(args: argparse.Namespace) -> int:
    from hyrag.answer.link.aboutness import TERMS_FILE, fit

    root = Path(args.wtq)
    with open(root / TRAIN, encoding="utf-8", newline="") as f:
        items = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    left_out = {it["context"] for it in items[:args.hold_out]}
    kept = [it for it in items if it["context"] not in left_out]
    words: dict[str, frozenset[str]] = {}
    for it in kept:
        if it["context"] not in words:
            words[it["context"]] = table_words(root / it["context"])
    meta = {"fitted_on": f"WikiTableQuestions {TRAIN}: {len(kept)} questions over "
                         f"{len(words)} tables"
                         + (f" (the tables of its first {args.hold_out} questions left out)"
                            if args.hold_out else ""),
            "command": "hyrag bench fit-terms " + " ".join(shlex.quote(a) for a in sys.argv[3:])}
    pairs = [(it["utterance"], words[it["context"]]) for it in kept]
    if args.tatqa:
        pairs += tatqa_pairs(Path(args.tatqa), args.train)
        meta["fitted_on"] += f"; TAT-QA {Path(args.tatqa).name}, {args.train} documents"
    stats = fit(pairs, meta)
    out = Path(args.out) if args.out else TERMS_FILE
    stats.save(out)
    print(f"wrote {out}: {len(stats.asked)} terms from {stats.questions} questions over "
          f"{len(words)} tables")
    return 0


def tatqa_pairs(path: Path, train: str) -> list[tuple[str, frozenset[str]]]:
    """(question, its report's words) for the TAT-QA documents of the half `train`."""
    import json

    from hyrag.answer.programs.lexicon import tokens

    parity = {"even": 0, "odd": 1}.get(train)
    out = []
    for i, doc in enumerate(json.loads(path.read_text(encoding="utf-8"))):
        if parity is not None and i % 2 != parity:
            continue
        text = " ".join(" ".join(row) for row in doc["table"]["table"])
        text += " " + " ".join(p["text"] for p in doc.get("paragraphs", []))
        words = frozenset(tokens(text))
        out.extend((q["question"], words) for q in doc["questions"])
    return out
