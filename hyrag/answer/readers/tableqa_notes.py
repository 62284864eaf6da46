"""The line a question's quoted note ("(cents per share)") and a share's section pick.

Two readings of the line-item reader (`tableqa.py`) that follow from what a question quotes:

- a parenthesised note the question copies from the table ("basic earnings per share (cents
  per share)") is part of the line's name: of the lines the question names, the one carrying
  the note is meant, not a shorter line that lacks it ("Basic earnings per share", a count of
  shares under another heading). The line carrying it may be a block's unlabelled total,
  which `tableqa_totals` names "Total <its heading>": its "Total" is no word the question
  needs to say of it, as "the basic earnings per share (cents per share)" of a statement is
  the figure closing that heading's block.
- a share of a line the question names under its heading ("the percentage of continuing
  operations in diluted earnings per share"): the whole is that heading's own total, the
  figure its lines add up to — not a line elsewhere whose name is the heading's words (a
  count of shares under "Weighted average number of shares"), of which the part is no share.
"""

from __future__ import annotations

import re

from hyrag.answer.parse.catalog import per_view
from hyrag.answer.readers import tableqa_rows as tr
from hyrag.answer.readers.tableqa_totals import plain_heading

_NOTE = re.compile(r"\(([^)]*)\)")


def by_quoted_note(ranked: list[tuple[float, str]], question: str,
                   q: set[str]) -> list[tuple[float, str]]:
    """`ranked` with the one label that carries every word of a note the question quotes in
    parentheses — its other words, "Total" aside, all the question's — put first, when the
    label ranked first lacks the note. Nothing changes when no such label, or two, exist."""
    notes = [ws for n in _NOTE.findall(question) if (ws := tr.content(n))]
    if not notes or not ranked:
        return ranked

    def carries(lab: str) -> bool:
        own = tr.content(lab)
        return all(ws <= own for ws in notes) and own - {"total"} <= q

    if carries(ranked[0][1]):
        return ranked
    hits = [i for i, (_, lab) in enumerate(ranked) if carries(lab)]
    if len(hits) != 1:
        return ranked
    i = hits[0]
    return [ranked[i], *ranked[:i], *ranked[i + 1:]]


def heading_total(part: str, whole: str, cells: list[dict]) -> str:
    """The label of the total of the heading `part`'s line sits under, when the question's
    words for the whole (`whole`, a line's label) are that heading's and not the part's own
    section: "Continuing operations" under "Diluted earnings per share (cents per share)"
    against "Diluted earnings per share (2)" gives "Total diluted earnings per share (cents
    per share)" (`tableqa_totals`' name of the heading's unlabelled total). "" otherwise."""
    heads = {tr.heading(c) for c in cells if tr.label(c) == part} - {""}
    wheads = {tr.heading(c) for c in cells if tr.label(c) == whole}
    wws = tr.content(tr.core_name(whole))
    cands = [h for h in heads if wws and wws <= tr.content(h) and h not in wheads]
    if len(cands) != 1:
        return ""
    head = plain_heading(cands[0])
    want = tr.content(head) | {"total"}
    totals = {tr.label(c) for c in cells if tr.heading(c) == cands[0]
              and tr.content(tr.label(c)) == want and tr.label(c).lower().startswith("total")}
    return totals.pop() if len(totals) == 1 else ""


# a column header's closing footnote mark ("FY18**"), and a mark opening a footnote in the
# report's prose ("** UK & Ireland only – comparable with FY19 Group structure.")
_MARK = re.compile(r"(\*{1,4})\s*$")
_FOOTNOTE = re.compile(r"(?:^|(?<=\s))(\*{1,4})\s*([^*]+)")
_CLAUSE = re.compile(r"\s[–—-]\s|[.;:(,]")
_FOOTNOTES: dict[tuple, dict[str, frozenset]] = {}


def footnoted(tied: list[dict], q: set[str], con) -> tuple[dict, set[str]] | None:
    """(the cell, its footnote's words) of columns of one period told apart only by footnote
    marks ("FY18**" | "FY18***"), when the question says every word of one mark's footnote
    ("for UK and Ireland only" of "** UK & Ireland only – comparable with FY19 Group
    structure") and of no other's ("*** Full Group including US business"): the analyst reads
    the footnote to tell the two bases apart. None when the headers differ otherwise, a mark
    has no footnote or two, or the question names no footnote or both."""
    marks = {id(c): m.group(1) for c in tied if (m := _MARK.search(tr.column_header(c)))}
    if len(marks) != len(tied) or len(set(marks.values())) != len(tied):
        return None
    if len({_MARK.sub("", tr.column_header(c)).strip() for c in tied}) != 1:
        return None
    notes = per_view(_FOOTNOTES, con, _read_footnotes)
    said = [c for c in tied if (ws := notes.get(marks[id(c)])) and ws <= q]
    if len(said) != 1:
        return None
    return said[0], set(notes[marks[id(said[0])]])


def _read_footnotes(con) -> dict[str, frozenset]:
    """mark -> the content words of the first clause of the one footnote the prose opens with
    that mark ("**" -> {uk, ireland, only}); a mark opening two different footnotes is left
    out."""
    from hyrag.answer.readers.prose_spans import sentences

    seen: dict[str, set[frozenset]] = {}
    for row in sentences(con):
        for m in _FOOTNOTE.finditer(row["sentence"]):
            ws = frozenset(tr.content(_CLAUSE.split(m.group(2).strip(), maxsplit=1)[0]))
            if ws:
                seen.setdefault(m.group(1), set()).add(ws)
    return {k: next(iter(v)) for k, v in seen.items() if len(v) == 1}
