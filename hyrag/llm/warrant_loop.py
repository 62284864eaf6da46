"""The Warrant gate with function calling (seed 000, sections IV.C and V.B).

The model gets the question, what it needs (the requirements: entity, attribute, period), the
Horizon candidates (previews and scores) and three tools: `retrieve_knowledge(query)`,
`commit_facts(doc_ids, reason)`, `declare_knowledge_gap(query, reason)`. The prompt states the
Result Relevance Rule and the Knowledge Gap Recognition Rule, but the code enforces them
whatever the model does:

- `retrieve_knowledge` resolves the query to one of the question's entity-attribute pairs and
  runs the engine's own warrant search (`WarrantGate.search`: the structural fetch fused with the
  Horizon through the Result Relevance Rule, over the subject's views). A search that finds
  nothing registers the pair as a Knowledge Gap; a second search for a pair already a gap is
  refused by the gate (`KnowledgeGapRefused`, the engine's KGRR) — rephrasing does not help,
  because the pair is resolved from the query, not the wording.
- `commit_facts` commits only ids a `retrieve_knowledge` call returned in this loop; any other
  id (invented, or only seen as a Horizon preview) is refused, as is a claim whose period is
  not the requirement's.
- `declare_knowledge_gap` registers the pair (KGRR) unless facts were committed for it.
- At most `call_limit` tool calls run; the rest are refused and the loop stops.
- The conversation is kept inside the endpoint's context window (`fit_messages`): older tool
  results lose their document texts first (ids, periods and values stay, so they can still be
  committed), and the brief lists only the Horizon candidates that fit. A server answers an
  over-long prompt with HTTP 400, which used to end the loop in the offline fallback.
- Every call, its arguments and its result (or refusal) go to the audit record.

A requirement the model leaves undecided (or every requirement, when the endpoint fails) is
decided by the offline gate, and the audit record says which and why.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field

from hyrag.answer.link.warrant import KnowledgeGapRefused, Verdict, WarrantGate, group_agreeing
from hyrag.answer.parse.catalog import content, norm
from hyrag.answer.parse.requirements import Requirement
from hyrag.llm.client import LLMClient, LLMError

# Bounded arguments (maxLength, maxItems): servers that constrain tool arguments with a
# grammar built from the schema (llama.cpp's chatml-function-calling, which ignores max_tokens
# there) cannot run away inside a string; OpenAI accepts the same schema.
_Q = {"type": "string", "maxLength": 160}
_REASON = {"type": "string", "maxLength": 240}
TOOLS = [
    {"type": "function", "function": {
        "name": "retrieve_knowledge",
        "description": "Precision search of the knowledge base for one entity and one "
                       "attribute. Returns documents with ids, text and metadata.",
        "parameters": {"type": "object", "properties": {
            "query": _Q | {"description": "an entity name followed by an attribute name, as "
                                          "listed in the Requirements"}},
            "required": ["query"]}}},
    {"type": "function", "function": {
        "name": "commit_facts",
        "description": "Commit retrieved documents as evidence, with the reason they match the "
                       "entity and attribute asked.",
        "parameters": {"type": "object", "properties": {
            "doc_ids": {"type": "array", "maxItems": 8,
                        "items": {"type": "string", "maxLength": 64}},
            "reason": _REASON}, "required": ["doc_ids", "reason"]}}},
    {"type": "function", "function": {
        "name": "declare_knowledge_gap",
        "description": "Declare that the knowledge base does not hold this entity and "
                       "attribute.",
        "parameters": {"type": "object", "properties": {"query": _Q, "reason": _REASON},
                       "required": ["query", "reason"]}}},
]

SYSTEM = (
    "You are the Warrant gate of an analytical engine. Decide which documents are evidence for "
    "the question. Use retrieve_knowledge to search for one entity and attribute at a time, "
    "then commit_facts with the doc_ids it returned, or declare_knowledge_gap.\n"
    "Rules: (1) A high similarity score is not a warrant: commit a document only when its "
    "entity AND its attribute are the ones asked. (2) One failed retrieve_knowledge for an "
    "entity and attribute is a confirmed knowledge gap: never search the same entity and "
    "attribute again with other words. (3) Only commit doc_ids that retrieve_knowledge "
    "returned. Stop calling tools when every requirement is committed or declared a gap."
)


# Token counts are estimated, not tokenised: JSON-heavy English runs ~3.5-4 characters per token
# on BPE vocabularies; 3 errs on the safe side (an over-estimate only elides a little early).
CHARS_PER_TOKEN = 3.0
_MESSAGE_OVERHEAD = 8  # role markers and separators of a chat template, per message


def estimate_tokens(messages: list[dict]) -> int:
    """A conservative token estimate of a chat prompt (contents, tool-call arguments)."""
    n = 0
    for m in messages:
        n += _MESSAGE_OVERHEAD + math.ceil(len(str(m.get("content") or "")) / CHARS_PER_TOKEN)
        for tc in m.get("tool_calls") or []:
            n += math.ceil(len(json.dumps(tc, ensure_ascii=False, default=str)) / CHARS_PER_TOKEN)
    return n


def _elide(content: str) -> str:
    """A tool result without its documents' texts: what `commit_facts` needs survives."""
    try:
        out = json.loads(content)
    except (TypeError, ValueError):
        return json.dumps({"elided": "an earlier tool result, trimmed to fit the context"})
    if not isinstance(out, dict):
        return json.dumps({"elided": "an earlier tool result, trimmed to fit the context"})
    docs = out.get("documents")
    if isinstance(docs, list):
        out["documents"] = [{k: d.get(k) for k in ("doc_id", "period", "value")}
                            for d in docs if isinstance(d, dict)]
        out["elided"] = "document texts trimmed to fit the context; the ids can be committed"
    return json.dumps(out, ensure_ascii=False, default=str)


