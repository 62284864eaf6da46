"""The line items a table lists, for `tablespans.py`: "What financial items are listed in the
table?", "Which countries are shown in the table of revenues by geographic location?", "What
are the regions in the table to which goodwill was allocated?".

The question names no line and no figure: it asks what the rows of *the table* are. An
analyst reads them off the table's closing total — the rows above it that add up to it are the
items the table lists, the total line itself is not one of them. This module answers only
when that reading is unambiguous: the knowledge base holds one table (else "the table" could
mean any), the table's last total line sums the rows above it in every amount column (a
heading, a subtraction or an unlabelled subtotal in between breaks the sum and the reading),
and those rows and that total are every labelled line with figures the table has — a table
with lines beyond its total ("Less: current portion") lists more than the parts of one sum,
and which of its rows are "the items" is then not read off the layout.
"""

from __future__ import annotations

import re

from hyrag.answer.readers import tablelines

# "what (are the) [financial] items / which countries (are) (listed|shown|...) in the table":
# a plural noun the rows are instances of; periods are `tablespans._periods`' question
_ITEMS_Q = re.compile(
    r"^\s*(?:what|which)\s+(?:are\s+|were\s+)?(?:the\s+)?"
    r"(?:(?!(?:do|does|did|is|was|has|had|have)\b)[a-z][\w-]*\s+){0,2}?"
    r"(?!(?:years|periods|dates|months|quarters|columns|units|values|amounts|figures)\b)"
    r"(?:items|[a-z]{3,}(?:ies|es|s))\s+(?:(?:are|were)\s+)?"
    r"(?:(?:listed|shown|presented|included|disclosed|given)\s+)?in\s+the\s+table\b", re.I)
_FOOTNOTE = re.compile(r"(?<=[a-z]{3})\d{1,2}$")  # "Incentive schemes1": a footnote mark


def first_cell(ln) -> dict:  # a `tablelines.Line`
    """A line's figure in the first column that has one: the cell its evidence cites."""
    return ln.by_col[min(ln.by_col, key=lambda k: ln.col_pos.get(k, 0))]


def asks_items(question: str) -> bool:
    """Whether the question asks which line items the table lists."""
    return bool(_ITEMS_Q.search(question))


def table_items(lines: list):  # a `TableResolved` or None
    """The rows that add up to the only table's closing total, when they and the total are all
    its labelled lines (see the module docstring); their labels without footnote marks."""
    if len({ln.table for ln in lines}) != 1:
        return None
    total = next((ln for ln in reversed(lines) if not ln.label
                  or tablelines.TOTAL_LABEL.match(ln.label)), None)
    if total is None or total is not lines[-1]:
        return None  # lines after the closing total: more than the parts of one sum
    found = tablelines.block(total, lines, unlabelled=True)
    if found is None:
        return None
    _, block = found
    if {id(ln) for ln in block} != {id(ln) for ln in lines[:-1]}:
        return None  # a labelled line outside the sum: the table lists more than its parts
    b = tablelines.Builder()
    refs = [b.commit(first_cell(ln), "line item of the table") for ln in block]
    tref = b.commit(first_cell(total), "the table's total")
    names = [_FOOTNOTE.sub("", ln.label) for ln in block]
    sent = (f"The table lists {tablelines.join(names)} {''.join(f'[{r}]' for r in refs)}, "
            f"which add up to {total.label or 'its total'} [{tref}].")
    return b.done("components", names, sent)


# "what are the (3) dates listed in the table (in chronological order)?"
_DATES_Q = re.compile(r"^\s*(?:what|which)\s+(?:are\s+|were\s+)?(?:the\s+)?(?:(\d+|two|three|"
                      r"four|five)\s+)?dates\b[^?]*\btable\b", re.I)
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")
_DATE = re.compile(rf"\b({'|'.join(_MONTHS)})\s+(\d{{1,2}}),?\s+((?:19|20)\d{{2}})\b", re.I)
_WORD_N = {"two": 2, "three": 3, "four": 4, "five": 5}


def asks_dates(question: str) -> bool:
    """Whether the question asks which dates the table's columns are headed by."""
    return bool(_DATES_Q.search(question))


def table_dates(question: str, lines: list):  # a `TableResolved` or None
    """The dates the only table's column headers state ("December 31, 2019", "January 1,
    2018"), in the table's order or, when the question asks, chronologically. A column
    header without a full date, or a count the question states that the table does not
    have, is not answered: the dates would be a guess at what the question counts."""
    if len({ln.table for ln in lines}) != 1:
        return None
    cols: dict[str, tuple[int, dict]] = {}
    for ln in lines:
        for k, c in ln.by_col.items():
            cols.setdefault(k, (ln.col_pos.get(k, 0), c))
    found = []
    for k, (_pos, c) in sorted(cols.items(), key=lambda kv: kv[1][0]):
        m = _DATE.search(k)
        if m is None:
            return None
        when = (int(m.group(3)), _MONTHS.index(m.group(1).lower()), int(m.group(2)))
        found.append((when, f"{m.group(1).capitalize()} {int(m.group(2))}, {m.group(3)}", c))
    n = (_DATES_Q.search(question) or [None, None])[1]
    if len(found) < 2 or n and int(_WORD_N.get(n.lower(), 0) or n) != len(found):
        return None
    if re.search(r"\bchronological", question, re.I):
        found.sort(key=lambda x: x[0])
    b = tablelines.Builder()
    refs = [b.commit(c, f"column {name}") for _, name, c in found]
    names = [name for _, name, _ in found]
    # the sentence states each date as the cells' period ("2018-01-01"), which grounds it
    iso = [f"{y:04d}-{m + 1:02d}-{d:02d}" for (y, m, d), _, _ in found]
    sent = f"The table's columns are dated {tablelines.join(iso)} " + "".join(
        f"[{r}]" for r in refs) + "."
    return b.done("periods", names, sent)


# a row naming a period of a maturity schedule: "2020", "2021-2022", "Thereafter"
_ROW_PERIOD = re.compile(r"^\s*(?:(?:fiscal\s+)?(?:19|20)\d{2}(?:\s*[-–]\s*(?:19|20)?\d{2,4})?|"
                         r"thereafter|later years|beyond)\s*$", re.I)
_PERIOD_COUNT_Q = re.compile(r"^\s*how many\s+(?:years|periods)\b[^?]*\btable\b", re.I)


def asks_period_count(question: str) -> bool:
    """"How many periods are highlighted in the table?"."""
    return bool(_PERIOD_COUNT_Q.search(question))


def row_periods(lines: list, count: bool = False):  # a `TableResolved` or None
    """The periods a maturity schedule states in its rows ("2020", ..., "2024", "Thereafter"
    above "Total lease payments"), or their number: the only table's first rows, while their
    labels are years, year ranges or "Thereafter" — at least two, one a year. A table whose
    columns are years is `tablespans._periods`' own reading; a table whose first row is no
    period is not read here."""
    if len({ln.table for ln in lines}) != 1:
        return None
    run = []
    for ln in lines:
        if not _ROW_PERIOD.match(ln.label or ""):
            break
        run.append(ln)
    if len(run) < 2 or not any(re.search(r"\d", ln.label) for ln in run):
        return None
    b = tablelines.Builder()
    refs = [b.commit(first_cell(ln), f"period {ln.label}") for ln in run]
    names = [ln.label.strip() for ln in run]
    sent = f"The table's rows are the periods {tablelines.join(names)} " + "".join(
        f"[{r}]" for r in refs) + "."
    if count:
        return b.done("count_components", float(len(names)), sent, b.count(refs, names))
    return b.done("periods", names, sent)
