"""When a drafted answer is no answer: the checks after the decision, before it leaves.

The decision (`decision.py`) asks whether the evidence is warranted and verified. These checks
ask a different question: does the verified figure answer *this* question? Each names why not,
and the engine abstains with that reason (an analyst's "I have a number, but not for what you
asked"):

- a question about a table's structure that no reader answered is not answered with a figure;
- "in which year ..." is not answered by figures for years without the operation that picks one;
- a why / what-caused / how-is-it-calculated question asks for words, not a figure;
- "what is the symbol / the name / the company ..." asks for a name, which no figure is;
- "which X has the least Y" is not answered by the least Y alone (an aggregate with no row);
  nor is any "which / who / when" question by a column's total, stored or queried ("which
  university was founded first?" by the sum of the founding years), and a "how many N"
  question by the total of a column that is not N ("how many titles only had one episode?"
  by the total of the episodes column);
- a growth, difference, ratio or share the evidence does not compute is not answered by the
  figures it would combine (one figure answers it only when it is itself such a combination);
- "the average X" with no period named is not answered by one period's figure of X (the
  average over the periods was asked; a figure labelled as an average still answers it);
- a number the question states that the evidence holds nowhere is a condition the figure
  ignores ("over 2,000" answered by a column's total; `coverage.unheld_numbers`);
- evidence that leaves more than `answer_max_unexplained` of the question's words unexplained
  answers a narrower question (`coverage.py`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hyrag.answer.link.coverage import evidence_texts, unexplained, unheld_numbers, words
from hyrag.answer.parse.parser import ParsedQuestion


def no_answer(question: str, parsed: ParsedQuestion, *, structure: bool, asks_period: bool,
              read: bool, facts: Sequence, derivations: Sequence, n_requirements: int,
              max_unexplained: int, quoted: bool = False) -> str | None:
    """Why the drafted answer does not answer the question, or None when it does. `read`: a
    table or prose reader produced the answer (its own checks already ran); `quoted`: the
    answer is a sentence's own words (`prose_spans.py`), which is what an explanation or
    description question asks for."""
    if structure and not read:
        return ("the question asks about the table's structure (its periods, a total's "
                "components, the cells of named rows and columns) and the layout does not "
                "answer it unambiguously")
    if asks_period and not read and not any(_year_like(f) for f in facts):
        return ("the question asks for a period, and the evidence holds figures for periods "
                "without an operation that picks one of them")
    if asks_for_explanation(question) and not structure and not quoted \
            and not _names_the_line(question, facts):
        return ("the question asks for an explanation or a description, which the offline "
                "engine does not compose from figures; it would need the passage itself")
    if not read and not quoted and _ASKS_IDENTIFIER.search(question):
        return ("the question asks for a name or a symbol, and the evidence found is a figure "
                "(a figure near the name is not the name)")
    if not read and parsed.operation in COMBINING and not derivations and not any(
            f.kind == "sql" for f in facts) and (n_requirements >= 2 or not any(
                _states_combination(f, parsed.operation) for f in facts)):
        return (f"the question asks for a {parsed.operation} of the figures, and the evidence "
                "found does not compute it (the figures alone are no answer)")
    if not read and parsed.operation == "average" and not derivations and len(facts) >= 2 \
            and not any(f.kind == "sql" for f in facts):
        return ("the question asks for an average, and the evidence found lists the figures "
                "without their mean")
    if not read and parsed.operation in ("max", "min") and not parsed.group_by and _ASKS_NAME.search(
            question) and facts and all(f.kind == "sql" for f in facts):
        return ("the question asks which row holds the extreme value, and the evidence found "
                "is the extreme value alone (no row named)")
    if not read and facts and all(_over_rows(f) for f in facts) and (
            _ASKS_NAME.search(question) or _ASKS_WHEN.search(question)):
        return ("the question asks which row, or when, and the evidence is a total over a "
                "column's rows, which names no row and no period")
    counted = parsed.counted
    if not read and counted and facts and all(_over_rows(f) and "COUNT(" not in (
            f.locator or "").upper() for f in facts) and not any(
            words(counted) & words(f"{f.attribute} {f.text}") for f in facts):
        return (f"the question counts {counted}, and the evidence is a total of another "
                "column, not a count of them")
    if not read and not derivations and len(facts) == 1 and _AVERAGE.search(question) and \
            not _YEAR.search(question) and not _AVERAGE.search(_labels(facts[0])) and \
            _YEAR.search(_labels(facts[0])):
        return ("the question asks for an average over the periods, and the evidence is one "
                "period's figure, not their average")
    if not read and facts and not _ASKS_SHARE.search(question) and all(
            _share_column_of_line(f) for f in facts if f.kind == "cell") and any(
            f.kind == "cell" for f in facts):
        return ("the figures come from a percentage column whose words only repeat the line's "
                "(\"% of total revenue\" of \"Total cost of revenue\"), and the question asks "
                "for no percentage: the line's amount may be what it names")
    unheld = [] if read or quoted else unheld_numbers(question, facts)
    if unheld:
        return (f"the question states {', '.join(unheld)}, which the evidence found does not "
                "hold: the figure answers the question without that condition")
    loose = [] if read else unexplained(parsed.residual, evidence_texts(facts))
    if len(loose) > max_unexplained:
        return (f"the evidence does not speak to '{' '.join(loose)}' in the question: the "
                "figures found answer a narrower question")
    return None


_EXPLAIN = re.compile(
    r"^\s*(why|how (?:is|are|was|were|does|do|did) (?!much\b|many\b)\w+(?: \w+){0,6}? "
    r"(?:calculated|computed|determined|measured|defined|derived|recognized|recorded|"
    r"presented|accounted)\b)|\breason\b|\bconsists? of\b|\b(?:primarily |mainly )?"
    r"(?:related|attributable|due) to\b|\bwhat (?:do|does|did) .{0,80}\b(?:reflect|include|"
    r"represent|mean|comprise)\b|\bwhat (?:is|are|was|were) (?:the )?(?:components?|items?|"
    r"drivers?|factors?|basis|purpose|policy|method)\b|^\s*what (?:caused|causes|led to|"
    r"leads to|drove|drives|impacted|impacts|affected|affects|contributed to)\b",
    re.I)


# "what is the symbol of the common stock", "what was the company acquired", "what is another
# name for the plan": a name is asked for; "the company's revenue" names whose figure it is
_ASKS_IDENTIFIER = re.compile(
    r"^\s*what\s+(?:is|was|are|were)\s+(?:the\s+|another\s+|its\s+|their\s+)?(?:(?:ticker|"
    r"trading|stock|legal|full|new|former)\s+)?(?:symbols?|tickers?|names?|company|companies)"
    # what follows says who or what is named, not whose figure: "the company acquired in
    # 2019", "the name of the auditor" — never "the company total revenue"
    r"\s*(?:\?|$|(?:of|for|that|which|who|whose|acquired|listed|used|called|known)\b)", re.I)

# "which locomotive ...", "who ...", "what team ...": the answer is a row's name
_ASKS_NAME = re.compile(r"^\s*(?:(?:in|of|for|at|from)\s+)?(?:which|who|whom|whose)\b", re.I)

# "when did ...", "in what year ...", "on which date ...": a period is asked for
_ASKS_WHEN = re.compile(r"^\s*(?:(?:in|on|at|from|during)\s+)?(?:when\b|(?:what|which)\s+"
                        r"(?:year|date|day|month|season|period)s?\b)", re.I)

_AVERAGE = re.compile(r"\b(?:average|mean|avg)\b", re.I)
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)|\bf(?:y|iscal)?\s?'?\d{2}\b", re.I)


_ASKS_SHARE = re.compile(r"percent|%|\b(?:share|proportion|portion|ratio|weight)s?\b", re.I)


def uncomputed(parsed: ParsedQuestion, facts: Sequence, derivations: Sequence) -> str | None:
    """Why a program's answer does not answer the question, when the question asks for a
    growth, difference, ratio or share of figures (the parse's operation) and the program read
    a figure without computing one, a figure that is not itself such a combination (the rule
    `no_answer` holds every other route to): "Alpha Foreign as a percentage of the total
    Foreign" is not answered by Alpha Foreign."""
    if parsed.operation not in COMBINING or derivations or not facts or any(
            _states_combination(f, parsed.operation) for f in facts):
        return None
    return (f"the question asks for a {parsed.operation} of the figures, and the program read "
            "a figure without computing it (a figure alone is no answer)")


def _share_column_of_line(f) -> bool:  # commitment.Fact
    """A figure from a percentage column ("% of total revenue") whose words the line's own
    label already says ("Total cost of revenue"): a question naming the line names no column
    by those words, and the line's amount beside it is as much what it asks for."""
    from hyrag.answer.readers.tableqa_layout import share_column
    from hyrag.answer.readers.tableqa_rows import content

    if not share_column(f.attribute or ""):  # its header says so, not only its cells
        return False
    words = content(f.attribute or "")
    return bool(words) and words <= content(f.entity or "")


def _labels(f) -> str:  # commitment.Fact
    """What a committed figure is labelled with: its line, its column, its period."""
    return f"{f.entity or ''} {f.attribute} {f.time_key or ''}"


def _over_rows(f) -> bool:  # commitment.Fact
    """A figure computed over a column's rows that names none of them: a stored aggregate
    ("The total founded in t"), or a query's result with no group (a group's result names
    its group: "Which year had the most sales?")."""
    return f.kind == "aggregate" or f.kind == "sql" and " GROUP BY " not in (
        f.locator or "").upper()


def _year_like(f) -> bool:
    """A committed fact that states a year (a period answer), not only a figure for one."""
    v = f.value
    return (v is not None and float(v).is_integer() and 1900 <= float(v) <= 2100) or bool(
        re.fullmatch(r"\s*(?:FY\s?)?(?:19|20)\d{2}\s*", f.value_text or ""))


# operations that combine two or more figures into one: listing the figures does not answer
# them, and one figure answers them only when it is itself such a combination (a stored
# "student-to-faculty ratio", "revenue growth", a percentage)
COMBINING = frozenset({"growth", "cagr", "difference", "ratio", "share"})
_COMBINED = re.compile(r"ratio|share|percent|proportion|rate|margin|growth|change|difference|"
                       r"cagr|yield|per\b|%", re.I)


# a stored difference is named one: a rate or a percentage ("Domestic 4.00%") is no
# difference between two figures ("the domestic and international discount rates")
_DIFFERENCE = re.compile(r"differen|change|variance|gap|spread|increase|decrease|vs\b", re.I)


def _states_combination(f, operation: str = "") -> bool:  # commitment.Fact
    if operation == "difference":
        return bool(_DIFFERENCE.search(f"{f.entity or ''} {f.attribute}"))
    return bool(_COMBINED.search(f"{f.attribute} {f.value_text} {f.unit}"))


# a change, difference, percentage change, ratio or share of figures: words that ask for two
# figures set against each other, which no single looked-up figure answers ("more" / "less"
# are left out: "more than 5,000" is a threshold, not a comparison asked for)
_COMPARISON = re.compile(
    r"\b(?:change[sd]?|difference|differ|increased?|decreased?|grow|grew|growth|declined?|"
    r"rise|rose|fell|ratio|proportion)\b|\bpercentage of\b|\bas a (?:percentage|percent|share) "
    r"of\b", re.I)


def asks_for_comparison(question: str) -> bool:
    """The question asks for a change, difference, ratio or share of figures (see
    `_COMPARISON`), so a lookup of one of them does not answer it."""
    return bool(_COMPARISON.search(question))


def _names_the_line(question: str, facts: Sequence) -> bool:
    """Whether every explanation phrase the question uses is part of the name of the line (or
    column) it was answered from: "Net (loss) income *attributable to* common stock in 2019" names that
    line ("Net (loss) income attributable to common stock ..."), and asks for its figure."""
    labels = [" ".join(str(lab or "").lower().split()) for f in facts
              for lab in (f.entity, f.attribute)]
    found = [" ".join(m.group(0).lower().split()) for m in _EXPLAIN.finditer(question)]
    return bool(found and labels) and all(any(p in lab for lab in labels) for p in found)


# a rate of change asked for, not the amount a figure moved by ("the change in additions")
_RATE = re.compile(r"percent|%|\bgr[eo]w|\brate\b|\bcagr\b", re.I)


def asks_rate(question: str) -> bool:
    """The question asks for a rate of change (a percentage, a growth, a CAGR): "the change
    in X from 2018 to 2019" without one asks how much X moved by, which a growth rate does
    not answer."""
    return bool(_RATE.search(question))


def asks_for_explanation(question: str) -> bool:
    """A why / how-is-it-calculated / what-does-it-consist-of question: it asks for words, not
    for a figure, so a bare figure is not an answer to it."""
    return bool(_EXPLAIN.search(question))


def unheld_measure(question: str, parsed: ParsedQuestion, facts: Sequence,
                   derivations: Sequence) -> str | None:
    """The measure the question names when the one figure found is another measure's: "the
    profit of Nightingale in 2024" over a table whose only measure column is headcount. The
    parser keeps the measure it read (`Measure.known` False: no column or claim of the
    knowledge base has that name). Only a plain lookup is judged, and only when every
    committed figure is a cell under a measure column of its own (the claim's attribute is its
    column's header, as in a table of entities by measures) — a line-item table's figures are
    named by their rows, which the readers match. The answer is about the measure named only
    when each of its content words is a word of some committed fact (attribute, entity,
    sentence or locator); otherwise the question is a Knowledge Gap for that measure. None when
    the measure is held, the question names none, or it also names the measure of a figure
    found (a column's word: "current" for the Current column)."""
    import json

    from hyrag.answer.parse.catalog import content, norm
    from hyrag.answer.readers.tableqa_rows import content as rows_content

    m = parsed.measure
    if m is None or m.known or not facts or derivations:
        return None
    for f in facts:
        if f.kind != "cell":
            return None
        try:
            column = json.loads(f.locator).get("column")
        except (ValueError, AttributeError):
            return None
        if column != f.attribute:
            return None
    # the words that name a measure by themselves: content words of both the parser's and
    # the readers' vocabulary ("amount", "number", "value", "total" name none on their own)
    want = set(content(norm(m.name))) & rows_content(m.name)
    if not want:
        return None
    asked = set(norm(question).split())
    if any(content(norm(f.attribute)) & asked for f in facts):
        return None  # the question names the figure's own measure ("current" receivables)
    said: set[str] = set()
    for f in facts:
        for text in (f.attribute, f.entity or "", f.text, f.locator):
            said |= set(norm(text or "").split())
    return m.name if want - said else None
