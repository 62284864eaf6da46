"""Which report an answer speaks for: a knowledge base of many reports, and a question that names
none of them.

A folder of annual reports holds "Gross profit" for 2018 in every one. "What was the gross profit
in 2018?" then has one answer per report, and whichever the retrieval or the table reading
happened to commit is not *the* answer: it is one report's, chosen for reasons the user never
sees. Every route can do this — a sentence retrieval ranked first, a cell the structural fetch
matched, a program over one report's table — so the check runs on the drafted answer, after
the route, like the other checks of `decide` (`guards`).

The check (`rivals`): for each figure the answer rests on, another *document* holds a table
figure that (1) explains every content word of the question the figure's own claim explains
(one tokenizer, `programs.lexicon`), and whose line item and column name no more words the
question does not ask than the committed claim's do ("attributed revenue" is not what "revenue"
asks), (2) is for the figure's own period (without one, a year the question names), and (3)
states a different value (`link.warrant.agree`: within display precision a figure that agrees
is corroboration, not ambiguity). If the question names something only the answer's document
has — a word of its file name, a word of its line items the rival lacks — the rival does not
explain the question as well and is no rival. Where rivals remain, the engine asks which
report is meant (decision "clarify") instead of answering.

Rivals are table figures only (cells, and the totals and means of a table's columns): a line
item and a column say what a figure measures, while a sentence's figure carries qualifiers its
extracted attribute does not ("North revenue was $9.9 million in 2024 *under the old segment
map*"). A sentence's figure can be rivalled; it does not rival.

A *document* is a file name without its extension: a report's table and its prose written beside
it ("report.csv", "report.txt") are one report, as ingestion already reads them
(`ingest.readers.with_companion_prose`). Sources that disagree about one named entity are the
Warrant gate's conflicts (`link.warrant`), found before this check; this check finds what the
question leaves unnamed.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import PurePath

import duckdb

from hyrag.answer.link.commitment import Fact
from hyrag.answer.link.warrant import agree, claim_rows, fact_of
from hyrag.answer.programs.lexicon import content, tokens, years
from hyrag.answer.programs.score import REPORT_SCALES

_DIGITS = re.compile(r"\d")
_SCALE_WORDS = frozenset(t for w in REPORT_SCALES for t in tokens(w))


# the SQL route's computation is run over other documents' tables until this many give
# another figure: enough to show them side by side (`side_by_side`) and to know there are others
COMPUTED_RIVALS = 10


@dataclass(frozen=True)
class Rival:
    """A figure of another document that answers the question as well as the committed one:
    a claim, or the committed SQL computation run over another document's table."""

    document: str  # the file name without its extension
    claim_id: str
    for_claim: str  # the committed claim it rivals
    fact: Fact = field(compare=False, repr=False)  # as evidence, to show it beside the other


def document(file: str | None) -> str:
    """The document a file belongs to: its name without the extension ("report.csv" and
    "report.txt" are one report's table and text)."""
    return PurePath(file or "").stem


def documents_held(con) -> int:
    """How many documents the reader's sources make (policy views filter `sources`)."""
    names = [r[0] for r in con.execute(
        "SELECT name FROM sources WHERE status = 'current'").fetchall()]
    return len({document(n) for n in names})


