"""CRAG self-correction (seed 003, section 4.3): on a weak or failed verification, rewrite the
query toward the verifier's named gap and try again — at most `crag_retries` (2) times.

Offline the rewrite is deterministic and built from the report and the requirements, never
from the benchmark: the first failing sentence's requirement (entity, attribute, period) is
asked on its own ("What was <attribute> of <entity> in <period>?"), so a failed derivation or
a sentence about the wrong period is replaced by the lookup it needed; when that was tried
already, the question is asked with its period made explicit from the evidence's own period.
A rewrite that repeats an earlier question ends the loop (a deterministic engine would give
the same answer again). Every failed attempt is reported to `on_failure` (the engine passes
the schema-evolution tracker there), so failures are counted per column across sessions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


@dataclass
class Attempt:
    question: str
    verdict: str
    score: float
    failures: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {"question": self.question, "verdict": self.verdict, "score": self.score,
                "failures": list(self.failures)[:5]}


@dataclass
class CragResult:
    answer: object
    attempts: list[Attempt] = field(default_factory=list)
    stop: str = ""

    @property
    def retries(self) -> int:
        return max(len(self.attempts) - 1, 0)


def rewrite(question: str, report: dict, requirements: Sequence[dict],
            tried: Sequence[str] = ()) -> str | None:
    """A question aimed at the verifier's named gap, or None when there is nothing to aim at."""
    failing = [s for s in report.get("sentences", [])
               if s.get("status") in ("unsupported", "contradicted", "partial")]
    cands: list[str] = []
    for r in requirements:
        attr, ent, per = r.get("attribute"), r.get("entity"), r.get("period")
        if not attr:
            continue
        hit = not failing or any(
            (ent.lower() if ent else attr.lower()) in s["sentence"].lower() for s in failing)
        if not hit:
            continue
        q = f"What was {attr}" + (f" of {ent}" if ent else "") + (f" in {per}" if per else "")
        cands.append(q + "?")
    if not cands and requirements:
        r = requirements[0]
        if r.get("attribute"):
            cands.append(f"What was {r['attribute']}"
                         + (f" of {r['entity']}" if r.get("entity") else "") + "?")
    seen = {t.strip().lower() for t in (*tried, question)}
    for q in cands:
        if q.strip().lower() not in seen:
            return q
    return None


def run(question: str, attempt: Callable[[str, list[dict]], object],
        verification: Callable[[object], dict], requirements: Callable[[object], Sequence[dict]],
        *, retries: int = 2, on_failure: Callable[[object, dict], None] | None = None,
        rewrite_fn: Callable[..., str | None] = rewrite) -> CragResult:
    """Ask, verify, and on weak or fail rewrite and retry at most `retries` times.

    `attempt(question, trace)` returns an answer (trace: the attempts so far, for its audit
    record); `verification(answer)` its report dict; `requirements(answer)` its requirement
    dicts. Returns the first passing answer, else the first (the original question's) answer
    with every attempt recorded."""
    trace: list[dict] = []
    res = CragResult(None)
    q = question
    first = None
    for i in range(retries + 1):
        ans = attempt(q, list(trace))
        rep = verification(ans)
        a = Attempt(q, str(rep.get("verdict")), float(rep.get("score") or 0.0),
                    tuple(rep.get("failures") or ()))
        res.attempts.append(a)
        trace.append(a.to_dict())
        if first is None:
            first = ans
        if a.verdict == "pass":
            res.answer, res.stop = ans, ("passed" if i == 0 else f"passed after {i} rewrite(s)")
            return res
        if on_failure is not None:
            on_failure(ans, rep)
        if i == retries:
            res.stop = f"still {a.verdict} after {retries} rewrite(s)"
            break
        nxt = rewrite_fn(question, rep, list(requirements(ans)),
                         tried=[x.question for x in res.attempts])
        if nxt is None:
            res.stop = "no rewrite aims at the gap"
            break
        q = nxt
    res.answer = first
    return res
