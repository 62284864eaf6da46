"""`hyrag bench diff OLD.json NEW.json`: per-question transitions between two benchmark runs
(`hyrag bench tatqa --out` or `hyrag bench wtq --out`), for diagnosis only.

A change is judged by what it does to a held-out half in aggregate; this report says *which*
questions moved (right -> wrong, abstained -> right, ...) so that a regression can be read,
never which questions to write a rule for.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("old", help="predictions of the first run (--out FILE)")
    p.add_argument("new", help="predictions of the second run")
    p.add_argument("--show", type=int, default=10,
                   help="questions listed per transition (0: counts only)")


def state(r: dict) -> str:
    """right / wrong / abstained, from one prediction record of either benchmark."""
    if r.get("answer") in (None, [], "") or r.get("decision") in ("abstain", "error"):
        return "abstained"
    ok = r.get("em", r.get("correct"))
    return "right" if ok else "wrong"


def transitions(old: list[dict], new: list[dict]) -> dict[tuple[str, str], list[dict]]:
    """(old state, new state) -> the new records that made that move, matched by id."""
    key = "uid" if old and "uid" in old[0] else "id"
    before = {r[key]: r for r in old}
    out: dict[tuple[str, str], list[dict]] = {}
    for r in new:
        o = before.get(r[key])
        if o is not None:
            out.setdefault((state(o), state(r)), []).append(r)
    return out


def run(args: argparse.Namespace) -> int:
    old = json.loads(Path(args.old).read_text(encoding="utf-8"))
    new = json.loads(Path(args.new).read_text(encoding="utf-8"))
    moves = transitions(old, new)
    counts = Counter({k: len(v) for k, v in moves.items()})
    print(f"{len(new)} questions matched; transitions old -> new:")
    for (a, b), n in sorted(counts.items(), key=lambda kv: (kv[0][0] == kv[0][1], -kv[1])):
        print(f"  {a:>9} -> {b:<9} {n}")
        if a != b and args.show:
            for r in moves[(a, b)][:args.show]:
                print(f"      {r.get('question', r.get('utterance', ''))[:90]!r}: "
                      f"{r.get('answer')} (gold {r.get('gold', r.get('target'))})")
    return 0