def rivals(question: str, facts: Sequence, con, *, limit: int = 5000) -> tuple[Rival, ...]:
    """Claims of other documents that answer `question` as well as the committed `facts` do,
    with another value (module docstring); at most `limit` candidate claims are read per
    figure."""
    figures = [f for f in facts if f.kind in ("cell", "text", "aggregate")
               and f.value_base is not None and f.source]
    own = {document(f.source) for f in figures}
    asked = set(content(question))
    named_years = set(years(question))
    out: list[Rival] = []
    seen: set[str] = set()
    for f in figures:
        # what the figure's own names explain (a sentence's words beyond its measure phrase
        # explain question filler, "respectively", by chance), else what its sentence does
        explained = asked & _words(f.entity, f.attribute, f.table) or asked & _words(f.text)
        extra = len(_named(f.kind, f.entity, f.attribute, f.source, f.table) - asked)
        period = _period_test(f.time_key, named_years)
        for r in _candidates(con, explained, limit):
            doc = document(r["file"])
            if doc in own or r["claim_id"] in seen or r["value_base"] is None:
                continue
            if not explained <= _words(r["entity"], r["attribute"], r["table_name"], r["file"]):
                continue
            if len(_named(r["kind"], r["entity"], r["attribute"], r["file"], r["table_name"])
                   - asked) > extra:
                continue  # it names more than was asked ("attributed revenue" for "revenue")
            if not period(r["time_key"]):
                continue
            if agree(_as_row(f), r):
                continue
            seen.add(r["claim_id"])
            out.append(Rival(doc, r["claim_id"], f.claim_id, fact_of(
                r, f.requirement, f"rival of {f.claim_id} in another document")))
    for f in facts:
        if f.kind == "sql" and f.value is not None:
            out.extend(_computed_rivals(f, asked, con, COMPUTED_RIVALS))
    return tuple(out)


def _computed_rivals(f: Fact, asked: set[str], con, limit: int) -> list[Rival]:
    """The SQL route's one-value computation (`link.warrant.WarrantGate._compute`) run over
    each other document's table that holds the same measure (a column of the same words) and
    spells what the question asks of the committed table: the rivals are those whose result
    differs. A measure every table of a folder of like files holds ("revenue") with a period
    named ("in 2024") is computed over one table by the route; the others' totals are as much
    the answer. It stops at `limit` rivals."""
    try:
        loc = json.loads(f.locator)
        sql, table = loc["sql"], loc["table"]
    except (ValueError, KeyError, TypeError):
        return []
    if " GROUP BY " in sql.upper() or f'"{table}"' not in sql:
        return []  # a ranking, or a statement naming its table otherwise: not rewritten
    measure = set(content(f.attribute or ""))
    rows = con.execute(
        "SELECT DISTINCT s.table_name, s.column_name, src.name FROM schemas s JOIN kb_tables k "
        "ON k.table_name = s.table_name JOIN sources src ON src.source_id = k.source_id "
        "WHERE s.role = 'numeric' AND src.status = 'current' AND s.table_name <> ? "
        "ORDER BY s.table_name", [table]).fetchall()
    own = con.execute("SELECT src.name FROM kb_tables k JOIN sources src ON src.source_id = "
                      "k.source_id WHERE k.table_name = ?", [table]).fetchone()
    own_doc = document(own[0]) if own else ""
    explained = asked & _words(f.entity, f.attribute, table, own_doc)
    out: list[Rival] = []
    for other, column, name in rows:
        if len(out) >= limit:
            break
        if not measure or set(content(column)) != measure or document(name) == own_doc:
            continue
        if not explained <= _words(other, column, document(name)):
            continue
        other_sql = sql.replace(f'"{table}"', f'"{other}"')
        try:
            got = con.execute(other_sql).fetchone()
        except duckdb.Error:  # the table lacks a column the computation filters on
            continue
        if not got or got[-1] is None:
            continue
        value = float(got[-1])
        shown = f"{value:,.2f}" if not value.is_integer() else f"{int(value):,}"
        if agree(_as_row(f), {"value_base": value, "value_text": shown, "scale": f.scale}):
            continue
        cid = "sql:" + hashlib.sha256(other_sql.encode()).hexdigest()[:12]
        out.append(Rival(document(name), cid, f.claim_id, replace(
            f, claim_id=cid, locator=json.dumps({"sql": other_sql, "table": other},
                                                ensure_ascii=False),
            text=f.text.replace(table, other).replace(f.value_text, shown), value=value,
            value_text=shown, value_base=value, table=other, warrant_query=other_sql)))
    return out


