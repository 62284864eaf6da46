"""The program route: the component the engine asks for a table answer.

question -> candidates over every table the subject may see (`candidates`) -> each executed
once (`execute`) -> ranked by the fitted scorer (`score`) -> the best, when its probability
reaches the fitted threshold, committed in the engine's own types: one requirement and one
committed fact per cell read (its claim, or the cell itself where no claim states it), and the
program as a `Derivation` the ReverseVerifier recomputes. The engine then drafts, verifies,
decides and audits it as every other answer.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from hyrag.answer.execute.tools import Derivation, Operand, fmt
from hyrag.answer.link.commitment import CommitmentStore, Fact
from hyrag.answer.link.reading import TableResolved
from hyrag.answer.link.warrant import Verdict
from hyrag.answer.parse.requirements import Requirement
from hyrag.answer.programs.candidates import Candidate, enumerate_programs, proposed
from hyrag.answer.programs.execute import (
    CellValue,
    ExecutionError,
    Result,
    run,
    states_nothing,
)
from hyrag.answer.programs.language import Program
from hyrag.answer.programs.lexicon import tokens, years
from hyrag.answer.programs.link import Question, link_columns, link_rows, names_table
from hyrag.answer.programs.score import (
    Model,
    Ranking,
    agreement,
    answer_key,
    features,
    none_features,
    op_key,
    part_kind,
    table_kind,
)
from hyrag.answer.programs.spans import evidence, prose
from hyrag.answer.programs.tables import per_view, tables

if TYPE_CHECKING:
    import duckdb

# the derivation name the ReverseVerifier recomputes each operator under (verify.grounding)
_DERIVATION = {"sum": "sum", "average": "mean", "difference": "difference",
               "change_ratio": "growth", "divide": "ratio", "percent_of": "ratio",
               "count": "count", "streak": "count", "distinct": "count"}
_MODELS: dict[str, Model] = {}
# tables whose candidate programs are ranked per question (the best named: `_named_tables`)
ROUTE_TOP_TABLES = 3
# the feature a proposed program carries, its weight the setting `program_llm_prior`
PROPOSED = "llm:proposed"


def model(path: str = "") -> Model:
    """The ranker in `path` ("" for the one shipped, `weights.json`), loaded once."""
    got = _MODELS.get(path)
    if got is None:
        got = _MODELS[path] = Model.load(Path(path)) if path else Model.load()
    return got


@dataclass(frozen=True)
class ProgramReading(TableResolved):
    """What the route gives the engine: a reader result (requirements, verdicts, committed
    facts, derivations, value, scale, sentence) and the program itself as `Answer.program`
    carries it (`program`: operator, operands as cells and claims, probability)."""

    program: dict | None = None


@dataclass(frozen=True)
class Ranked:
    """A candidate with what it computed, its features and its probability."""

    candidate: Candidate
    result: Result
    phi: tuple[dict[str, float], dict[str, float]]  # (operator features, operand features)
    probability: float
    parts: tuple[float, float] = (0.0, 0.0)  # (P(operator), P(operands | operator))
    kind: str = ""  # the part of the model that ranked it (`score.part_kind` of its table)


def rank(question: str, con: duckdb.DuckDBPyConnection, m: Model | None = None, *,
         proposals: Sequence[Program] = (), prior: float = 0.0) -> list[Ranked]:
    """Every candidate program that executes, best first (`Model.best_first`), with its
    probability. `proposals` (the LLM route's, `propose`) join the enumerated candidates — a
    proposal the enumeration also found is that candidate — and each carries the `prior`, a
    log-odds bonus on its operator and on its operands (`Settings.program_llm_prior`)."""
    return ranking(Question.of(question), con, m, proposals=proposals, prior=prior)[0]


def ranking(q: Question, con: duckdb.DuckDBPyConnection, m: Model | None = None, *,
            proposals: Sequence[Program] = (), prior: float = 0.0
            ) -> tuple[list[Ranked], Ranking]:
    """`rank` of a question already read (`Question.of`), and the `score.Ranking` it was
    read from: the probability that no table program answers the question (`score.NONE`) and
    whether that is the likeliest choice."""
    m = m or model()
    found: list[tuple[Candidate, Result, tuple[dict, dict]]] = []
    kinds: list[str] = []
    tabs = tables(con)
    kinds_of = per_view(con, "kinds", _kinds)
    memo: dict = {}  # cells read, shared by the question's candidates
    wanted = set(proposals)
    for ti in _named_tables(q, tabs):
        # a question names the table it reads, or points at the only one there is
        if not (names_table(q, ti) or (q.points_at_table and len(tabs) == 1)):
            continue
        cands = enumerate_programs(q, ti)
        kind, part = kinds_of[ti.model.name]
        have = {c.program for c in cands}
        cands += [proposed(q, ti, p) for p in proposals
                  if p not in have and {c.table for c in p.cells()} == {ti.model.name}]
        for c in cands:
            try:
                r = run(c.program, tabs, memo=memo)
            except ExecutionError:
                continue
            phi = features(q, c, r, kind)
            if c.program in wanted:
                phi[0][PROPOSED] = phi[1][PROPOSED] = 1.0
            found.append((c, r, phi))
            kinds.append(part)
    if wanted and prior:
        m = replace(m, weights={**m.weights, PROPOSED: prior}, kinds={
            k: replace(part, weights={**part.weights, PROPOSED: prior})
            for k, part in m.kinds.items()})
    got = m.rank([op_key(c) for c, _, _ in found], [phi for _, _, phi in found], kinds,
                 none_features(q) if found else None)
    return [Ranked(*found[i], pp[0] * pp[1], pp, kinds[i]) for i, pp in got.order], got


def _kinds(con: duckdb.DuckDBPyConnection) -> dict[str, tuple[str, str]]:
    """Per table of the view: its kind (`table_kind`, the features') and the part of the
    ranker that scores it (`part_kind`: also whether the view holds prose, `spans.prose`),
    read once per view, not per question (the part looks at every cell's scale)."""
    has_prose = bool(prose(con).sentences)
    return {name: (kind := table_kind(ti.col_year), part_kind(
        kind, ti.model.arrays.scale, any(r.kind == "heading" and r.period
                                         for r in ti.model.rows), has_prose))
            for name, ti in tables(con).items()}


def _named_tables(q: Question, tabs: dict) -> list:
    """The tables the question names best (at most `ROUTE_TOP_TABLES`): by the prior of their
    best-linked row and column, so a knowledge base of hundreds of tables costs a link pass
    over each, and candidate programs over a few."""
    if len(tabs) <= ROUTE_TOP_TABLES:
        return list(tabs.values())
    scored = []
    for ti in tabs.values():
        rows, cols = link_rows(q, ti), link_columns(q, ti)
        scored.append(((rows[0].prior if rows else 0.0) + (cols[0].prior if cols else 0.0),
                       ti.model.name, ti))
    scored.sort(key=lambda x: (-x[0], x[1]))
    return [ti for _, _, ti in scored[:ROUTE_TOP_TABLES]]


# proposals for a question over the tables it names: (programs, rejection reasons)
Proposer = Callable[[str, dict], tuple[list[Program], list[str]]]


def answer(question: str, con: duckdb.DuckDBPyConnection, *, weights: str = "",
           min_confidence: float | None = None, proposer: Proposer | None = None,
           prior: float = 0.0, emit: Callable[[str, dict], None] | None = None
           ) -> object | None:
    """The best program committed as a reader result (`link.reading.TableResolved`), or None
    when no program reaches the threshold (the fitted one unless `min_confidence` is given):
    the calibrator and the threshold of the part fitted for the kind of table the program reads
    (`Model.for_kind`), since report and list tables score apart.
    `weights`: the ranker's file ("" for the shipped one). `proposer`: the LLM route's
    (`propose.propose_llm` bound to a client), asked with the tables the question names; its
    proposals and rejections are recorded through `emit`."""
    m = model(weights)
    q = Question.of(question)  # read once: the proposer, the ranking and the column guard
    proposals: list[Program] = []
    if proposer is not None:
        tabs = tables(con)
        named = {ti.model.name: ti for ti in _named_tables(q, tabs)}
        proposals, rejected = proposer(question, named)
        if emit is not None:
            emit("program_proposals", {"proposed": [p.to_dict() for p in proposals],
                                       "rejected": rejected})
    ranked, got = ranking(q, con, m, proposals=proposals, prior=prior)
    if not ranked or got.abstains:
        return None  # no program, or the question is likelier answered by none of them
    best = ranked[0]
    probs = [r.probability for r in ranked]
    agree = agreement(probs, [answer_key(r.result) for r in ranked])
    part = m.for_kind(best.kind)
    conf = part.confidence(probs, best.phi, op_key(best.candidate), best.parts, agree,
                           evidence(question, con), got.none)
    threshold = part.min_confidence if min_confidence is None else min_confidence
    if conf < threshold or open_columns(q, best, ranked) or states_nothing(best.result):
        return None
    return commit(replace(best, probability=conf), con, tables(con))


def open_columns(q: Question, best: Ranked, ranked: Sequence[Ranked]) -> bool:
    """Whether the question leaves the best program's columns open: another candidate of the
    same operator reads the same rows, periods and kind of figure (`_reads`) in other columns
    (groups of period columns, as a report heads them "Financial assets" over 2019 | 2018),
    computes another answer, and the question names none of the words that tell the two sets of columns apart
    ("What were the additions in 2019?" over "Financial assets 2019 | Financial liabilities
    2019"). The ranker still orders such a pair, by what it learned of columns' positions, but
    the question does not decide it; the program is not committed, as the Warrant gate's
    relevance rule asks of every route."""
    key, answer = op_key(best.candidate), answer_key(best.result)
    if best.kind != "report" or not best.result.cells:
        return False  # a list's columns are its answer's kind ("who": the name), not a group
    rows = _reads(best)
    cols = {w for cv in best.result.cells for w in tokens(cv.col_label)}
    for other in ranked[1:]:
        if op_key(other.candidate) != key or answer_key(other.result) == answer or \
                _reads(other) != rows:
            continue
        theirs = {w for cv in other.result.cells for w in tokens(cv.col_label)}
        if theirs != cols and not (cols ^ theirs) & q.words:
            return True
    return False


def _reads(r: Ranked) -> list[tuple]:
    """What a program's cells are, short of the words of their columns: table, row, period
    (a dated header's years too) and the kind of figure (scale, unit). Two programs alike in
    these differ only in the column group they read."""
    return [(cv.cell.table, cv.row_label, cv.period, years(cv.col_label), cv.scale, cv.unit)
            for cv in r.result.cells]


def commit(best: Ranked, con: duckdb.DuckDBPyConnection, tabs: dict) -> ProgramReading:
    """The engine's types for a ranked program: requirements, verdicts, facts, derivation."""
    store = CommitmentStore()
    reqs: list[Requirement] = []
    verdicts: list[Verdict] = []
    operands: list[Operand] = []
    prog = best.candidate.program
    for cv in best.result.cells:
        fact = _fact(cv, con, tabs, f"R{len(reqs) + 1}", str(prog))
        req = Requirement(fact.requirement, cv.row_label or None, cv.col_label or cv.row_label,
                          period=cv.period, scope=(cv.cell.table,))
        store.commit(fact)
        reqs.append(req)
        verdicts.append(Verdict(req, "direct", (fact.claim_id,)))
        if cv.value is not None:
            v = abs(float(cv.value)) if prog.magnitude else float(cv.value)
            operands.append(Operand(fact.claim_id, v, _label(cv), len(reqs)))
        elif prog.op in ("count", "streak", "distinct"):
            # an item counted (a text cell): the verifier checks it is a committed claim,
            # not its figure (`verify.grounding`: a count's operands are items)
            operands.append(Operand(fact.claim_id, 1.0, _label(cv), len(reqs)))
    r = best.result
    derivations = []
    name = _DERIVATION.get(prog.op)
    if name and len(operands) == len(r.cells) and isinstance(r.values[0], float):
        ops = tuple(operands)
        unit = "%" if prog.op in ("change_ratio", "percent_of") else ""
        if prog.op == "change_ratio":
            ops = (operands[1], operands[0])  # the verifier's growth reads (old, new)
        derivations.append(Derivation(name, r.expression, ops, round(float(r.values[0]), 4),
                                      unit))
    value = list(r.answer) if prog.op in ("each", "labels") or len(r.answer) > 1 \
        else r.answer[0]
    program = {"kind": "program", "operation": prog.op, "program": prog.to_dict(),
               "expression": r.expression, "confidence": round(best.probability, 4),
               "proposed_by_llm": bool(best.phi[1].get(PROPOSED)),
               "table_kind": best.kind,
               "operands": [f.claim_id for f in store.facts]}
    return ProgramReading(reqs, verdicts, store, derivations, f"program:{prog.op}", value,
                          r.scale, best.probability, 0,
                          "" if derivations else _sentence(prog.op, r, operands), program)


def _label(cv: CellValue) -> str:
    return ", ".join(x for x in (cv.row_label, cv.col_label) if x)


def _sentence(op: str, r: Result, operands: list[Operand]) -> str:
    """What the answer adds to the committed facts' own sentences, citing each operand: a
    computation is stated by its `Derivation` (the draft writes it), a lookup by its claim, so
    only picks, lists and counts need a sentence of their own."""
    cite = "".join(f"[{o.n}]" for o in operands)
    if op in ("argmax", "argmin"):
        word = "largest" if op == "argmax" else "smallest"
        return f"The {word} figure is {r.values[0]}'s {cite}."
    if op == "labels":
        return f"{', '.join(str(v) for v in r.values)} {cite}."
    if op in ("count", "streak", "distinct"):
        return f"{fmt(float(r.values[0]))} {cite}."
    if op == "exceeds" and len(operands) == 2:
        a, b = operands
        return (f"{str(r.values[0]).capitalize()}: {a.label} is {fmt(a.value)} [{a.n}], "
                f"{b.label} {fmt(b.value)} [{b.n}].")
    if op == "each":
        return "; ".join(f"{o.label}: {fmt(o.value)} [{o.n}]" for o in operands) + "."
    return ""


def _fact(cv: CellValue, con: duckdb.DuckDBPyConnection, tabs: dict, rid: str,
          why: str) -> Fact:
    """The claim stating a cell, or the cell itself as a fact where no claim states it (a
    label cell, a note): either way its source, sheet or page, row and column."""
    ti = tabs[cv.cell.table]
    m = ti.model
    row, col = m.rows[cv.cell.row], m.columns[cv.cell.col]
    address = f"{col.letter}{row.row}" if col.letter else None
    claim = None
    if address:
        claim = con.cursor().execute(
            "SELECT claim_id, file, locator, text, entity, attribute, value_num, value_text, "
            "value_base, unit, scale, time_key, conf_base FROM claims WHERE table_name = ? "
            "AND cell = ? AND kind = 'cell' AND NOT superseded LIMIT 1",
            [cv.cell.table, address]).fetchone()
    if claim is not None:
        text = re.sub(r"^\[[^\]]*\]\s*", "", claim[3] or "")
        return Fact(claim_id=claim[0], requirement=rid, source=claim[1] or cv.cell.table,
                    locator=claim[2], text=text, entity=claim[4], attribute=claim[5] or "",
                    value=claim[6], value_text=claim[7] or "", value_base=claim[8],
                    unit=claim[9] or "", scale=claim[10] or "", time_key=claim[11], kind="cell",
                    table=cv.cell.table, score=1.0, warrant_query=f"program: {why}",
                    confidence=float(claim[12] or 0.0))
    locator = json.dumps({"file": m.source, "sheet": m.sheet, "page": m.page, "row": row.row,
                          "column": " / ".join(col.path), "cell": address})
    cid = "cell:" + hashlib.sha256(f"{cv.cell.table}|{locator}".encode()).hexdigest()[:16]
    text = f"{' / '.join(row.path)}, {' / '.join(col.path)}: {cv.text}"
    return Fact(claim_id=cid, requirement=rid, source=m.source, locator=locator, text=text,
                entity=cv.row_label or None, attribute=cv.col_label, value=cv.value,
                value_text=cv.text, value_base=None, unit=cv.unit, scale=cv.scale,
                time_key=cv.period, kind="cell", table=cv.cell.table, score=1.0,
                warrant_query=f"program: {why}", confidence=1.0)
