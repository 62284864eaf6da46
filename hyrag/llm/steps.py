"""The LLM steps beside the Warrant loop, each behind the same call as its offline twin.

A step runs on the LLM only when settings name it (`Settings.llm_steps`, e.g. ("warrant",
"synthesis") or ("all",)) and a client is configured; otherwise, and whenever the endpoint or
the model's output fails (a typed `LLMError`, or output that fails the step's check in code),
the offline twin runs and the reason is recorded (`run_step`). What the code checks on the
model's output, per step:

- hypotheses (ECR, seed 003 3.1): ids must be candidates' ids, a value must be a value some
  candidate states (an invented figure is dropped), at least one hypothesis must survive;
- HyDE: a plain sentence, at most 400 characters, appended to the question for the search;
- rerank (listwise, with a confidence): only ids of the candidates, each once; ids the model
  dropped keep their order after the ranked ones; the confidence is clipped to [0, 1];
- text-to-SQL: one statement that must pass literal grounding against the table's real values
  (`ground_literals`) and then the SQL guard (`kb.sql`), like the compiled offline SQL;
- claim extraction from prose: a claim survives only when its entity and its value appear
  verbatim in the sentence it cites;
- synthesis: the model sees only the CommitmentStore (facts, gaps) and the derivations, and the
  draft then goes through the same numeric grounding and verifier as an offline draft — an
  invented number fails verification; a citation to an evidence number that does not exist
  is refused here.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hyrag.llm.client import LLMClient, LLMError, LLMMalformed

STEPS = ("warrant", "hypotheses", "hyde", "rerank", "text2sql", "claims", "synthesis",
         "programs")


def enabled(settings: object, step: str, client: object) -> bool:
    """Whether `step` runs on the LLM: named in `settings.llm_steps` and a client exists."""
    if client is None:
        return False
    steps = tuple(getattr(settings, "llm_steps", ()) or ())
    return step in steps or "all" in steps


def run_step(step: str, llm_fn: Callable[[], object], offline_fn: Callable[[], object],
             record: Callable[[str, dict], None] | None = None) -> object:
    """The LLM twin, else the offline twin with the reason recorded (`llm_degraded`)."""
    try:
        out = llm_fn()
    except LLMError as e:
        if record is not None:
            record("llm_degraded", {"step": step, "kind": e.kind, "reason": str(e)[:300]})
        return offline_fn()
    if record is not None:
        record("llm_step", {"step": step})
    return out


# -- ECR hypothesis generation -------------------------------------------------------------------
class LLMHypothesisGenerator:
    """`ecr.HypothesisGenerator` on the LLM; the offline generator when the model fails."""

    def __init__(self, client: LLMClient, fallback=None, *, k: int = 3,
                 record: Callable[[str, dict], None] | None = None) -> None:
        import ecr

        self.client = client
        self.fallback = fallback or ecr.CompetingValueGenerator(k=k)
        self.k = k
        self.record = record

    def generate(self, question: str, readings: Sequence) -> object:
        return run_step("hypotheses", lambda: self._llm(question, readings),
                        lambda: self.fallback.generate(question, readings), self.record)

    def _llm(self, question: str, readings: Sequence) -> object:
        from ecr.hypotheses import HypothesisSpace
        from ecr.records import Hypothesis

        shown = [{"id": r.claim_id, "reading": r.label or r.key, "value": r.value}
                 for r in readings if r.key is not None]
        data = self.client.chat_json([
            {"role": "system", "content": "Propose mutually exclusive answers to the question "
             "from the candidate claims only. Reply with JSON: {\"hypotheses\": [{\"value\": "
             "number, \"claim_ids\": [ids]}]}."},
            {"role": "user", "content": f"Question: {question}\nCandidates: "
             f"{json.dumps(shown, ensure_ascii=False)}"}], step="hypotheses")
        items = data.get("hypotheses") if isinstance(data, dict) else data
        if not isinstance(items, list):
            raise LLMMalformed("hypotheses: expected a list")
        by_id = {r.claim_id: r for r in readings if r.key is not None}
        values = [r.value for r in by_id.values() if r.value is not None]
        hyps, supports = [], {}
        for it in items[: self.k]:
            if not isinstance(it, dict):
                continue
            try:
                v = float(it.get("value"))
            except (TypeError, ValueError):
                continue
            if not any(math.isclose(v, x, rel_tol=1e-9, abs_tol=0.005) for x in values):
                continue  # a figure no candidate states is not a hypothesis
            ids = [str(i) for i in it.get("claim_ids") or [] if str(i) in by_id]
            ids += [c for c, r in by_id.items() if r.value is not None
                    and math.isclose(r.value, v, rel_tol=1e-9, abs_tol=0.005) and c not in ids]
            if any(h.value is not None and math.isclose(h.value, v, rel_tol=1e-9, abs_tol=0.005)
                   for h in hyps):
                continue
            hid = f"h{len(hyps)}"
            label = by_id[ids[0]].label or by_id[ids[0]].key if ids else ""
            hyps.append(Hypothesis(hid, f"{label} = {v:,.2f}", v, tuple(ids)))
            for c in ids:
                supports.setdefault(c, set()).add(hid)
        if not hyps:
            raise LLMMalformed("hypotheses: none grounded in the candidates")
        return HypothesisSpace(tuple(hyps), {c: frozenset(h) for c, h in supports.items()})


# -- HyDE ----------------------------------------------------------------------------------------
def hyde_offline(parsed) -> str:
    """The hypothetical answer row from the parsed question (DESIGN.md): "<entity> <attribute>
    in <period> was"."""
    ent = " ".join(e.name for e in getattr(parsed, "entities", ()) or ())
    attr = parsed.measure.name if getattr(parsed, "measure", None) else ""
    per = " ".join(p.key for p in getattr(parsed, "periods", ()) or ())
    s = " ".join(x for x in (ent, attr) if x)
    return f"{s}{' in ' + per if per else ''} was".strip() if s else ""


