"""The answer engine: question -> route -> Horizon -> Warrant -> (ECR) -> Commitment ->
draft -> numeric grounding -> decision -> structured synthesis -> `Answer` + audit record.

Offline and deterministic (DESIGN.md "Query path"). The Horizon fuses two views: the retrieval
ensemble (`kb.search`, when enabled and available) and the structural fetch the Warrant gate
makes from the parsed question (entity, attribute, period straight from the claims table); the
SQL route computes aggregates with text-to-SQL through the guarded `kb.sql`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from hyrag.answer.answer import Answer
from hyrag.answer.audit import AuditTrail
from hyrag.answer.decide import guards
from hyrag.answer.decide.decision import decide
from hyrag.answer.execute.tools import (
    Operand,
    ToolError,
    cagr,
    difference,
    growth,
    ratio,
    years_between,
)
from hyrag.answer.link import aboutness
from hyrag.answer.link.commitment import CommitmentStore, Gap
from hyrag.answer.link.warrant import KnowledgeGapRefused, Verdict, WarrantGate
from hyrag.answer.parse import requirements as reqs_mod
from hyrag.answer.parse.catalog import load_catalog, norm
from hyrag.answer.parse.parser import ParsedQuestion, parse
from hyrag.answer.parse.router import Route, choose_route, parse_trust
from hyrag.answer.synthesize.synthesis import brief, draft, number_facts
from hyrag.answer.verify.grounding import check

Event = dict


class AnswerEngine:
    def __init__(self, kb) -> None:  # hyrag.kb.KnowledgeBase
        self.kb = kb
        self.settings = kb.settings
        # what the program route and the span programs read, per question, within one `ask`
        # (`_program_finds`): the fallback attempt reuses it rather than reading again
        self._program_memo: dict[str, object | None] = {}
        self._span_memo: dict[str, object | None] = {}

    # -- public ------------------------------------------------------------------------------
    def ask(self, question: str, trust: str = "balanced", as_of: object = None, *,
            on_event: Callable[[Event], None] | None = None) -> Answer:
        """Answer, verify, and on a weak or failed verification rewrite toward the verifier's
        named gap and retry at most `crag_retries` times (CRAG, `hyrag.answer.verify.crag`); each
        failure is counted per column by the schema-evolution tracker."""
        from hyrag.answer.verify import crag
        from hyrag.answer.verify.grounding import failing_columns
        from hyrag.answer.verify.tracker import SchemaEvolutionTracker

        tracker = SchemaEvolutionTracker(self.kb.store, self.settings.tracker_threshold)
        self._program_memo.clear()
        self._span_memo.clear()

        table_answers: dict[int, dict | None] = {}

        def attempt(q: str, trace: list[dict]) -> Answer:
            a = self._ask_once(q, trust, as_of, on_event=on_event, crag_trace=trace,
                               original=question)
            table_answers[id(a)] = self.last_table_answer
            return a

        def on_failure(a: Answer, rep: dict) -> None:  # the last attempt's committed facts
            for table, col, why in failing_columns(rep, self._last_facts):
                tracker.record(table, col, why)

        from hyrag.answer.readers import tablespans
        from hyrag.answer.readers.tableqa_read import WHICH_YEAR

        # a structure or "which year" question rewritten into a figure lookup would answer
        # another question; so would a why-question or one asking for a change, a difference,
        # a ratio or a share (the rewrite "What was X in 2019?" drops what was asked of X)
        retries = 0 if tablespans.owns(question) or WHICH_YEAR.search(question) or \
            guards.asks_for_explanation(question) or guards.asks_for_comparison(question) \
            else self.settings.crag_retries
        first = self._program_first(question, trust, as_of, on_event)
        if first is not None:
            return first
        res = crag.run(question, attempt, lambda a: a.verification,
                       lambda a: a.requirements, retries=retries,
                       on_failure=on_failure)
        ans = res.answer
        # the table reading of the answer returned (the first when no rewrite passed), not
        # of the last attempt
        self.last_table_answer = table_answers.get(id(ans))
        unmapped = ans.decision == "clarify" and ans.parsed is not None and \
            ans.parsed.measure is None and ans.parsed.count_table is None
        if self.settings.answer_core == "fallback" and (
                ans.decision in ("abstain", "needs_verification") or unmapped):
            # no route answered: the program route may, as one more attempt with its own
            # audit record; it never replaces an answer another route gave. A clarification
            # asked only because the parser mapped no measure ("the total capital leases":
            # a line of a table, not a measure of its catalog) is no answer either; one asked
            # because the question is ambiguous (several tables, no period) stands
            kept = self.last_table_answer
            alt = None
            if self._program_finds(question):
                alt = self._ask_once(question, trust, as_of, on_event=on_event,
                                     original=question, core="programs")
            prog = (alt.program or {}) if alt is not None else {}
            # a program's answer; or, where the engine had abstained, a sentence the span
            # programs' quote tier offers for verification (a cited lead, no value stated)
            if alt is not None and prog.get("kind") == "program" and (alt.decision == "answer" or (
                    ans.decision == "abstain" and alt.decision == "needs_verification"
                    and prog.get("operation") == "span")):
                from dataclasses import replace

                ans = replace(alt, verification={**alt.verification, "fallback": {
                    "from": ans.decision, "text": ans.text, "audit_id": ans.audit_id}})
            else:  # the table reading stays the answer's, not the unused attempt's
                self.last_table_answer = kept
        if len(res.attempts) > 1:
            from dataclasses import replace

            ans = replace(ans, verification={**ans.verification, "crag": {
                "attempts": [a.to_dict() for a in res.attempts], "stop": res.stop}})
        return ans

    def _ask_once(self, question: str, trust: str = "balanced", as_of: object = None, *,
                  on_event: Callable[[Event], None] | None = None,
                  crag_trace: list[dict] | None = None, original: str = "",
                  core: str = "") -> Answer:
        t0 = time.perf_counter()
        mode = parse_trust(trust)
        # issue 8: the trail continues the request the PEP opened (verdicts already written)
        trail = self.kb.audit_trail() if hasattr(self.kb, "audit_trail") else AuditTrail()
        emit = _emitter(trail, on_event)
        self._emit = emit  # the LLM steps record their calls and fallbacks here (issue 9)
        store = self.kb.store
        reader = getattr(self.kb, "reader", store)  # the subject's views (issue 8)
        cat = load_catalog(reader)
        parsed = parse(question, cat,
                       fiscal_year_start_month=self.settings.fiscal_year_start_month)
        route = choose_route(parsed)
        emit("parse", {"question": question, "trust": mode.value, "as_of": as_of,
                       "parsed": _parsed_summary(parsed)})
        emit("route", {"route": route.value})
        # The retrieval ensemble runs up front when the question maps onto no structure
        # (SEMANTIC, RELATIONAL); otherwise lazily, the first time the structural fetch finds
        # nothing for a requirement — the Horizon then widens recall before a gap is declared.
        eager = route in (Route.SEMANTIC, Route.RELATIONAL) and not parsed.clarify
        horizon = self._horizon(question, route, emit) if eager else []
        lazy = None if eager or parsed.clarify else (
            lambda: self._horizon(question, route, emit))
        requirements = [] if parsed.clarify else reqs_mod.build(parsed, route, cat)
        emit("requirements", {"requirements": [r.to_dict() for r in requirements]})
        commitments = CommitmentStore()
        gate = WarrantGate(reader.con, cat, commitments, top_k=self.settings.warrant_top_k,
                           horizon=horizon, sql_runner=self._sql_runner(parsed, cat),
                           exploratory=mode.value == "exploratory", horizon_fn=lazy,
                           as_of=as_of)
        verdicts: list[Verdict] = []
        llm_verdicts = self._llm_warrant(question, requirements, gate, horizon, cat)
        for r in requirements:
            try:
                v = llm_verdicts.get(r.rid) or gate.evaluate(r)
            except KnowledgeGapRefused as e:  # KGRR: the pair is a gap already; no new search
                v = Verdict(r, "absent", (), str(e))
            verdicts.append(v)
            for f in commitments.facts_for(r.rid):
                emit("commit", {"requirement": r.rid, "claim_id": f.claim_id, "source": f.source,
                                "locator": f.locator, "score": f.score,
                                "warrant_query": f.warrant_query})
            for g in commitments.gaps:
                if g.requirement == r.rid:
                    emit("gap", g.to_dict())
        emit("warrant", {"verdicts": [v.to_dict() for v in verdicts],
                         "searches": gate.log.searches, "rejected": gate.log.rejected[:50]})
        self.last_table_answer = None
        direct = any(v.support in ("direct", "conflicting") for v in verdicts)
        from dataclasses import replace as _replace

        from hyrag.answer import readers

        # the answer core (settings.answer_core): the program route over the table model,
        # the reader chain (answer/readers.py), or the program route first
        core = core or self.settings.answer_core
        reading = None

        def program() -> object | None:
            memo = self._program_memo
            found = memo[question] if question in memo else self._program_answer(
                question, reader, emit)
            if found is not None:
                emit("program", found.program)
            return found

        if core in ("programs", "hybrid"):
            found = program()
            if found is not None or core == "programs":
                reading = readers.Reading(found)
        if reading is None:
            from hyrag.answer.readers.scope import readers_con

            # without tables beyond a report's size: those are the SQL route's (answer/scope.py)
            reading = readers.read(question, readers_con(reader), parsed=parsed, direct=direct,
                                   facts=commitments.facts)
        if core in ("programs", "hybrid") and self.settings.program_spans and \
                reading.result is None and not reading.structure and (
                    not direct or guards.asks_for_explanation(question)):
            # the last resort: a clause of a sentence, quoted and cited (programs/spans.py),
            # only where no table program, no reader and no direct evidence answered (or the
            # question asks for an explanation, which figures do not give)
            memo = self._span_memo
            quoted = memo[question] if question in memo else self._span_answer(question, reader)
            if quoted is not None:
                reading = _replace(reading, result=quoted, declined=False)
                emit("program", quoted.program)
        tq, spans_owned, year_q = reading.result, reading.structure, reading.asks_period
        if tq is not None:
            requirements, verdicts, commitments = tq.requirements, tq.verdicts, tq.store
            parsed = _replace(parsed, clarify=(), ranking=None)
            self.last_table_answer = {"operation": tq.operation, "value": tq.answer,
                                      "scale": tq.scale, "residue": tq.residue}
            emit("tableqa", {"operation": tq.operation, "requirements": [
                r.to_dict() for r in requirements]})
        evidence, numbers = number_facts(commitments)
        derivations = self._derive(parsed, verdicts, commitments, numbers)
        if self.last_table_answer is not None:
            derivations = [_renumber(d, numbers) for d in tq.derivations]
        ecr_out = self._ecr(question, route, verdicts, commitments, emit)
        clarify_reason = "; ".join(parsed.clarify)
        several = [v for v in verdicts if v.support == "partial" and not v.requirement.period
                   and "several periods" in v.limit]
        if several and not clarify_reason:
            clarify_reason = f"{several[0].requirement.label()} — {several[0].limit}"
        dr = draft(verdicts, commitments, derivations, clarify_reason=clarify_reason,
                   ranking=bool(parsed.group_by), question=question)
        if self.last_table_answer and self.last_table_answer["operation"] in ("argmax",
                                                                              "argmin"):
            word = "largest" if self.last_table_answer["operation"] == "argmax" else "smallest"
            dr = _replace(dr, sentences=(*dr.sentences, f"{requirements[0].entity} was {word} "
                                         f"in {self.last_table_answer['value']}."))
        if self.last_table_answer is not None and getattr(tq, "sentence", "") and not (
                dr.restates and not isinstance(tq.answer, list)
                and str(tq.answer) in dr.sentences[0]):
            # the reader's "The answer is A", unless A is already stated in the question's
            # words ("Beta was released in 1985 [1].")
            dr = _replace(dr, sentences=(*dr.sentences, tq.sentence))
        dr = self._llm_synthesis(question, dr, commitments, derivations)
        text = " ".join(dr.sentences)
        periods = [r.period or "" for r in requirements] + [
            p for v in verdicts for p in v.periods_available] + [dr.restates]
        verification = check(text, commitments.facts, derivations, periods,
                             extra=[float(parsed.ranking[1])] if parsed.ranking else [],
                             numbers=dr.numbers, con=reader.con)
        self._last_facts = commitments.facts
        if crag_trace:
            emit("crag", {"original_question": original, "attempts": crag_trace})
        decision, reason = decide(verdicts, parsed.clarify or (
            (clarify_reason,) if several else ()), verification, mode.value)
        if mode.value == "strict" and decision == "answer" and any(
                v.limit for v in verdicts):
            decision, reason = "needs_verification", "strict: a requirement has a stated limit"
        verification.update(self._confidence(parsed, verdicts, commitments, verification,
                                             mode.value))
        emit("verification", verification)
        no_answer = None if decision != "answer" else guards.no_answer(
            question, parsed, structure=spans_owned, asks_period=year_q, read=tq is not None,
            facts=commitments.facts, derivations=derivations, n_requirements=len(verdicts),
            max_unexplained=self.settings.answer_max_unexplained,
            quoted=tq is not None and tq.operation in ("prose_span", "program:span"))
        # a table program's read figure, not a span program's quote: a quote answers "why did
        # revenue decrease?" with the sentence that says why, and computes no figure to miss
        if decision == "answer" and not no_answer and tq is not None and str(
                tq.operation).startswith("program:") and tq.operation != "program:span":
            no_answer = guards.uncomputed(parsed, commitments.facts, derivations)
        if decision == "answer" and reading.declined and not no_answer:
            no_answer = ("the line-item reader declined the question (its figures are not one "
                         "line's, or not what is asked), and the figures found directly do not "
                         "answer it")
        # only where words went unexplained (the reader's residue, else the parse's): an
        # unexplained word may be filler, but not when it is the measure asked for
        residue = (self.last_table_answer or {}).get("residue") if tq is not None else len(
            parsed.residual)
        unheld = guards.unheld_measure(question, parsed, commitments.facts, derivations) \
            if decision == "answer" and not no_answer and residue else None
        if unheld:
            # the issue-22 class: a figure of the one measure present given for another
            no_answer = (f"the knowledge base holds no {unheld}: the figures found are of "
                         + ", ".join(sorted({f.attribute for f in commitments.facts}))
                         + ", which the question does not ask for")
            gap = commitments.declare_gap(Gap(
                requirements[0].entity if requirements else None, unheld,
                requirements[0].period if requirements else None, no_answer))
            text = gap.sentence()  # not the other measure's figure
        # the question as the parser read it ("Wset" -> "West"): a misspelt name it placed
        # is held
        off = aboutness.check(_corrected(question, parsed.corrections), commitments.facts,
                              reader.con, self.settings, cat.vocab) \
            if decision == "answer" and not no_answer else None
        if off:
            no_answer = off[1]  # a Knowledge Gap: what the question names is not held
            gap = commitments.declare_gap(Gap(None, ", ".join(off[0]), None, no_answer))
            text = gap.sentence()
        tentative = (getattr(tq, "program", None) or {}).get("tentative")
        if tentative is not None and decision == "answer" and not no_answer:
            # the span programs' quote tier (programs/spans.py): the sentence likely holds
            # the answer's clause, but the clause is not sure enough to state as the answer
            decision, reason = "needs_verification", (
                f"the cited sentence likely answers the question (confidence {tentative:.2f}) "
                "but the clause quoted from it is not sure enough to state as the answer")
        if no_answer:
            decision, reason = "abstain", no_answer
        elif decision == "answer" and (rivals := self._rivals(
                _corrected(question, parsed.corrections), commitments.facts, reader, emit)):
            # another document answers the question as well, with another figure: asking
            # which is meant, not answering with whichever was committed (decide/sources.py)
            from hyrag.answer.decide.sources import side_by_side

            shown = side_by_side(rivals, commitments.facts)
            for f in shown.added:  # each figure shown is cited: evidence, numbered, verified
                commitments.commit(f)
            evidence, numbers = number_facts(commitments)
            dr = _replace(dr, evidence=evidence, numbers=numbers)
            decision = "clarify"
            reason = text = shown.sentence(numbers)
            verification.update(check(text, commitments.facts, derivations, periods,
                                      numbers=numbers, con=reader.con))
        elif decision == "answer" and verification["confidence"] < verification["threshold"]:
            decision = "abstain"
            reason = (f"confidence {verification['confidence']:.2f} is below the "
                      f"{mode.value} threshold {verification['threshold']:.2f}; it would need "
                      + _needs(verdicts, commitments))
        for s in dr.sentences:
            emit("sentence", {"text": s}, audit=False)
        md = brief(question, dr, verdicts, commitments, derivations, decision, reason,
                   route.value, verification, ecr_out)
        latency = round((time.perf_counter() - t0) * 1000, 2)
        from hyrag.answer.synthesize.contextpack import context_pack

        emit("context_pack", context_pack(commitments.facts, getattr(self.kb, "_grant", None),
                                          reader))
        from hyrag.answer.synthesize.values import answer_values

        scored = answer_values(original or question, decision=decision, reading=tq,
                               derivations=derivations, verdicts=verdicts, store=commitments,
                               ranking=bool(parsed.group_by))
        emit("answer", {"decision": decision, "reason": reason, "text": text,
                        "evidence": list(dr.evidence), "values": list(scored.values),
                        "scale": scored.scale, "program": scored.program,
                        "latency_ms": latency})
        written = trail.write(store)
        return Answer(
            text=text, brief=md, decision=decision, route=route.value, trust=mode.value,
            requirements=tuple(v.to_dict() for v in verdicts), evidence=dr.evidence,
            gaps=tuple({k: g.to_dict()[k] for k in ("entity", "attribute", "period", "reason")}
                       for g in commitments.gaps),
            conflicts=dr.conflicts, derivations=tuple(d.to_dict() for d in derivations),
            verification=verification, ecr=ecr_out,
            audit_id=trail.request_id if written else "", latency_ms=latency,
            values=scored.values, scale=scored.scale, program=scored.program,
            question=question, parsed=parsed,
        )

    # -- stages ------------------------------------------------------------------------------
    def _confidence(self, parsed: ParsedQuestion, verdicts: list[Verdict], store,
                    verification: dict, mode: str) -> dict:
        """Calibrated abstention (verify/abstain.py): results, top similarity, a reranker
        confidence (offline: the share of direct requirements times the verifier's score) and
        a query-complexity penalty."""
        import verify

        facts = [f for f in store.facts]
        direct = sum(v.support == "direct" for v in verdicts) / max(len(verdicts), 1)
        ta = getattr(self, "last_table_answer", None)
        unexplained = (ta["residue"] if ta else
                       len(parsed.residual) if parsed.measure is None else 0)
        # an amount read without its scale or unit is less certain than one that states it
        stated = all(f.scale or f.unit or "%" in (f.value_text or "") for f in facts
                     if f.kind != "sql") if facts else False
        sig = verify.Signals(
            n_results=len(facts), top_similarity=max((f.score for f in facts), default=0.0),
            rerank_confidence=direct * float(verification.get("score") or 0.0)
            * (1.0 if stated else 0.7),
            complexity=verify.complexity(len(verdicts), bool(parsed.operation or ta and ta[
                "operation"] not in ("lookup", "each")), len(parsed.periods), unexplained))
        threshold = getattr(self.settings, f"abstain_threshold_{mode}")
        return {"confidence": verify.confidence(sig), "threshold": threshold,
                "signals": sig.to_dict()}

    def _rivals(self, question: str, facts, reader, emit) -> tuple:
        """Claims of other documents that answer the question as well as the committed
        evidence, with other figures (`decide.sources.rivals`); () in a knowledge base of one
        document, or with the check off (`Settings.answer_rival_documents`)."""
        from hyrag.answer.decide import sources

        if not self.settings.answer_rival_documents or sources.documents_held(reader.con) < 2:
            return ()
        found = sources.rivals(question, facts, reader.con,
                               limit=self.settings.answer_rival_candidates)
        if found:
            emit("rivals", {"documents": sorted({r.document for r in found}),
                            "claims": [r.claim_id for r in found][:20]})
        return found

    def _horizon(self, question: str, route: Route, emit) -> list[dict]:
        if not getattr(self.settings, "answer_use_search", True) or not hasattr(self.kb, "search"):
            emit("horizon", {"strategy": "structural only", "count": 0})
            return []
        try:
            res = self.kb.search(self._hyde(question), k=self.settings.horizon_max)
        except Exception as e:  # retrieval is optional; the structural path stays
            emit("horizon", {"strategy": "structural only", "count": 0, "error": str(e)})
            return []
        ids = [c.claim_id for c in res.claims if not str(c.claim_id).startswith("summary:")]
        scores = {c.claim_id: max(c.scores.values(), default=0.0) for c in res.claims}
        rows: list[dict] = []
        if ids:
            from hyrag.answer.link.warrant import claim_rows

            rows = claim_rows(getattr(self.kb, "reader", self.kb.store).con,
                              f"claim_id IN ({','.join('?' * len(ids))})", ids)
            for r in rows:
                r["score"] = scores.get(r["claim_id"], 0.0)
            rows = self._rerank(question, rows)
        emit("horizon", {"strategy": res.best_strategy, "count": len(rows),
                         "candidates": [{"claim_id": r["claim_id"], "entity": r["entity"],
                                         "attribute": r["attribute"], "score": r["score"]}
                                        for r in rows]})
        return rows

    def _sql_runner(self, parsed: ParsedQuestion, cat):
        def run(req):
            table = req.sql_table
            ti = cat.tables[table]
            measure = None
            if parsed.measure and not parsed.count_table:
                measure = next((c for c in ti.numeric if norm(c) == parsed.measure.name), None)
                if measure is None:
                    from hyrag.errors import HyragError

                    raise HyragError(f"{table} has no numeric column '{parsed.measure.name}'")
            agg = "count" if measure is None else (req.agg or "total")
            filters = list(req.filters)
            if req.entity:
                for e in parsed.entities:
                    if e.name == req.entity:
                        for t, c in e.columns:
                            if t == table and (c, e.name) not in filters:
                                filters.append((c, e.name))
            group = None
            if parsed.group_by:
                group = next((c for c in ti.categorical if norm(c) == parsed.group_by), None)
            order, limit = (parsed.ranking or (None, None))
            # here, not at the top: text2sql imports sqlglot (~0.1-0.3 s), which a question
            # answered from the claims never needs (issue 20)
            from hyrag.answer.execute.text2sql import compile_query

            compiled = compile_query(cat, table, agg=agg, measure=measure, filters=filters,
                                     period=req.interval, period_key=req.period, group_by=group,
                                     order=order, limit=limit if group else None)
            llm_sql = self._text2sql(parsed.question, cat, table)
            if llm_sql is not None:  # the model's SQL, grounded, through the same guard
                from dataclasses import replace as _replace

                from hyrag.errors import HyragError as HyragErr

                try:
                    return _replace(compiled, sql=llm_sql), self.kb.sql(llm_sql)
                except HyragErr as e:
                    self._emit("llm_degraded", {"step": "text2sql", "kind": "sql",
                                                "reason": str(e)[:300]})
            result = self.kb.sql(compiled.sql)
            return compiled, result
        return run

    # -- the LLM route (issue 9): each step only when settings name it and a client exists;
    # every failure falls back to the offline twin with the reason in the audit record ------
    def _program_answer(self, question: str, reader, emit=None) -> object | None:
        """The program route's committed reading of `question` (`programs.route.answer`), or
        None below its fitted confidence."""
        from hyrag.answer.programs import route as programs

        cut = self.settings.program_min_confidence
        return programs.answer(question, reader.con, weights=self.settings.program_weights,
                               min_confidence=None if cut < 0 else cut,
                               proposer=self._program_proposer(),
                               prior=self.settings.program_llm_prior, emit=emit)

    def _span_answer(self, question: str, reader) -> object | None:
        """The span programs' quoted clause (`programs.spans.answer`), or None."""
        from hyrag.answer.programs import spans

        cut = self.settings.program_span_min_confidence
        qcut = self.settings.program_span_quote_min_confidence
        return spans.answer(question, reader.con, weights=self.settings.program_span_weights,
                            min_confidence=None if cut < 0 else cut,
                            quote_min_confidence=None if qcut < 0 else qcut)

    def _program_first(self, question: str, trust: str, as_of: object,
                       on_event: Callable[[Event], None] | None) -> Answer | None:
        """With answer_core "fallback", the program route's answer where its program reads a
        table of a kind `Settings.program_first_kinds` names and passes that kind's fitted
        threshold (and the attempt verifies and decides to answer); else None, and the
        engine goes on as usual (readers first, the program route where they abstain).
        What the route read is kept for that fallback attempt (`_program_memo`)."""
        kinds = self.settings.program_first_kinds
        if self.settings.answer_core != "fallback" or not kinds or \
                self._llm_on("programs") is not None:
            return None
        reader = getattr(self.kb, "reader", self.kb.store)
        found = self._program_memo.get(question)
        if question not in self._program_memo:
            found = self._program_memo[question] = self._program_answer(question, reader)
        if found is None or found.program.get("table_kind") not in kinds:
            return None
        alt = self._ask_once(question, trust, as_of, on_event=on_event, original=question,
                             core="programs")
        if alt.decision != "answer" or (alt.program or {}).get("kind") != "program":
            self.last_table_answer = None
            return None
        from dataclasses import replace

        return replace(alt, verification={**alt.verification, "program_first": {
            "table_kind": found.program.get("table_kind")}})

    def _program_finds(self, question: str) -> bool:
        """Whether the fallback attempt can answer at all: the program route (or, without
        one, the span programs) reads something for `question`. Asked first so that an
        abstention nothing would replace does not pay for a second whole attempt (parse,
        Warrant gate, drafting); what it read is kept for that attempt (`_program_memo`).
        With the LLM's proposals on, each attempt asks the model itself (its calls are
        audited with that attempt), so this always says yes."""
        if self._llm_on("programs") is not None:
            return True
        reader = getattr(self.kb, "reader", self.kb.store)
        if question in self._program_memo:  # read already (`_program_first`)
            found = self._program_memo[question]
        else:
            found = self._program_memo[question] = self._program_answer(question, reader)
        if found is not None:
            return True
        if not self.settings.program_spans:
            return False
        quoted = self._span_memo[question] = self._span_answer(question, reader)
        return quoted is not None

    def _program_proposer(self) -> Callable[[str, dict], tuple[list, list[str]]] | None:
        """The LLM route's program proposals (`programs.propose`) when the step "programs" is
        on; an unreachable or unreadable model degrades to none, recorded."""
        client = self._llm_on("programs")
        if client is None:
            return None
        from hyrag.answer.programs.propose import propose_llm
        from hyrag.llm.steps import run_step

        def proposer(question: str, tabs: dict) -> tuple[list, list[str]]:
            return run_step("programs", lambda: propose_llm(client, question, tabs),
                            lambda: ([], []), self._emit)

        return proposer

    def _llm_on(self, step: str):
        from hyrag.llm.steps import enabled

        if not getattr(self.settings, "llm_steps", ()):
            return None
        client = getattr(self.kb, "llm", None)
        return client if enabled(self.settings, step, client) else None

    def _llm_warrant(self, question: str, requirements, gate, horizon, cat) -> dict:
        client = self._llm_on("warrant")
        if client is None or not requirements:
            return {}
        from hyrag.llm.warrant_loop import WarrantLoop

        loop = WarrantLoop(client, gate, call_limit=self.settings.llm_call_limit, cat=cat,
                           emit=self._emit, context_tokens=self.settings.llm_context_tokens,
                           max_tokens=self.settings.llm_max_tokens)
        return loop.run(question, list(requirements), horizon).verdicts

    def _llm_synthesis(self, question: str, dr, store, derivations):
        client = self._llm_on("synthesis")
        if client is None or not store.facts:
            return dr
        from hyrag.llm.steps import run_step, synthesize_llm

        return run_step("synthesis", lambda: synthesize_llm(client, question, store,
                                                            derivations, dr),
                        lambda: dr, self._emit)

    def _hyde(self, question: str) -> str:
        client = self._llm_on("hyde")
        if client is None:
            return question
        from hyrag.llm.steps import hyde_llm, run_step

        extra = run_step("hyde", lambda: hyde_llm(client, question), lambda: "", self._emit)
        return f"{question} {extra}".strip()

    def _rerank(self, question: str, rows: list[dict]) -> list[dict]:
        client = self._llm_on("rerank")
        if client is None or len(rows) < 2:
            return rows
        from hyrag.llm.steps import rerank_llm, rerank_offline, run_step

        rk = run_step("rerank", lambda: rerank_llm(client, question, rows),
                      lambda: rerank_offline(rows), self._emit)
        self._emit("rerank", {"by": rk.by, "confidence": rk.confidence,
                              "order": list(rk.ids)})
        pos = {cid: i for i, cid in enumerate(rk.ids)}
        return sorted(rows, key=lambda r: pos.get(str(r["claim_id"]), len(pos)))

    def _hypotheses(self):
        import ecr

        client = self._llm_on("hypotheses")
        if client is None:
            return ecr.CompetingValueGenerator()
        from hyrag.llm.steps import LLMHypothesisGenerator

        return LLMHypothesisGenerator(client, ecr.CompetingValueGenerator(), record=self._emit)

    def _text2sql(self, question: str, cat, table: str) -> str | None:
        client = self._llm_on("text2sql")
        if client is None or not question:
            return None
        from hyrag.llm.steps import run_step, text2sql_llm

        return run_step("text2sql", lambda: text2sql_llm(client, question, cat, table),
                        lambda: None, self._emit)

    def _derive(self, parsed: ParsedQuestion, verdicts: list[Verdict], store, numbers):
        ops: list[Operand] = []
        for v in verdicts:
            facts = [f for f in store.facts_for(v.requirement.rid) if f.claim_id in v.evidence]
            if v.support != "direct" or len(facts) < 1 or facts[0].value is None:
                continue
            f = facts[0]
            same_entity = len({w.requirement.entity for w in verdicts}) == 1
            label = " ".join(x for x in (None if same_entity and v.requirement.period else
                                         v.requirement.entity, v.requirement.period) if x) \
                or v.requirement.attribute
            ops.append(Operand(f.claim_id, float(f.value), label, numbers.get(f.claim_id)))
        if len(ops) != len(verdicts) or len(ops) < 2:
            return []
        # one cell standing for two of the figures (the same claim found for 2018 and for
        # 2019, for "total" and for "current") is no combination: its growth is 0% and its
        # difference 0 whatever the question asked, so nothing is derived (the guard then
        # abstains: the figures found do not compute what was asked)
        if len({o.ref for o in ops}) < len(ops):
            return []
        op = parsed.operation
        if op == "difference":  # "the difference between A and B" is A minus B
            ops = _question_order(parsed.question, ops, verdicts)
        try:
            if op == "growth" or (parsed.trend and op in (None, "total")):
                # a growth compares one line item across periods: from International's 2018
                # to Foodservice's 2019 is no growth of anything (the guard then abstains)
                if len({v.requirement.entity for v in verdicts}) > 1:
                    return []
                if op == "growth" and not guards.asks_rate(parsed.question or ""):
                    # "how much is the change in additions from 2018 to 2019" asks for the
                    # amount it moved by, not a percentage: no growth rate answers it
                    return []
                return [growth(ops[0], ops[-1])]
            if op == "cagr":
                keys = [v.requirement.period for v in verdicts]
                return [cagr(ops[0], ops[-1], years_between(keys[0], keys[-1]))]
            if op == "difference":
                return [difference(ops[0], ops[1])]
            if op == "ratio":
                return [ratio(ops[0], ops[1])]
        except ToolError:
            return []
        return []

    def _ecr(self, question: str, route: Route, verdicts: list[Verdict], store, emit):
        conflicting = any(v.support == "conflicting" for v in verdicts)
        if route != Route.CSGR_PLUS and not conflicting:
            return None
        facts = [f for f in store.facts if f.kind != "sql"]
        if not facts:
            return None
        import ecr  # here: it imports NumPy, and most questions never reach it (issue 20)

        s = self.settings
        es = ecr.ECRSettings().with_(epsilon=s.ecr_epsilon, budget=s.ecr_budget,
                                     lambda_conflict=s.ecr_lambda, p_support=s.ecr_p_support,
                                     p_other=s.ecr_p_other,
                                     trigger_candidates=s.ecr_trigger_candidates,
                                     trigger_variance=s.ecr_trigger_variance)
        trig = ecr.should_trigger(question, [f.confidence for f in facts], conflicting, es)
        if not trig.trigger:
            emit("ecr", {"triggered": False})
            return None
        # One claim committed for two requirements (a cell that answers both) is one piece of
        # evidence: counted twice it would weigh double, and ECR rejects repeated ids.
        seen: set[str] = set()
        facts = [f for f in facts if not (f.claim_id in seen or seen.add(f.claim_id))]
        readings = [ecr.Reading(f.claim_id, f"{f.requirement}", f.value_base, f.confidence,
                                f"{f.entity}, {f.attribute}, {f.time_key}") for f in facts]
        space = self._hypotheses().generate(question, readings)
        ids = {f.claim_id for f in facts}
        cands = [ecr.Candidate(f.claim_id, f.text, min(max(f.confidence, 0.0), 1.0),
                               source=f.source, retrieval_score=f.score,
                               negates=frozenset(ids - {f.claim_id}) if conflicting and any(
                                   g.requirement == f.requirement and g.value_base != f.value_base
                                   for g in facts) else frozenset())
                 for f in facts]
        cands = [c.__class__(**{**c.__dict__, "negates": frozenset(
            x for x in c.negates
            if next(g for g in facts if g.claim_id == x).requirement
            == next(g for g in facts if g.claim_id == c.id).requirement)}) for c in cands]
        if not space.hypotheses:
            return None
        res = ecr.resolve(space.attach(cands), space.hypotheses, es)
        out = {"triggered": True, "reasons": list(trig.reasons), **res.to_dict(),
               "entropy_trace": list(res.entropy_trace),
               "likelihood": "P(X=1|a) = 0.7 if the claim supports a else 0.3 (CONTRACT.md)"}
        emit("ecr", out)
        return out




def _question_order(question: str, ops: list, verdicts: list[Verdict]) -> list:
    """The operands in the order the question names their line items ("the difference
    between purchased technology and trademarks" is technology minus trademarks), whatever
    order the table lists them in. Operands of one line item (periods), or whose names the
    question does not spell out, keep the requirements' order."""
    low = question.lower()
    names = [(v.requirement.entity or "").lower() for v in verdicts]
    if len(set(names)) < len(names) or not all(names):
        return ops
    pos = [low.find(n) for n in names]
    if any(p < 0 for p in pos):
        return ops
    return [o for _, o in sorted(zip(pos, ops, strict=True), key=lambda t: t[0])]


def _corrected(question: str, corrections) -> str:
    """The question with the parser's spelling corrections applied ("revenu" -> "revenue"):
    the words it asks, as the knowledge base spells them."""
    import re

    for wrong, right in corrections:
        question = re.sub(rf"\b{re.escape(wrong)}\b", right, question, flags=re.I)
    return question


def _renumber(d, numbers: dict[str, int]):
    """A derivation's operands carry the evidence numbers [n] of this answer."""
    from dataclasses import replace as _replace

    return _replace(d, operands=tuple(_replace(o, n=numbers.get(o.ref, o.n))
                                      for o in d.operands))


def _needs(verdicts: list[Verdict], store) -> str:
    """What a low-confidence answer would need: the requirements without direct support, else
    an independent second source for the committed evidence."""
    weak = [v.requirement.label() for v in verdicts if v.support != "direct"]
    if weak:
        return "direct evidence for " + "; ".join(weak)
    return "a second, independent source for " + "; ".join(
        v.requirement.label() for v in verdicts) if verdicts else "evidence the question maps to"


def _emitter(trail: AuditTrail, on_event):
    def emit(kind: str, payload: dict, *, audit: bool = True) -> None:
        if audit:
            trail.add(kind, payload)
        if on_event is not None:
            on_event({"type": kind, **payload})
    return emit


def _parsed_summary(p: ParsedQuestion) -> dict:
    return {"entities": [e.name for e in p.entities],
            "measure": p.measure.name if p.measure else None, "scope": list(p.scope),
            "periods": [x.key for x in p.periods], "operation": p.operation,
            "group_by": p.group_by, "ranking": p.ranking, "comparison": p.comparison,
            "trend": p.trend, "corrections": [list(c) for c in p.corrections],
            "clarify": list(p.clarify)}
