"""`hyrag bench coldstart`: how long a fresh `hyrag ask` and `hyrag sql` process takes, beside
`python -c pass` and `python -c "import duckdb"` timed in the same run.

Every CLI command is a new process, so its start (imports, opening the store, reading or
building the indexes a question needs) is paid every time. The two references make figures
from a busy or a slow machine comparable: the ratio to them moves far less than the seconds.

Without --kb the sample knowledge base (the files `make demo` ingests) is built once in a
temporary folder with `hyrag ingest`, vectors of the `--tier` given (hashed by default: the
local model takes minutes to embed it; pass `--tier local`, or a --kb made with it, to include
the model's load). One untimed run of each command follows, as a user's first question after
an ingest is (it builds and saves the indexes, `hyrag.kbcache`); it is reported on its own.
Then the commands are run `--repeat` times in rotated order, so a burst of load falls on each
of them alike, and the median, minimum and maximum wall time of each is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hyrag.errors import HyragError

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data"
QUESTION = "How many registered nurses did Riverside Clinic employ in 2024?"
# issue 20's goals, for a quiet machine: a fresh process, median wall time
GOAL_ASK_S, GOAL_SQL_S = 1.0, 0.5
REPEAT = 7


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kb", default=None,
                   help="an existing knowledge base (default: build the sample one)")
    p.add_argument("--repeat", type=int, default=REPEAT,
                   help=f"timed runs of each command (default {REPEAT})")
    p.add_argument("--question", default=QUESTION, help="the question `hyrag ask` is timed on")
    p.add_argument("--tier", default="hashed", choices=["hashed", "static", "local", "remote"],
                   help="embedding tier of the knowledge base built without --kb")
    p.add_argument("--no-bytecode", action="store_true",
                   help="keep PYTHONDONTWRITEBYTECODE if set (time compiling every module)")
    p.add_argument("--out", default=None, help="write the timings as JSON")


def sample_files() -> list[Path]:
    """What `make demo` ingests."""
    return [*sorted(SAMPLE.glob("*.csv")), SAMPLE / "messy", SAMPLE / "conflicts",
            SAMPLE / "alt", *sorted((SAMPLE / "docs").glob("*.pdf")),
            SAMPLE / "docs" / "market_notes.md"]


def hyrag_cmd(*args: str) -> list[str]:
    """`hyrag ...` as this interpreter runs it. `-P`: the current folder is not put first on
    the module path (as it is for `-m`), so the `hyrag` imported is the one the installed
    `hyrag` command would import, not a checkout that happens to be the working directory."""
    return [sys.executable, "-P", "-m", "hyrag.cli", *args]


def commands(kb: Path, question: str) -> dict[str, list[str]]:
    py = sys.executable
    return {
        "python -c pass": [py, "-P", "-c", "pass"],
        "python -c 'import duckdb'": [py, "-P", "-c", "import duckdb"],
        "hyrag sql 'SELECT 1'": hyrag_cmd("sql", "--kb", str(kb), "SELECT 1"),
        "hyrag ask": hyrag_cmd("ask", "--kb", str(kb), question),
    }


def wall(cmd: list[str], env: dict[str, str]) -> float:
    """Seconds from spawning `cmd` to its exit; a failing command is an error, not a time."""
    t = time.perf_counter()
    out = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True, check=False)
    s = time.perf_counter() - t
    if out.returncode != 0:
        raise HyragError(f"{shlex.join(cmd)} failed ({out.returncode}): "
                         f"{out.stderr.strip().splitlines()[-1:] or ''}")
    return s


def build_kb(folder: Path, env: dict[str, str]) -> float:
    t = time.perf_counter()
    out = subprocess.run(hyrag_cmd("ingest", *map(str, sample_files()), "--kb", str(folder)),
                         env=env, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise HyragError(f"building the sample knowledge base failed: {out.stderr.strip()}")
    return time.perf_counter() - t


def measure(cmds: dict[str, list[str]], repeat: int, env: dict[str, str]) -> dict[str, list]:
    """Each command `repeat` times, round after round, each round starting one later."""
    names = list(cmds)
    times: dict[str, list[float]] = {n: [] for n in names}
    for r in range(repeat):
        for n in names[r % len(names):] + names[: r % len(names)]:
            times[n].append(wall(cmds[n], env))
    return times


def summary(times: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    med = {n: statistics.median(ts) for n, ts in times.items()}
    ref_pass, ref_duck = med["python -c pass"], med["python -c 'import duckdb'"]
    return {n: {"median_s": med[n], "min_s": min(ts), "max_s": max(ts),
                "x_pass": med[n] / ref_pass if ref_pass else float("nan"),
                "x_import_duckdb": med[n] / ref_duck if ref_duck else float("nan")}
            for n, ts in times.items()}


def rerun_command(args: argparse.Namespace) -> str:
    parts = ["hyrag", "bench", "coldstart", "--repeat", str(args.repeat)]
    if args.kb:
        parts += ["--kb", str(args.kb)]
    else:
        parts += ["--tier", args.tier]
    if args.no_bytecode:
        parts.append("--no-bytecode")
    if args.question != QUESTION:
        parts += ["--question", args.question]
    return shlex.join(parts)


def run(args: argparse.Namespace) -> int:
    if args.repeat < 1:
        raise HyragError(f"--repeat must be >= 1, got {args.repeat}")
    env = dict(os.environ)
    # An installed package has its bytecode (pip compiles it); with PYTHONDONTWRITEBYTECODE set
    # every process would compile every module again (~0.3-0.6 s of `hyrag ask`), which no
    # user's start pays. The untimed first runs write it; `--no-bytecode` times without it.
    unset_pyc = not args.no_bytecode and env.pop("PYTHONDONTWRITEBYTECODE", None) is not None
    with tempfile.TemporaryDirectory(prefix="hyrag-bench-coldstart-") as tmp:
        built_s = None
        if args.kb:
            kb = Path(args.kb)
            if not kb.is_dir():
                raise HyragError(f"--kb {kb}: no such knowledge-base folder")
        else:
            kb = Path(tmp) / "kb"
            env["HYRAG_EMBED_TIER"] = args.tier
            built_s = build_kb(kb, env)
            print(f"built the sample knowledge base ({args.tier} vectors) in {built_s:.1f} s")
        cmds = commands(kb, args.question)
        first = {n: wall(c, env) for n, c in cmds.items() if n.startswith("hyrag")}
        times = measure(cmds, args.repeat, env)
    rows = summary(times)
    if unset_pyc:
        print("\nPYTHONDONTWRITEBYTECODE was set: unset for these processes, so they run from "
              "cached bytecode as an installed package does (--no-bytecode keeps it)")
    print(f"\nfresh processes, {args.repeat} runs each (wall seconds; x = ratio of medians)")
    print(f"{'command':<28} {'median':>8} {'min':>8} {'max':>8} {'x pass':>8} {'x duckdb':>9}")
    for n, r in rows.items():
        print(f"{n:<28} {r['median_s']:8.3f} {r['min_s']:8.3f} {r['max_s']:8.3f} "
              f"{r['x_pass']:8.1f} {r['x_import_duckdb']:9.2f}")
    for n, s in first.items():
        print(f"first {n} after the ingest (builds and saves the indexes): {s:.3f} s")
    for n, goal in (("hyrag ask", GOAL_ASK_S), ("hyrag sql 'SELECT 1'", GOAL_SQL_S)):
        med = rows[n]["median_s"]
        print(f"goal {n} median <= {goal:.1f} s on a quiet machine: {med:.3f} s "
              f"({'met' if med <= goal else 'not met'} here)")
    print(f"\nrerun: {rerun_command(args)}")
    if args.out:
        Path(args.out).write_text(json.dumps(
            {"question": args.question, "repeat": args.repeat, "kb": args.kb,
             "tier": None if args.kb else args.tier, "build_s": built_s, "first_s": first,
             "times_s": times, "summary": rows, "rerun": rerun_command(args)}, indent=2))
    return 0