def hyde_llm(client: LLMClient, question: str) -> str:
    res = client.chat([
        {"role": "system", "content": "Write one short sentence that would answer the question "
         "as a report would state it. Invent nothing beyond the question's words; use X for "
         "any number."},
        {"role": "user", "content": question}], step="hyde", max_tokens=80)
    text = " ".join(res.content.split())[:400]
    if not text:
        raise LLMMalformed("HyDE: empty sentence")
    return text


# -- listwise rerank ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Ranking:
    ids: tuple[str, ...]
    confidence: float
    by: str  # "offline" | "llm"


def rerank_offline(candidates: Sequence[dict]) -> Ranking:
    """Keep the fused order; confidence = agreement of the strategies' rankings (share of
    strategies that put the first candidate first) times the margin between the first two
    scores (DESIGN.md "Offline twins")."""
    ids = tuple(str(c["claim_id"]) for c in candidates)
    if not ids:
        return Ranking((), 0.0, "offline")
    ranks = candidates[0].get("ranks") or {}
    agree = (sum(1 for r in ranks.values() if r == 1) / len(ranks)) if ranks else 1.0
    s = [float(c.get("score") or 0.0) for c in candidates[:2]]
    margin = 1.0 if len(s) < 2 or s[0] <= 0 else min(max((s[0] - s[1]) / s[0], 0.0), 1.0)
    return Ranking(ids, round(agree * (0.5 + 0.5 * margin), 4), "offline")


def rerank_llm(client: LLMClient, question: str, candidates: Sequence[dict]) -> Ranking:
    shown = [{"id": str(c["claim_id"]), "text": str(c.get("text") or "")[:200]}
             for c in candidates[:20]]
    data = client.chat_json([
        {"role": "system", "content": "Rank the documents by how directly they answer the "
         "question. Reply with JSON: {\"ranking\": [ids, best first], \"confidence\": number "
         "between 0 and 1}."},
        {"role": "user", "content": f"Question: {question}\nDocuments: "
         f"{json.dumps(shown, ensure_ascii=False)}"}], step="rerank")
    if not isinstance(data, dict) or not isinstance(data.get("ranking"), list):
        raise LLMMalformed("rerank: expected {\"ranking\": [...], \"confidence\": x}")
    known = [str(c["claim_id"]) for c in candidates]
    ranked: list[str] = []
    for i in data["ranking"]:
        i = str(i)
        if i in known and i not in ranked:
            ranked.append(i)
    if not ranked:
        raise LLMMalformed("rerank: no candidate id in the ranking")
    ranked += [i for i in known if i not in ranked]
    try:
        conf = float(data.get("confidence"))
    except (TypeError, ValueError):
        conf = 0.0
    conf = min(max(conf if math.isfinite(conf) else 0.0, 0.0), 1.0)
    return Ranking(tuple(ranked), conf, "llm")


