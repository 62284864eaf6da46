"""`--llm` for the benchmarks (`hyrag bench answers --llm`, `hyrag bench tatqa --llm`).

Every question runs twice: offline (the default route, exactly as without `--llm`) and with the
LLM route on (`Settings.llm_steps`, default all steps) against whatever endpoint is configured
(`HYRAG_LLM_BASE_URL`, `HYRAG_LLM_MODEL`, `HYRAG_LLM_API_KEY` else `OPENAI_API_KEY`; timeout,
retries and token limit from the settings, as `LLMClient.from_env` reads them). The report puts
the offline and the LLM columns side by side and adds what the LLM route cost: requests,
prompt and completion tokens (and USD with `HYRAG_LLM_PRICE_IN` / `HYRAG_LLM_PRICE_OUT`) per
step from the client's usage log, and how often each step's output was used or degraded to its
offline twin (from the audit record).
"""

from __future__ import annotations

import argparse
import dataclasses
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from hyrag.errors import HyragError
from hyrag.llm.client import LLMClient, LLMNotConfigured
from hyrag.llm.steps import STEPS


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--llm", action="store_true",
                   help="also run every question with the LLM route on (HYRAG_LLM_BASE_URL, "
                   "HYRAG_LLM_MODEL, HYRAG_LLM_API_KEY or OPENAI_API_KEY) and print the offline "
                   "and LLM columns side by side with the tokens used")
    p.add_argument("--llm-steps", default="all", metavar="STEPS",
                   help=f"with --llm: comma-separated steps ({','.join(STEPS)}) or all "
                   "(default)")


def steps_of(args: argparse.Namespace) -> tuple[str, ...]:
    raw = [s.strip() for s in str(getattr(args, "llm_steps", "all") or "all").split(",")]
    steps = tuple(s for s in raw if s)
    bad = sorted(set(steps) - set(STEPS) - {"all"})
    if bad or not steps:
        raise HyragError(f"--llm-steps: unknown step(s) {bad}; choose from {', '.join(STEPS)} "
                         "or all")
    return steps


def llm_settings(settings: object, args: argparse.Namespace) -> object:
    """`settings` with the LLM steps of `--llm-steps` on (everything else unchanged)."""
    return dataclasses.replace(settings, llm_steps=steps_of(args))  # type: ignore[type-var]


def client(args: argparse.Namespace, settings: object) -> LLMClient | None:
    """The configured client with `--llm`, None without; an unconfigured endpoint is an error
    (a benchmark that silently ran offline twice would print two identical columns)."""
    if not getattr(args, "llm", False):
        return None
    steps_of(args)  # fail before any work on a bad --llm-steps
    try:
        return LLMClient.from_env(settings)
    except LLMNotConfigured as e:
        raise HyragError(f"--llm: {e}") from e


def flags(args: argparse.Namespace) -> str:
    """The --llm part of a benchmark's reproduce command."""
    if not getattr(args, "llm", False):
        return ""
    steps = getattr(args, "llm_steps", "all")
    return " --llm" + (f" --llm-steps {steps}" if steps and steps != "all" else "")


class WithLLM:
    """A knowledge base seen with the LLM route on: the same store, search, SQL and audit, but
    `settings` naming the LLM steps and `llm` the client. For benchmarks that drive an
    `AnswerEngine` directly on a knowledge base opened offline."""

    def __init__(self, kb, llm: LLMClient, settings: object) -> None:
        self._kb = kb
        self.llm = llm
        self.settings = settings

    def __getattr__(self, name: str) -> object:
        return getattr(self._kb, name)


def with_llm(kb, llm: LLMClient, args: argparse.Namespace) -> WithLLM:
    return WithLLM(kb, llm, llm_settings(kb.settings, args))


# -- what the LLM route did, from the audit record -----------------------------------------------
def step_outcomes(events: Iterable[dict]) -> Counter:
    """(step, "llm" | "offline" | "partial") over one answer's audit events, each step counted
    once: its final outcome in that answer (a CRAG retry's attempt replaces the earlier one; a
    text-to-SQL statement that passed grounding but then failed the guard is "offline"). The
    Warrant loop is "partial" when the model decided some requirements and the offline gate
    the rest."""
    last: dict[str, str] = {}
    for e in events:
        kind, p = e.get("kind"), e.get("payload") or {}
        if kind == "llm_step":
            last[str(p.get("step"))] = "llm"
        elif kind == "llm_degraded":
            last[str(p.get("step"))] = "offline"
        elif kind == "llm_warrant":
            last["warrant"] = "llm" if not p.get("degraded") else (
                "partial" if p.get("decided") else "offline")
    return Counter(last.items())


def audit_outcomes(kb, answer) -> Counter:
    try:
        return step_outcomes(kb.audit(answer.audit_id))
    except Exception:  # a report detail; never fails the benchmark
        return Counter()


# -- printing ---------------------------------------------------------------------------------------
def columns(rows: Sequence[tuple[str, str, str]], head: tuple[str, str, str] = (
        "", "offline", "LLM")) -> list[str]:
    """Rows of (label, offline, llm) as aligned text."""
    w0 = max([len(head[0])] + [len(r[0]) for r in rows]) + 2
    w1 = max([len(head[1])] + [len(r[1]) for r in rows]) + 2
    w2 = max([len(head[2])] + [len(r[2]) for r in rows])
    return [f"{a:<{w0}}{b:>{w1}}  {c:>{w2}}" for a, b, c in [head, *rows]]