def fit_messages(messages: list[dict], budget: int) -> tuple[list[dict], bool]:
    """The conversation trimmed to `budget` estimated tokens: tool results lose their document
    texts, oldest first, the latest one last (the model is about to act on it). Returns the
    messages and whether they fit; the system prompt, the brief and the calls are never cut."""
    out = list(messages)
    tools = [i for i, m in enumerate(out) if m.get("role") == "tool"]
    for i in tools:
        if estimate_tokens(out) <= budget:
            break
        out[i] = {**out[i], "content": _elide(str(out[i].get("content") or ""))}
    return out, estimate_tokens(out) <= budget


@dataclass
class LoopResult:
    verdicts: dict[str, Verdict]  # requirement id -> verdict, for the requirements decided
    calls: list[dict] = field(default_factory=list)
    stop: str = ""
    degraded: str = ""  # why the offline gate decided (part of) the requirements


class WarrantLoop:
    def __init__(self, client: LLMClient, gate: WarrantGate, *, call_limit: int = 8,
                 cat=None, emit: Callable[[str, dict], None] | None = None,
                 fiscal_year_start_month: int = 1, context_tokens: int = 4096,
                 max_tokens: int = 512) -> None:
        self.client = client
        self.gate = gate
        self.call_limit = call_limit
        self.cat = cat if cat is not None else gate.cat
        self.emit = emit or (lambda kind, payload: None)
        self.fiscal = fiscal_year_start_month
        # what the prompt may take: the window less the reply and the tool schemas
        self.budget = context_tokens - max_tokens - estimate_tokens(
            [{"content": json.dumps(TOOLS)}])
        self.retrieved: dict[str, tuple[Requirement, dict]] = {}  # id -> (req, row)
        self.calls: list[dict] = []
        self._extra: list[Requirement] = []

    # -- the loop ----------------------------------------------------------------------------
    def run(self, question: str, requirements: list[Requirement],
            horizon: list[dict] | None = None) -> LoopResult:
        self.reqs = [r for r in requirements if r.entity]
        messages: list[dict] = [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": self._brief(question, horizon or [])},
        ]
        stop, degraded = "", ""
        while not stop:
            if len(self.calls) >= self.call_limit:
                stop = f"call limit ({self.call_limit}) reached"
                break
            messages, fits = fit_messages(messages, self.budget)
            if not fits:
                stop = f"the conversation no longer fits the context ({self.budget} tokens)"
                break
            try:
                res = self.client.chat(messages, step="warrant", tools=TOOLS)
            except LLMError as e:
                stop, degraded = f"LLM failed ({e.kind})", f"{e.kind}: {e}"
                break
            if not res.tool_calls:
                stop = "the model made no further tool call"
                break
            messages.append(res.message)
            for tc in res.tool_calls:
                if len(self.calls) >= self.call_limit:
                    out = {"refused": f"call limit ({self.call_limit}) reached"}
                    stop = f"call limit ({self.call_limit}) reached"
                else:
                    out = self._dispatch(tc.name, tc.arguments)
                self._audit(tc.name, tc.arguments, out)
                messages.append({"role": "tool", "tool_call_id": tc.id,
                                 "content": json.dumps(out, ensure_ascii=False, default=str)})
        verdicts = self._verdicts()
        undecided = [r.rid for r in self.reqs if r.rid not in verdicts]
        if undecided and not degraded:
            degraded = "the model left " + ", ".join(undecided) + " undecided"
        self.emit("llm_warrant", {"stop": stop, "calls": len(self.calls),
                                  "decided": sorted(verdicts), "offline_decides": undecided,
                                  "degraded": degraded})
        return LoopResult(verdicts, self.calls, stop, degraded)

    def _brief(self, question: str, horizon: list[dict]) -> str:
        """The question, its requirements and as many Horizon previews (of 20) as fit in a
        third of the prompt budget: the rest is left to the tool rounds."""
        need = [{"entity": r.entity, "attribute": r.attribute, "period": r.period}
                for r in self.reqs]
        head = (f"Question: {question}\nRequirements: {json.dumps(need, ensure_ascii=False)}\n"
                f"Horizon candidates (previews; retrieve before committing): ")
        cands: list[dict] = []
        for h in horizon[:20]:
            c = {"doc_id": h["claim_id"], "preview": str(h.get("text") or "")[:160],
                 "score": round(float(h.get("score") or 0.0), 3)}
            text = head + json.dumps([*cands, c], ensure_ascii=False)
            if cands and estimate_tokens([{"content": text}]) > self.budget // 3:
                break
            cands.append(c)
        return head + json.dumps(cands, ensure_ascii=False)

    def _audit(self, name: str, args: dict, out: dict) -> None:
        rec = {"n": len(self.calls) + 1, "tool": name, "arguments": args, "result": out}
        if "refused" not in out or "call limit" not in str(out.get("refused")):
            self.calls.append(rec)
        else:
            self.calls.append(rec | {"over_limit": True})
        self.emit("llm_tool_call", rec)

    # -- tools -------------------------------------------------------------------------------
    def _dispatch(self, name: str, args: dict) -> dict:
        if name == "retrieve_knowledge":
            return self.retrieve_knowledge(str(args.get("query") or ""))
        if name == "commit_facts":
            ids = args.get("doc_ids")
            if isinstance(ids, str):
                ids = [ids]
            if not isinstance(ids, list):
                return {"refused": "doc_ids must be a list of ids"}
            return self.commit_facts([str(i) for i in ids], str(args.get("reason") or ""))
        if name == "declare_knowledge_gap":
            return self.declare_knowledge_gap(str(args.get("query") or ""),
                                              str(args.get("reason") or ""))
        return {"refused": f"unknown tool {name!r}"}

    def retrieve_knowledge(self, query: str) -> dict:
        req = self.resolve(query)
        if req is None:
            return {"refused": "the query names no entity and attribute of this question",
                    "requirements": [r.label() for r in self.reqs]}
        try:
            rows = self.gate.search(req)  # KGRR: raises for a pair already declared a gap
        except KnowledgeGapRefused as e:
            return {"refused": str(e), "rule": "KGRR"}
        rows = [r for r in rows if self.gate._agg_ok(req, r)
                and not str(r.get("text") or "").startswith("[negated]")]
        if not rows:
            reason = ("one warrant search for this entity and attribute found no claim that "
                      "matches both")
            self._register_gap(req, reason)
            return {"requirement": req.label(), "documents": [],
                    "knowledge_gap": f"registered: {reason}"}
        wanted = {r.period for r in self.reqs if r.pair == req.pair and r.period}
        if wanted:  # the periods the question asks for first (a growth needs both ends)
            rows = sorted(rows, key=lambda r: r.get("time_key") not in wanted)
        rows = rows[: self.gate.top_k]
        for r in rows:
            self.retrieved[str(r["claim_id"])] = (req, r)
        return {"requirement": req.label(), "documents": [
            {"doc_id": r["claim_id"], "text": str(r.get("text") or ""),
             "entity": r.get("entity"), "attribute": r.get("attribute"),
             "period": r.get("time_key"), "value": r.get("value_text"),
             "source": r.get("file") or r.get("table_name")} for r in rows]}

    def commit_facts(self, ids: list[str], reason: str) -> dict:
        committed, refused = [], []
        for cid in ids:
            hit = self.retrieved.get(cid)
            if hit is None:
                refused.append({"doc_id": cid, "reason": "never returned by retrieve_knowledge"})
                continue
            req, row = hit
            same = [r for r in self.reqs if r.pair == req.pair]
            req = next((r for r in same if r.period == row.get("time_key")), None) or next(
                (r for r in same if self.gate._by_period(r, [row])[0]), req)
            if req.pair in self.gate.failed:
                refused.append({"doc_id": cid, "reason": "the pair is a declared knowledge gap"})
                continue
            chosen, limit, partial, _ = self.gate._by_period(req, [row])
            if req.period and (partial or not chosen):
                refused.append({"doc_id": cid, "reason": f"period {row.get('time_key')} is "
                                f"not {req.period}"})
                continue
            f = self.gate._fact(req, row)
            self.gate.store.commit(f.__class__(**{**f.__dict__, "warrant_query":
                                                  f"{f.warrant_query} (LLM: {reason[:200]})"}))
            committed.append(cid)
        return {"committed": committed, "refused": refused}

    def declare_knowledge_gap(self, query: str, reason: str) -> dict:
        req = self.resolve(query)
        if req is None:
            return {"refused": "the query names no entity and attribute of this question"}
        if self.gate.store.facts_for(req.rid):
            return {"refused": f"facts are committed for {req.label()}; not a gap"}
        if req.pair in self.gate.failed:
            return {"declared": req.label(), "note": "already a knowledge gap"}
        self._register_gap(req, f"declared by the Warrant model: {reason[:200]}"
                           if reason else "declared by the Warrant model")
        return {"declared": req.label()}

    def _register_gap(self, req: Requirement, reason: str) -> None:
        self.gate._gap(req, reason)  # declares the gap and registers the pair (KGRR)

    # -- resolving a free-text query to a pair -----------------------------------------------
    def resolve(self, query: str) -> Requirement | None:
        """The question's requirement the query is about: its entity (or one of its spellings)
        is named and its attribute's words are (most) named. Rewording cannot dodge KGRR: the
        pair, not the text, is what the gate keys on."""
        q = set(norm(query).split())
        if not q:
            return None
        best, best_score = None, 0.0
        for r in self.reqs:
            ents = [set(norm(e).split()) for e in (r.entity_forms or (r.entity,)) if e]
            if not any(e and e <= q for e in ents):
                continue
            attrs = [content(norm(a)) for a in (r.forms or (r.attribute,))] or [set()]
            score = max((len(a & q) / len(a) if a else 0.0) for a in attrs)
            if r.period and r.period.lower() in query.lower():
                score += 0.01
            if score > best_score:
                best, best_score = r, score
        if best is not None and best_score >= 0.5:
            return best
        # one requirement per entity: the entity alone names it
        named = [r for r in self.reqs if any(
            set(norm(e).split()) <= q for e in (r.entity_forms or (r.entity,)) if e)]
        if named and len({r.pair for r in named}) == 1:
            return named[0] if len(named) == 1 else next(
                (r for r in named if r.period and r.period.lower() in query.lower()), named[0])
        return None

    # -- verdicts ----------------------------------------------------------------------------
    def _verdicts(self) -> dict[str, Verdict]:
        out: dict[str, Verdict] = {}
        store = self.gate.store
        for req in self.reqs:
            facts = store.facts_for(req.rid)
            if facts:
                rows = [self.retrieved[f.claim_id][1] for f in facts
                        if f.claim_id in self.retrieved]
                groups = group_agreeing(rows)
                _, limit, _, periods = self.gate._by_period(req, rows)
                support = "conflicting" if len(groups) > 1 else "direct"
                if support == "conflicting":
                    limit = "sources disagree: " + "; ".join(
                        f"{g[0]['value_text']} ({g[0].get('file') or g[0].get('table_name')})"
                        for g in groups)
                    ids = tuple(g[0]["claim_id"] for g in groups)
                else:
                    ids = tuple(f.claim_id for f in facts)
                out[req.rid] = Verdict(req, support, ids, limit, periods)
            elif any(g.requirement == req.rid for g in store.gaps):
                g = next(g for g in store.gaps if g.requirement == req.rid)
                out[req.rid] = Verdict(req, "absent", (), g.reason)
        return out


__all__ = ["SYSTEM", "TOOLS", "LoopResult", "WarrantLoop"]
