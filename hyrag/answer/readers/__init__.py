"""The reader stage: which table or prose reader, if any, answers a question the schema parser
mapped poorly — and in what order they are asked.

The schema parser and the Warrant gate answer questions phrased in the knowledge base's own
vocabulary (a measure column, an entity). Reports are read differently: a line item per row and
a period per column, a list table of rows, a sentence that states an amount. The readers
cover those shapes, each returning the engine's own types (requirements, verdicts, committed
facts, derivations) so that drafting, the ReverseVerifier, the decision and the audit record are
those of every other answer:

0. `tableqa_rollforward` — a line and a period of a roll-forward table (balances "at" dates
   in rows, movements between them), whose cells carry no period any other reader could
   use; it answers only when the question names such a table's line, column and periods.
1. `tablespans` — questions about a table's structure (its periods, the lines that add up to a
   total, several named cells at once). It goes first: a structure question it declines on
   purpose is abstained on rather than answered with a figure.
1b. `tableqa_stated` — a percentage change the table states in a change column for the line
   and the periods asked ("Change %" beside "2019" and "2018"): quoted, not recomputed; and
   `common_size` — "the percentage of sales represented by X" in a table whose every line
   is a percentage of sales: the line-item question about X, in percent.
2. `tableqa` — a row-label (line-item) question the parser could not map; asked even after a
   direct answer when the question asks "in which year", since a figure is no answer to it.
   A line-item question it declines stays declined.
3. `tableqa_pair` — a difference, change or sum of two cells the question names by row and
   column words (one row and two of its columns, or two rows of one column). It runs even
   where the line-item reader declined: that reader reads a line across periods, and two
   columns of one period ("domestic" and "international" as at one date) are no choice of
   period it could make; it goes before `tableops`, whose row operators read such a grid's
   label column as a list and answered these questions from text cells.
4. `tableops` — a list table's row operators (filters, counts, superlatives, neighbours); they
   replace a direct answer only where the parser lacks the operator, and never a line-item
   question's answer.
5. `tableqa_shares` — a share of a total read off the grid: a cell the question names (a row
   in a column) over its row's Total column or its column's total line; only where no reader
   above answered (a line-item share of one period is `tableqa`'s).
6. `prose_read` — amounts a sentence states, only when no table reader answered and no cell or
   SQL result did (a direct answer resting on text claims alone may be re-read).
7. `prose_spans` — what a sentence says a term represents / comprises / how it is calculated
   (the clause quoted), when no reader above answered and the parser found no direct evidence
   or the question asks for an explanation.

Everything runs through the subject's view (`con`), so the policy's filters hold here too.

Being deleted (issue 19): the program route (`programs/`) replaces these readers one by one as
it matches them on questions neither was written on. Gone already: the readers that answered
no question outside TAT-QA dev on the held-out test split (a heading's unlabelled total, a
heading's sum, textbook ratios of total lines, current + non-current parts, a cell of a
period-less grid, a roll-forward ratio).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hyrag.answer.parse.parser import ParsedQuestion


@dataclass(frozen=True)
class Reading:
    """What the reader stage found. `structure`: the question asks about the table's structure
    (a direct figure is then no answer when no reader answered); `asks_period`: it asks "in
    which year", so a figure without a chosen period is no answer either."""

    result: object | None  # a `link.reading.Resolved`-shaped answer of the first reader, or None
    structure: bool = False
    asks_period: bool = False
    # the parser's direct cells were set aside for the line-item reader (they do not compute
    # what is asked, or stand for one of two lines named alike), and it declined: the direct
    # figures are no answer either
    declined: bool = False


def read(question: str, con, *, parsed: ParsedQuestion, direct: bool,
         facts: Sequence) -> Reading:
    """Ask the readers in order; the first answer wins (see the module docstring). The
    knowledge base's view key is read once for all of them (`catalog.pinned_view`)."""
    from hyrag.answer.parse.catalog import pinned_view

    with pinned_view(con):
        return _read(question, con, parsed=parsed, direct=direct, facts=facts)