def usage_lines(llm: LLMClient, outcomes: Counter | None = None) -> list[str]:
    """Tokens and requests per step from the client's log; step use/degradation counts."""
    cfg = llm.config
    u = llm.usage()
    lines = [f"LLM: model {llm.model} at {cfg.base_url or 'the OpenAI API'}; "
             f"{u['requests']} requests ({u['failed']} failed), "
             f"{u['prompt_tokens']:,} prompt + {u['completion_tokens']:,} completion tokens"
             + (f", ${u['cost_usd']:.4f}" if u["cost_usd"] else ", cost 0 (no price set)")]
    per: dict[str, list] = defaultdict(lambda: [0, 0, 0, 0, 0.0])
    for r in llm.log:
        s = per[r.step]
        s[0] += 1
        s[1] += r.outcome != "ok"
        s[2] += r.prompt_tokens
        s[3] += r.completion_tokens
        s[4] += r.latency_ms
    if per:
        lines.append(f"  {'step':<12}{'requests':>9}{'failed':>8}{'prompt tok':>12}"
                     f"{'compl. tok':>12}{'mean s':>8}")
        for step, (n, bad, pt, ct, ms) in sorted(per.items()):
            lines.append(f"  {step:<12}{n:>9}{bad:>8}{pt:>12,}{ct:>12,}{ms / n / 1000:>8.1f}")
    fails = Counter(r.outcome for r in llm.log if r.outcome != "ok")
    if fails:
        lines.append("  failed requests by kind: " + ", ".join(
            f"{k} {v}" for k, v in fails.most_common()))
    if outcomes:
        steps = sorted({s for s, _ in outcomes})
        lines.append("  answers whose step output was used (llm) / degraded to offline "
                     "[/ partly]: " + "; ".join(
            f"{s} {outcomes[(s, 'llm')]}/{outcomes[(s, 'offline')]}"
            + (f"/{outcomes[(s, 'partial')]}" if outcomes[(s, "partial")] else "")
            for s in steps))
    return lines


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def tatqa_lines(results: Sequence[dict], llm: LLMClient, outcomes: Counter | None = None,
                seconds: float | None = None) -> list[str]:
    """TAT-QA's headline figures, offline beside LLM (each result holds its LLM twin under
    "llm": answer, scale, decision, em, f1, grounded, and optionally steps — "step/how" ->
    count, see `step_outcomes` — and seconds)."""
    both = [r for r in results if isinstance(r.get("llm"), dict)]
    L = [r["llm"] for r in both]

    def block(rs: Sequence[dict]) -> tuple[str, str, str, str, str]:
        ans = [r for r in rs if r.get("answer")]
        return (f"{_mean([r['em'] for r in rs]):.3f}", f"{_mean([r['f1'] for r in rs]):.3f}",
                f"{1 - len(ans) / max(len(rs), 1):.3f}",
                f"{_mean([r['em'] for r in ans]):.3f}",
                f"{_mean([float(bool(r.get('grounded'))) for r in ans]):.3f}")

    o, m = block(both), block(L)
    rows = [("EM", o[0], m[0]), ("F1", o[1], m[1]), ("abstention rate", o[2], m[2]),
            ("precision (answered)", o[3], m[3]), ("answers fully grounded", o[4], m[4])]
    by: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(both):
        by[r["answer_type"]].append(i)
    for t, idx in sorted(by.items(), key=lambda x: -len(x[1])):
        rows.append((f"EM type={t} (n={len(idx)})",
                     f"{_mean([both[i]['em'] for i in idx]):.3f}",
                     f"{_mean([L[i]['em'] for i in idx]):.3f}"))
    if outcomes is None:  # per-question "step/how" counts, as `tatqa.py` stores them
        outcomes = Counter()
        for r in L:
            for key, n in (r.get("steps") or {}).items():
                step, _, how = key.partition("/")
                outcomes[(step, how)] += n
    if seconds is None and any("seconds" in r for r in L):
        seconds = sum(float(r.get("seconds") or 0.0) for r in L)
    fixed = sum(1 for r in both if r["llm"]["em"] > r["em"])
    broke = sum(1 for r in both if r["llm"]["em"] < r["em"])
    changed = sum(1 for r in both if (r["llm"].get("answer"), r["llm"].get("scale")) != (
        r.get("answer"), r.get("scale")))
    out = [f"\nLLM route beside offline, {len(both)} questions"
           + (f" ({seconds:.0f} s with the LLM)" if seconds is not None else "")]
    out += columns(rows)
    out.append(f"predictions changed by the LLM route {changed}; EM gained {fixed}, lost {broke}")
    out += usage_lines(llm, outcomes)
    return out


__all__ = ["WithLLM", "add_arguments", "audit_outcomes", "client", "columns", "flags",
           "llm_settings", "step_outcomes", "steps_of", "tatqa_lines", "usage_lines",
           "with_llm"]