def _candidates(con, words: set[str], limit: int) -> list[dict]:
    """Table figures whose line item, column or table spell every one of `words` (a stem's
    letters before its last, which inflections change: "liabilit" finds "liability" and
    "liabilities"); the exact tokens are tested after. None when `words` is empty: a figure
    that explains none of the question has nothing to be rivalled on."""
    if not words:
        return []
    stems = sorted({w[:-1] if len(w) > 4 else w for w in words})
    said = ("lower(coalesce(entity, '') || ' ' || coalesce(attribute, '') || ' ' || "
            "coalesce(table_name, ''))")
    return claim_rows(con, "value_base IS NOT NULL AND kind IN ('cell', 'aggregate') AND "
                      + " AND ".join(f"contains({said}, ?)" for _ in stems), stems,
                      order="claim_id", limit=limit)


def _words(*texts: str | None) -> set[str]:
    return {t for x in texts if x for t in content(str(x))}


def _named(kind: str, entity: str | None, attribute: str | None, file: str | None,
           table: str | None) -> set[str]:
    """The words a claim's line item and column name, as what it measures. Not counted: a
    sentence's entity (the heading it sits under, not its subject); digits and what they
    leave of a word under three letters (a footnote mark "rate4", a scale "$'000", a period
    "FY19"); a scale word ("(in thousands)"); the words of its document's and table's names
    (a wide table's cells take the table for their entity: the document, which is what the
    question leaves unnamed)."""
    raw = " ".join(_DIGITS.sub("", w) for x in (None if kind == "text" else entity, attribute)
                   if x for w in str(x).split())
    return {t for t in content(raw) if len(t) > 2} - _SCALE_WORDS - _words(document(file),
                                                                            table)


def _period_test(time_key: str | None, named: set[int]) -> Callable[[str | None], bool]:
    """Whether a rival is for the period of the committed figure: the same period ("2023Q1"
    is not the year 2023), else, for a figure without one, a year the question names; a
    question and a figure without periods accept any."""
    if time_key:
        return lambda tk: tk == time_key
    if named:
        return lambda tk: bool(named & set(years(tk or "")))
    return lambda tk: True


def _as_row(f) -> dict:  # commitment.Fact -> the row form `agree` compares
    return {"value_base": f.value_base, "value_text": f.value_text, "scale": f.scale}


@dataclass(frozen=True)
class SideBySide:
    """The question back to the user: each document's figure beside its name. `added`: the
    rival figures shown, to commit as evidence so that each is cited and verified."""

    added: tuple[Fact, ...]
    listed: tuple[tuple[str, Fact], ...]  # (document, figure), the committed ones first
    what: str  # what the figures are of ("gross profit in 2019")
    more: bool  # documents beyond those listed give figures too

    def sentence(self, numbers: dict[str, int]) -> str:
        """The sentence, each figure cited by its evidence number (`numbers`: claim id ->
        [n]). It states no count of documents: every number an answer states must trace to
        evidence."""
        parts = [f"{doc} {f.value_text} [{numbers[f.claim_id]}]" for doc, f in self.listed]
        return (f"Documents give different figures for {self.what}: {', '.join(parts)}"
                f"{', among others' if self.more else ''}. The question names none of them: "
                "which one is meant?")


def side_by_side(rv: Sequence[Rival], facts: Sequence, shown: int = 5) -> SideBySide:
    """What to show of the rivals `rv` of the committed `facts`: one figure per document, the
    first `shown` documents."""
    own: dict[str, Fact] = {}
    for f in facts:
        if f.kind in ("cell", "text", "aggregate") and f.value_base is not None and f.source:
            own.setdefault(document(f.source), f)
        elif f.kind == "sql" and f.value is not None and f.claim_id in {r.for_claim for r in rv}:
            own.setdefault(f.table or "", f)
    first: dict[str, Rival] = {}
    for r in rv:
        first.setdefault(r.document, r)
    shown_rivals = list(first.values())[: max(shown - len(own), 0)]
    listed = [*own.items(), *((r.document, r.fact) for r in shown_rivals)][:shown]
    lead = next(iter(own.values()), None)
    what = f"{lead.attribute}{f' in {lead.time_key}' if lead.time_key else ''}" if lead \
        else "what the question asks"
    return SideBySide(tuple(r.fact for r in shown_rivals), tuple(listed), what,
                      len(own) + len(first) > len(listed))