def _read(question: str, con, *, parsed: ParsedQuestion, direct: bool,
          facts: Sequence) -> Reading:
    from hyrag.answer.decide import guards
    from hyrag.answer.readers import (
        tableops,
        tableqa,
        tableqa_read,
        tableqa_rollforward,
        tablespans,
    )

    rolled = tableqa_rollforward.resolve(question, con)
    if rolled is not None:
        return Reading(rolled)
    tq, spans_owned = tablespans.resolve(question, con)
    owned = spans_owned
    year_q = bool(tableqa_read.WHICH_YEAR.search(question)) and not any(
        f.kind == "sql" for f in facts)
    # direct evidence resting on sentences that state no figure ("These interest rate swap
    # contracts had the economic effect of ...") does not stop the line-item reader: the
    # table's line may be what the question names; a sentence stating the amount stands
    cells_direct = direct and not all(f.kind == "text" and f.value is None for f in facts)
    if parsed.operation == "average" and not any(f.kind == "sql" for f in facts):
        # the direct route finds a line's figure per period but derives no mean of them (only
        # a query's AVG): "the average X for 2018 and 2019" is the line-item reader's to
        # compute, or to decline — the two figures listed are no answer to it
        cells_direct = False
    set_aside = cells_direct and (
        parsed.operation == "growth" and not guards.asks_rate(question) or
        parsed.operation in ("growth", "difference", "average", "share") and
        len({f.claim_id for f in facts if f.kind == "cell"}) == 1 and
        all(f.kind in ("cell", "text") for f in facts) or
        _tied(question, con, facts) or _disagree(facts))
    if set_aside:
        # the engine computes no growth rate for "the change in X"; nor any combination
        # from the one figure it found ("the average percentage of net revenues of OEM"
        # matched one column); nor is its line one of two the question names alike; nor do
        # its cells disagree (one line under two period headings the parser saw as one): the
        # line-item reader reads the line's figures itself
        cells_direct = False
    if tq is None and not spans_owned:
        from hyrag.answer.readers import tableqa_stated

        tq = tableqa_stated.resolve(question, con) or tableqa_stated.common_size(
            question, con)
    if tq is None and not spans_owned:
        tq, owned = (None, False) if cells_direct and not year_q else \
            tableqa.read_line_item(question, con)
    if tq is None and not spans_owned:
        from hyrag.answer.readers import tableqa_pair

        tq = tableqa_pair.resolve(question, con)
    if tq is None and not owned:
        tq = tableops.resolve(question, con, parsed=parsed, direct=direct)
        if tq is not None and direct and tableqa.read_line_item(question, con)[1]:
            tq = None
    if tq is None and not spans_owned:
        from hyrag.answer.readers import tableqa_shares

        tq = tableqa_shares.resolve(question, con)
    if tq is None and (not direct or all(f.kind == "text" for f in facts)):
        from hyrag.answer.readers import prose_read

        tq = prose_read.resolve(question, con)
    if tq is None and not spans_owned and (not direct or guards.asks_for_explanation(
            question)):
        from hyrag.answer.readers import prose_spans

        tq = prose_spans.resolve(question, con)
    return Reading(tq, spans_owned, year_q, declined=set_aside and tq is None and owned)


def _disagree(facts: Sequence) -> bool:
    """Whether two direct cells for one requirement state different figures ("Leasehold,
    external valuation": 23% under "Year ended 30 June 2019", 60% under "... 2018")."""
    seen: dict[str, set] = {}
    for f in facts:
        if f.kind == "cell" and getattr(f, "requirement", None):
            seen.setdefault(f.requirement, set()).add(getattr(f, "value", None))
    return any(len(v) > 1 for v in seen.values())


def _tied(question: str, con, facts: Sequence) -> bool:
    """Whether a direct cell stands for one of two lines the question names equally well and
    neither in full (`tableqa_layout.tied_lines`)."""
    from hyrag.answer.readers import tableqa_layout, tableqa_rows

    lines = {getattr(f, "entity", None) for f in facts if f.kind == "cell"} - {None}
    if not lines:
        return False
    q = tableqa_rows.content(question)
    ranked = tableqa_rows.rank_rows(tableqa_rows.cells(con), q, question)
    return tableqa_layout.tied_lines(ranked, q) and bool(lines & {lab for _, lab in ranked[:2]})
