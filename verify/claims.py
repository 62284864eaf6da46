"""Layer (ii) of the ReverseVerifier: claim-by-claim checking, deterministic and offline.

Seed 003 uses an LLM judge with supporting and counter evidence per sentence. Offline, each
sentence of the draft is checked against the evidence it cites (`[n]`; all supporting evidence
when it cites none) and against the counter evidence (claims on the same entity, attribute and
period from other sources) on four agreements:

- value — every number the sentence states is grounded (layer i) by evidence or a derivation;
- entity — when the sentence's supporting evidence names an entity, the sentence names it;
- attribute — at least one content word of the evidence's attribute occurs in the sentence;
- period — a year or period code the sentence states is the period of some supporting evidence,
  of a derivation's operands, or of the question.

A sentence is `supported` (all agree), `partial` (value agrees, a descriptive agreement is
missing), `unsupported` (a number is not grounded, or it cites nothing and states a number no
evidence holds), `contradicted` (counter evidence on the same entity, attribute and period holds
another value and no supporting evidence holds the stated one), or `neutral` (states no number
and cites nothing: a gap, a clarification).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from verify.grounding import TokenCheck
from verify.tokens import codes, date_stated, numbers
from verify.types import Evidence

_CITE = re.compile(r"\[(\d+)\]")
_STOP = {"the", "a", "an", "of", "in", "for", "and", "to", "on", "by", "at", "as", "is", "was",
         "were", "total", "net", "from", "with", "per", "or", "its", "their", "other"}
SENTENCE_SCORE = {"supported": 1.0, "neutral": 1.0, "partial": 0.7, "unsupported": 0.2,
                  "contradicted": 0.0}


@dataclass(frozen=True)
class SentenceCheck:
    index: int
    sentence: str
    status: str  # supported | partial | unsupported | contradicted | neutral
    reasons: tuple[str, ...] = ()
    support: tuple[str, ...] = ()  # refs of the evidence that supports it
    counter: tuple[str, ...] = ()  # refs of the counter evidence that contradicts it

    @property
    def score(self) -> float:
        return SENTENCE_SCORE[self.status]

    def to_dict(self) -> dict[str, object]:
        return {"index": self.index, "sentence": self.sentence, "status": self.status,
                "reasons": list(self.reasons), "support": list(self.support),
                "counter": list(self.counter)}


def _words(s: str | None) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", (s or "").lower()) if w not in _STOP}


def _stem(ws: set[str]) -> set[str]:
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in ws}


def check_sentences(sentences: Sequence[str], evidence: Sequence[Evidence],
                    tokens: Sequence[TokenCheck], *, context: Sequence[str] = ()
                    ) -> list[SentenceCheck]:
    support = [e for e in evidence if e.role == "support"]
    counter = [e for e in evidence if e.role == "counter"]
    by_n = {e.n: e for e in support if e.n is not None}
    ctx_blob = " ".join(context).lower()
    out: list[SentenceCheck] = []
    for i, s in enumerate(sentences):
        cited = [by_n[int(n)] for n in _CITE.findall(s) if int(n) in by_n]
        toks = [t for t in tokens if t.sentence == i]
        nums = [t for t in toks if t.status != "period"]
        if not cited and not nums:
            out.append(SentenceCheck(i, s, "neutral"))
            continue
        reasons: list[str] = []
        bad = [t for t in toks if not t.grounded]
        for t in bad:
            reasons.append(f"number {t.token} is not grounded ({t.status.replace('_', ' ')})")
        pool = cited or [e for e in support if any(t.ref == e.ref for t in nums)] or support
        sw = _stem(_words(s))
        # entity and attribute agreement with the evidence that carries the sentence
        ents = [e for e in pool if e.entity]
        if ents and not any(_stem(_words(e.entity)) & sw for e in ents):
            reasons.append(f"names none of the evidence's entities "
                           f"({', '.join(sorted({e.entity or '' for e in ents}))})")
        attrs = [e for e in pool if e.attribute]
        if attrs and not any(_stem(_words(e.attribute)) & sw for e in attrs):
            reasons.append(f"names none of the evidence's attributes "
                           f"({', '.join(sorted({e.attribute or '' for e in attrs}))})")
        # period agreement: a year or code in the sentence must be a period of the evidence
        periods = " ".join(f"{e.period or ''} {e.text}" for e in support).lower() + " " + ctx_blob
        periods += " " + " ".join(codes(periods)).lower()  # "September 30, 2019" as 2019-09-30
        for y in [t for t in numbers(s) if t.year] + [c for c in codes(s)]:
            y_text = str(int(y.value)) if hasattr(y, "value") else str(y)
            if y_text.lower() not in periods and not date_stated(y_text, periods):
                reasons.append(f"period {y_text} is not a period of the evidence")
        # counter evidence: same entity, attribute and period, another value
        contra: list[str] = []
        stated = [t.value for t in nums if t.grounded]
        for c in counter:
            if c.value is None or not (_stem(_words(c.entity)) & sw):
                continue
            if c.attribute and not (_stem(_words(c.attribute)) & sw):
                continue
            if c.period and c.period.lower() not in s.lower() and not any(
                    (e.period or "") == c.period for e in pool):
                continue
            if not any(abs(abs(v) - abs(c.value)) <= 1e-9 for v in stated) and not any(
                    e.value is not None and abs(e.value - c.value) <= 1e-9 for e in pool):
                contra.append(c.ref)
        if bad:
            status = "unsupported"
        elif contra and not cited:
            status = "contradicted"
            reasons.append("counter evidence holds another value: " + ", ".join(contra))
        elif reasons:
            status = "partial"
        else:
            status = "supported"
        out.append(SentenceCheck(i, s, status, tuple(reasons),
                                 tuple(e.ref for e in pool), tuple(contra)))
    return out
