"""What an answer answers with: its value or values, their scale, and the program behind them.

`Answer.text` is written for a person; a caller that compares, stores or scores the answer
needs the value itself, not a sentence to parse, and not the engine's internals. `answer_values`
decides it once, from what the engine composed the answer of, in the order the answer's text
gives precedence to:

1. a table or prose reader's answer (`readers.read`): its value(s) and scale as the reader
   read them; the program is the reader's operation over the claims it committed;
2. a ranking the SQL route computed ("Ranked by revenue: West 210,596 [1], ..."): the row
   ranked first, whose name is what "which region ...?" asks for — unless a derivation was
   computed too and the question asks for no name, when the derivation is the answer;
3. a derivation over the committed figures (the last one): its result, in percent when it is
   a rate, else in the scale of its first operand (a difference of two amounts in millions is
   in millions);
4. one requirement, answered by a row picked by a comparison ("which member has the least
   home runs?"): the row's name, not its figure;
5. one requirement, answered by one committed claim: its number as displayed (signed), else
   its text; a sentence that states no figure is quoted whole; an SQL aggregate is its
   computed number, with the SQL as its program.

Anything else (several requirements with no derivation joining them) has no values: `()`. An
answer whose decision is not `answer` has no values either, but keeps its program: what the
engine computed and then declined (a reader's operation the guards rejected) stays visible. Scales are CONTRACT.md's: "" | thousand | million |
billion | percent; a figure displayed with "%" is in percent even when its claim names no scale.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from hyrag.answer.link.commitment import CommitmentStore, Fact

# "which member ...", "who ...": the answer is a row's name; "which year", "which rank" ask
# for a figure or a period, not a name
_ASKS_NAME = re.compile(r"\s*(?:which|who|whom)\b(?!\s+(?:year|years|date|day|month|season|"
                        r"time|number|place|rank|position)\b)", re.I)
# "which country ...", "who ..." over a ranking: the ranked row is asked for, whatever follows
_ASKS_RANKED = re.compile(r"\s*(?:which|who|whom)\b", re.I)
# ... picked by a comparison ("the least home runs"), unlike "who directed the film X?", whose
# row is the film and whose answer is a cell
_SUPERLATIVE = re.compile(r"\b(?:least|most|fewest|highest|lowest|largest|smallest|biggest|"
                          r"greatest|longest|shortest|best|worst|top)\b", re.I)


@dataclass(frozen=True)
class AnswerValues:
    """`Answer.values`, `Answer.scale`, `Answer.program` (see the module docstring)."""

    values: tuple[object, ...] = ()
    scale: str = ""
    program: dict | None = None


NO_VALUES = AnswerValues()


def answer_values(question: str, *, decision: str, reading: object | None,
                  derivations: Sequence, verdicts: Sequence, store: CommitmentStore,
                  ranking: bool) -> AnswerValues:
    """The values the answer answers with. `reading`: the reader's result (a
    `link.reading.Resolved`-shaped object) or None; `derivations`: the answer's `Derivation`s;
    `verdicts` and `store`: the Warrant verdicts and the commitments the answer was drafted
    from; `ranking`: the question groups rows to rank them (`ParsedQuestion.group_by`)."""
    found = _values(question, reading, derivations, verdicts, store, ranking)
    if decision != "answer":  # declined: nothing is answered; what was computed stays visible
        return AnswerValues((), "", found.program)
    return found


def _values(question: str, reading: object | None, derivations: Sequence, verdicts: Sequence,
            store: CommitmentStore, ranking: bool) -> AnswerValues:
    if reading is not None:
        return _read(reading)
    ranked = _ranked(verdicts, store, ranking)
    if ranked is not None and (not derivations or _ASKS_RANKED.match(question)):
        return ranked
    if derivations:
        return _derived(derivations[-1], store)
    if len(verdicts) != 1 or not verdicts[0].evidence:
        return NO_VALUES
    v = verdicts[0]
    ref = v.evidence[0]
    if v.requirement.entity and _ASKS_NAME.match(question) and _SUPERLATIVE.search(question):
        return AnswerValues((v.requirement.entity,), "",
                            {"kind": "row_name", "operation": "name_of", "operands": [ref]})
    f = _fact(store, ref)
    if f is None:
        return NO_VALUES
    if f.kind == "sql":
        return AnswerValues((_exact(f.value),), f.scale or "", _sql_program(f, [f]))
    if f.value is not None:
        return AnswerValues((f.value,), _scale(f))
    if f.value_text:
        return AnswerValues((f.value_text,), _scale(f))
    return AnswerValues((f.text,), "")  # a sentence stating no figure answers with itself


def _read(tq) -> AnswerValues:  # link.reading.Resolved or a reader's equivalent
    vs = tq.answer if isinstance(tq.answer, list | tuple) else [tq.answer]
    if getattr(tq, "program", None):  # the program route states its own program
        return AnswerValues(tuple(vs), tq.scale or "", tq.program)
    program: dict = {"kind": "table_reader", "operation": tq.operation,
                     "operands": list(dict.fromkeys(f.claim_id for f in tq.store.facts)),
                     "residue": tq.residue}
    if tq.derivations:
        program["expression"] = tq.derivations[-1].expression
    return AnswerValues(tuple(vs), tq.scale or "", program)


def _ranked(verdicts: Sequence, store: CommitmentStore, ranking: bool) -> AnswerValues | None:
    """The row the SQL route ranked first, when the answer opens with its ranking."""
    if not verdicts or verdicts[0].support != "direct":
        return None
    v = verdicts[0]
    facts = [f for f in store.facts_for(v.requirement.rid) if f.claim_id in v.evidence]
    if not facts or facts[0].kind != "sql" or not (len(facts) > 1 or ranking):
        return None
    return AnswerValues((str(facts[0].entity),), "", _sql_program(facts[0], facts, "rank"))


def _derived(d, store: CommitmentStore) -> AnswerValues:  # tools.Derivation
    first = _fact(store, d.operands[0].ref) if d.operands else None
    scale = "percent" if d.unit == "%" else (_scale(first) if first is not None else "")
    return AnswerValues((d.result,), scale, {
        "kind": "derivation", "operation": d.name, "expression": d.expression,
        "operands": [o.ref for o in d.operands]})


def _sql_program(f: Fact, facts: Sequence[Fact], operation: str = "aggregate") -> dict:
    return {"kind": "sql", "operation": operation, "sql": f.warrant_query,
            "operands": [x.claim_id for x in facts]}


# digits kept of a number the SQL route computed: a float sum carries binary noise (12.6 summed
# as 12.600000000000001) that no reader would quote; ten decimals keep every figure it shows
_SQL_DECIMALS = 10


def _exact(v: float | None) -> float | None:
    return None if v is None else round(float(v), _SQL_DECIMALS)


def _fact(store: CommitmentStore, ref: str) -> Fact | None:
    return next((f for f in store.facts if f.claim_id == ref), None)


def _scale(f: Fact) -> str:
    return f.scale or ("percent" if "%" in (f.value_text or "") else "")