# -- text-to-SQL --------------------------------------------------------------------------------
def text2sql_llm(client: LLMClient, question: str, cat, table: str) -> str:
    """One SQL statement over `table`, its literals grounded in the column's real values; the
    caller runs it through the guard (`kb.sql`)."""
    from hyrag.answer.execute.text2sql import ground_literals

    ti = cat.tables[table]
    cols = {"numeric": list(ti.numeric), "categorical": list(ti.categorical),
            "time": ti.time_col}
    res = client.chat([
        {"role": "system", "content": "Write one DuckDB SELECT statement that answers the "
         "question from the table. Name the result column value. Reply with the SQL only."},
        {"role": "user", "content": f"Table \"{table}\" columns: {json.dumps(cols)}\n"
         f"Question: {question}"}], step="text2sql", max_tokens=200)
    m = re.search(r"```(?:sql)?\s*(.*?)```", res.content, re.S)
    sql = (m.group(1) if m else res.content).strip().rstrip(";")
    if not re.match(r"(?is)^\s*(select|with)\b", sql):
        raise LLMMalformed(f"text-to-SQL: not a SELECT: {sql[:80]!r}")
    try:
        grounded, _ = ground_literals(sql, cat, table)
    except LLMError:
        raise
    except Exception as e:  # unparsable SQL or an unknown literal
        raise LLMMalformed(f"text-to-SQL: {e}") from e
    return grounded


# -- claim extraction from prose ----------------------------------------------------------------
def extract_claims_llm(client: LLMClient, passage: str) -> list[dict]:
    """Claims (entity, attribute, value, period, sentence) the model reads from a passage; a
    claim whose entity or value is not verbatim in its sentence (and the sentence in the
    passage) is dropped."""
    data = client.chat_json([
        {"role": "system", "content": "Extract numeric facts. Reply with JSON: {\"claims\": "
         "[{\"entity\": str, \"attribute\": str, \"value\": str, \"period\": str, "
         "\"sentence\": str}]} using the passage's exact words."},
        {"role": "user", "content": passage}], step="claims")
    items = data.get("claims") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise LLMMalformed("claims: expected a list")
    out = []
    for it in items:
        if not isinstance(it, dict):
            continue
        sent = str(it.get("sentence") or "")
        ent, val = str(it.get("entity") or ""), str(it.get("value") or "")
        if not sent or sent not in passage or not ent or ent not in sent or not val \
                or val not in sent:
            continue
        out.append({"entity": ent, "attribute": str(it.get("attribute") or ""), "value": val,
                    "period": str(it.get("period") or "") or None, "sentence": sent})
    return out


# -- synthesis restricted to the CommitmentStore ------------------------------------------------
_CITE = re.compile(r"\[(\d+)\]")


def synthesize_llm(client: LLMClient, question: str, store, derivations,
                   offline) -> object:
    """A `Draft` whose sentences the model wrote from the committed context only. Evidence,
    numbering and conflicts are the offline draft's (the same facts); a citation of a number
    that is no evidence is refused. Verification runs on it afterwards exactly as on offline."""
    lines = [f"[{e['n']}] {e['text']}" for e in offline.evidence]
    lines += [f"GAP: {g.sentence()}" for g in store.gaps]
    lines += [f"COMPUTED: {d.name} = {d.result}{d.unit} ({d.expression})" for d in derivations]
    res = client.chat([
        {"role": "system", "content": "Answer the question using ONLY the committed facts "
         "below; cite each fact you use as [n]; state every GAP plainly; use no other "
         "knowledge and no number that is not in the facts."},
        {"role": "user", "content": f"Question: {question}\nCommitted facts:\n"
         + "\n".join(lines)}], step="synthesis", max_tokens=300)
    text = " ".join(res.content.split())
    if not text:
        raise LLMMalformed("synthesis: empty answer")
    valid = {e["n"] for e in offline.evidence}
    bad = sorted({int(n) for n in _CITE.findall(text)} - valid)
    if bad:
        raise LLMMalformed(f"synthesis cites evidence that does not exist: {bad}")
    sentences = tuple(s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z\[])", text) if s.strip())
    return offline.__class__(sentences, offline.evidence, offline.conflicts, offline.numbers)


__all__ = ["STEPS", "LLMHypothesisGenerator", "Ranking", "enabled", "extract_claims_llm",
           "hyde_llm", "hyde_offline", "rerank_llm", "rerank_offline", "run_step",
           "synthesize_llm", "text2sql_llm"]
