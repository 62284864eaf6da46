"""The words and rows of line-item tables: what `tableqa.py` and `tablespans.py` share.

A question names a line item by its words, not its exact label ("the change in Other income"
for "Other income, net"), so both table readers need the same notion of a label's content
words (stop words, plurals and footnote markers aside), the same reading of the numeric cells
(each with its period: its own `time_key`, a two-year fiscal span, or the one year its column
header names) and the same ranking of the labels a question names. Split from `tableqa.py`
(one idea per module): that module reads the operation and the periods on top of these.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

from hyrag.answer.parse.catalog import per_view
from hyrag.answer.programs.lexicon import singular
from hyrag.answer.readers import tableqa_periods as periods
from hyrag.answer.readers import tableqa_read as read
from hyrag.answer.readers.tableqa_scale import cell_scale, per_unit
from ingest.captions import title_year
from ingest.modelclaims import own_column, own_name

STOP = {"the", "a", "an", "of", "in", "for", "and", "to", "on", "by", "at", "as", "is", "was",
         "were", "what", "which", "how", "much", "many", "did", "does", "do", "be", "been",
         "year", "years", "fy", "from", "between", "with", "its", "their", "company", "s",
         "amount", "value", "change", "difference", "percentage", "percent", "average",
         "ratio", "increase", "decrease", "sum", "proportion", "respectively", "both", "during",
         "end", "compared", "when", "than", "this", "that", "over", "under", "has", "have",
         "had", "are", "there", "those", "these", "yoy", "growth", "rate", "respective", "i",
         "e", "also", "while", "largest", "smallest", "highest", "lowest", "larger",
         "smaller", "higher", "lower", "greater", "less", "more", "most", "least", "all",
         "combined", "altogether", "reported", "year-on-year", "annual", "exceed", "thousand",
         "million", "billion"}
# operation words a label may also use; "nominal" (difference) asks for the plain difference,
# as against a percentage one, and names nothing of the line
OPWORDS = {"total", "net", "sum", "mean", "nominal"}
# Content words a question may use beyond its line item ("the company's", a segment's name):
# three or more unexplained words mean it asks about something else (a passage, a sub-item).
MAX_RESIDUE = 2
YEAR = read.YEAR

_YEAR_ROW = re.compile(r"\s*(?:19|20)\d{2}\s*")


# `words` and `content` are asked of every label of every table for each question (a few
# thousand labels, the same strings each time): memoised, they cost a dictionary look-up; each
# call still returns its own list or set, which a caller may change
def words(s: str) -> list[str]:  # a footnote glued to a label's end: "Incentive schemes1"
    return list(_words(s or ""))


@lru_cache(maxsize=1 << 16)
def _words(s: str) -> tuple[str, ...]:
    s = re.sub(r"(?<=[a-z]{3})\d{1,2}\s*$", "", s.lower().replace("’", "'"))
    # a standard's number written without its space ("IFRS9", "IAS39") is the label's "IFRS 9":
    # three letters or more and a number of one or two digits ("FY19", "Q4" are periods)
    s = re.sub(r"\b([a-z]{3,})(\d{1,2})\b", r"\1 \2", s)
    return tuple(w for w in re.findall(r"[a-z0-9]+", s) if not YEAR.fullmatch(w))


# one word for the sexes however a header or a question says them ("Men" columns, "a male
# member"), as a plural is one word with its singular
_SEXES = {"men": "male", "man": "male", "women": "female", "woman": "female"}


def stem(w: str) -> str:
    """A word as the table readers compare it: the sexes as one word, a plural as its
    singular (`lexicon.singular`)."""
    return _SEXES.get(w) or singular(w)


def content(s: str) -> set[str]:  # a stop word's plural ("values") is one too
    return set(_content(s or ""))


@lru_cache(maxsize=1 << 16)
def _content(s: str) -> frozenset[str]:
    return frozenset(t for w in _words(s) if w not in STOP and not w.isdigit()
                     and (t := stem(w)) not in STOP)


COLS = ("claim_id, entity, attribute, value_num, value_text, coalesce(scale, '') AS scale, "
         "coalesce(unit, '') AS unit, time_key, text, locator, coalesce(file, '') AS file, "
         "coalesce(table_name, '') AS table_name, conf_base, value_base")


CACHE: dict[tuple, list[dict]] = {}


def cells(con) -> list[dict]:
    """`read_cells`, cached per database generation and reader view (`catalog.view_key`):
    reading every numeric cell through a subject's views on each question cost ~80 ms."""

    return kept(per_view(CACHE, con, read_cells))


# lists of cells a per-view cache holds (never changed once built), by id, with the labels
# `rank_rows` reads of them: the same for every question, so read once per list. The entry
# keeps its list alive, so an id is never another list's while it is here.
_KEPT: dict[int, list] = {}
_KEPT_SIZE = 16


def kept(cells: list[dict]) -> list[dict]:
    """`cells`, marked as a cache's list that nobody changes (see `_KEPT`)."""
    if id(cells) not in _KEPT:
        while len(_KEPT) >= _KEPT_SIZE:
            _KEPT.pop(next(iter(_KEPT)))
        _KEPT[id(cells)] = [cells, None]
    return cells


def read_cells(con) -> list[dict]:
    """The numeric cell claims with a period: their own `time_key`, else the one year their
    column header names ("Year Ended December 31, 2018 (thousands)" did not parse as a period,
    so the table was not melted, but a reader still sees the column as 2018)."""
    out = []
    year_rows: list[dict] = []
    sectioned: list[dict] = []  # cells dated by the period heading of their section
    titled: list[dict] = []  # cells dated by their table's title ("Price Range 2018")
    for c in map(dict, numeric_cells(con)):  # its own copies: periods are set below
        if not c["time_key"] and periods.span_key(c["attribute"] or ""):
            # "2018/2019": a fiscal year across two calendar years, only named as itself
            c["time_key"] = periods.span_key(c["attribute"] or "")
            c["span_period"] = True
        elif not c["time_key"] and _YEAR_ROW.fullmatch(c["entity"] or "") and \
                not read.years(c["attribute"] or ""):
            year_rows.append(c)  # a period row of a schedule, if its table is one (below)
            continue
        elif not c["time_key"]:
            ys = set(read.years(c["attribute"] or ""))  # "2018", or "F19" / "FY 19"
            if not ys and (c["entity"] or "").strip() and (y := _section_year(heading(c))):
                # the rows under "As at 31 December 2019": that period's; a quarter's column
                # ("Second Quarter" under "Fiscal 2019") is that year's quarter
                q = periods.quarter(c["attribute"] or "")
                c["time_key"] = f"{y}Q{q}" if q else y
                sectioned.append(c)
                continue
            if not ys and (y := title_year(c.get("table_title") or "")):
                titled.append(c)  # dated by its table's title, if nothing else dates it
                continue
            if len(ys) != 1:
                continue
            c["time_key"] = str(ys.pop())
            c["header_period"] = True  # the column is a period, not a measure of its own
        out.append(c)
    out += _schedule_rows(year_rows)
    # a period heading counts where the table repeats its lines under two or more of them
    # ("As at 31 December 2019" ... "As at 31 December 2018"); one heading above the whole
    # table ("Year Ended December 31, 2019" over "Beginning of period | Increase | End of
    # period") dates it, but its columns are then periods of their own, not measures
    years: dict[str, set[str]] = {}
    for c in sectioned:
        years.setdefault(c["table_name"], set()).add(c["time_key"][:4])
    out += [c for c in sectioned if len(years[c["table_name"]]) > 1]
    out += _titled(titled, {c["table_name"] for c in out})
    from hyrag.answer.readers import (
        tableqa_layout,
        tableqa_totals,  # rows adding up those above
    )

    named = tableqa_totals.names(con)
    for c in out:
        if not c["entity"] or c["entity"] in (c["table_name"], c.get("table_subject")):
            name = named.get((c["table_name"], tableqa_layout.row(c)))
            if name:
                c["entity"] = name
    return out


NUMERIC: dict[tuple, list[dict]] = {}


def numeric_cells(con) -> list[dict]:
    """Every numeric cell claim of the view (`COLS`, and its table's `table_subject`), read
    once per view for all the table readers: the line-item cells (`read_cells`), the lines of
    `tablespans`, the roll-forward tables and the period-less grids each read them with their
    own query before. Each reader takes its own copies (they add keys of their own)."""
    return per_view(NUMERIC, con, _read_numeric)


UNTIMED: dict[tuple, list[dict]] = {}


def untimed_numeric_cells(con) -> list[dict]:
    """The cells of `numeric_cells` without a period (`time_key` NULL or ''), in the same
    order, read with that filter in the store: the roll-forward reader, asked first for every
    question, reads only these, and reading every numeric cell for it was ~0.15 s of a fresh
    `hyrag ask` on the sample knowledge base (issue 20)."""
    return per_view(UNTIMED, con, lambda c: _read_numeric(c, untimed=True))


def _read_numeric(con, *, untimed: bool = False) -> list[dict]:
    cur = con.cursor().execute(
        f"SELECT {COLS} FROM claims WHERE NOT superseded AND kind = 'cell' "
        "AND value_num IS NOT NULL"
        + (" AND (time_key IS NULL OR time_key = '')" if untimed else ""))
    names = [d[0] for d in cur.description]
    subj = subjects(con)
    titles = subjects(con, subject=False)
    out = []
    for r in cur.fetchall():
        c = dict(zip(names, r, strict=True))
        if c["entity"] and '"section"' in (c["locator"] or ""):
            # the readers read a line by its own label, its section apart (`heading`): the
            # claim's entity names the row by both ("Current, Cash")
            c["entity"] = own_name(c["entity"], heading(c))
        if c["attribute"] and ", " in c["attribute"]:
            # and a column by its own header, as the locator names it, its captions apart
            c["attribute"] = own_column(c["attribute"], column_header(c))
        c["table_subject"] = subj.get(c["table_name"], "")
        c["table_title"] = titles.get(c["table_name"], "")
        out.append(c)
    return out


_PERIOD_HEADING = re.compile(
    r"\s*(?:(?:as\s+)?(?:at|of)\s+|fiscal\s+(?:year\s+)?|fy\s*|(?:(?:fiscal\s+)?years?|periods?"
    r"|six\s+months|twelve\s+months|quarters?)\s+(?:ended|ending)\s+)?(?:\d{1,2}\s+)?"
    r"(?:[a-z]+\.?\s+)?(?:\d{1,2},?\s+)?((?:19|20)\d{2}):?\s*", re.I)


def _section_year(h: str) -> str:
    """The year a section heading that is nothing but a period names ("As at 31 December
    2019", "Year ended 30 June 2018", "2019"): a table of measure columns ("USD denominated |
    Non-USD denominated") repeated under one such heading per period holds, under each, that
    period's figures. "" for any other heading."""
    m = _PERIOD_HEADING.fullmatch(h or "")
    if not m or (m.group(0).strip() != m.group(1) and not re.search(
            r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\b(?:ended|ending|at"
            r"|fiscal)\b|^\s*fy",
            h, re.I)):
        return ""
    return m.group(1)


def _titled(cands: list[dict], dated: set[str]) -> list[dict]:
    """The cells of tables whose one period is their title's year ("Sales 2018", "Common
    Stock Price Range 2018" above "Low | High"): every figure of such a table is that year's,
    as every figure under "As at 31 December 2019" is that date's — when no cell of the table
    is dated otherwise (a column or row of its own periods says more than the title). A row
    or column named by a quarter alone ("First Quarter") is that year's quarter; a quarter
    row's line item is then its column ("Low"), as in a schedule whose rows are periods."""
    out = []
    for c in cands:
        if c["table_name"] in dated:
            continue
        y = title_year(c["table_title"])
        if q := periods.quarter(c["entity"] or ""):
            out.append({**c, "time_key": f"{y}Q{q}", "entity": c["attribute"],
                        "period_row": True})
        else:
            q = periods.quarter(c["attribute"] or "")
            out.append({**c, "time_key": f"{y}Q{q}" if q else y})
    return out


def _schedule_rows(cands: list[dict]) -> list[dict]:
    """The cells of schedules whose rows are periods ("2021 | 138 | 6" under "Operating
    Leases | Finance Leases", then "Thereafter", "Total"): the row label is the period and the
    column the line item. A table is read so only when two or more of its rows are labelled by
    consecutive years — a lone year among other labels ("1962" beside "1964-1967" in a list
    of buildings) names a row, not a period."""
    by_table: dict[str, set[int]] = {}
    for c in cands:
        by_table.setdefault(c["table_name"], set()).add(int(c["entity"]))
    out = []
    for c in cands:
        ys = sorted(by_table[c["table_name"]])
        if len(ys) < 2 or ys[-1] - ys[0] != len(ys) - 1:
            continue
        out.append({**c, "time_key": c["entity"].strip(), "entity": c["attribute"],
                    "period_row": True})
    return out


def subjects(con, subject: bool = True) -> dict[str, str]:
    """table -> the subject ingestion took from its title ("Northwind — Income statement"):
    every row of such a table has that entity, so it names the table, not a line item.
    `subject=False`: table -> its whole title."""
    from ingest.captions import subject_from_title

    try:
        rows = con.cursor().execute("SELECT table_name, title FROM kb_tables").fetchall()
    except Exception:  # a governed view without kb_tables: no titles known
        return {}
    if not subject:
        return {t: title or "" for t, title in rows}
    return {t: subject_from_title(title) or "" for t, title in rows}


def label(c: dict) -> str:
    """The line item a cell belongs to: its entity (the row label of a melted wide table), or
    its attribute when the entity only names the table (its name or its title's subject)."""
    if c["entity"] and c["entity"] not in (c["table_name"], c.get("table_subject")):
        return c["entity"]
    attribute = c["attribute"] or ""
    if attribute and column_header(c) == attribute:
        return ""  # an unlabelled row of a melted table: ingestion named it by its column
    return attribute


def column_header(c: dict) -> str:
    """The column header a cell's locator names ("" when it names none). Ingestion gives a
    melted row with an empty label its column's header as attribute, so that its claim still
    reads as a sentence; for a period column that is the period ("31 March 2019"), not a
    line's name, and the row is the table's unlabelled (total) line."""
    loc = c.get("locator") or ""
    if '"column"' not in loc:
        return ""
    try:
        return str(json.loads(loc).get("column") or "")
    except ValueError:
        return ""


# a line that states a percentage of something, and a question that asks for one
_PCT_LABEL = re.compile(r"^\s*(?:percent(?:age)?|%)\s+of\b|\bas an? (?:percent(?:age)?|%|share)"
                        r" of\b", re.I)
_PCT_Q = re.compile(r"percent|%|\bproportion|\bshare\b|\bportion\b|\bratio\b|\brate\b",
                    re.I)


def rank_rows(cells: list[dict], q: set[str], qtext: str) -> list[tuple[float, str]]:
    """(score, label) of the labels the question names, best first."""
    labels, cores, shared = _labels(cells)
    out = []
    low = qtext.lower()
    amount_q = not _PCT_Q.search(qtext)
    for lab, ws in labels.items():
        if not ws or amount_q and _PCT_LABEL.search(lab):
            # "Percentage of total net revenues" is a share, not the amount "Total net
            # revenue" a question asks for without saying percent, share or proportion
            continue
        hit = ws & q
        if not hit:
            continue
        cover = len(hit) / len(ws)
        need = 1.0 if len(ws) <= 2 else 0.6
        core = cores[lab]
        if cover + 1e-9 < need and core and core <= q and shared[frozenset(core)] == 1:
            # the line's own name, all of it named: its timing ("Granted during the period")
            # and its note ("Carrying amount (non-current (liabilities)/assets)") only qualify
            # it, unless another line shares that name and the note tells them apart. It
            # qualifies the line, no more: a line the question names better still ranks first
            cover = need
        if cover + 1e-9 < need:
            continue
        exact = 1.0 if phrase(lab) and f" {phrase(lab)} " in f" {phrase(low)} " else 0.0
        out.append((exact + cover + 0.1 * len(hit), lab))
    # a label whose words another fully named label contains ("Other income" inside "Total
    # other income, net") is not the one meant when the question names the longer one
    qw = {stem(w) for w in words(qtext)}
    full = [labels[lab] for sc, lab in out if labels[lab] <= q and {
        stem(w) for w in phrase(lab).split() if w not in GLUE} <= qw]
    out.sort(key=lambda x: (any(labels[x[1]] < f for f in full), -x[0], len(x[1])))
    return out


def _labels(cells: list[dict]) -> tuple[dict, dict, dict]:
    """(label -> its content words, label -> its core words, core -> how many labels share
    it) of the cells: read once per kept list (`kept`), else on each call."""
    entry = _KEPT.get(id(cells))
    if entry is not None and entry[0] is cells and entry[1] is not None:
        return entry[1]
    labels: dict[str, set[str]] = {}
    for c in cells:
        lab = label(c)
        if lab not in labels:
            labels[lab] = content(lab)
    cores = {lab: content(core_name(lab)) - TIMING for lab in labels}
    shared: dict[frozenset, int] = {}
    for ws in cores.values():
        shared[frozenset(ws)] = shared.get(frozenset(ws), 0) + 1
    if entry is not None and entry[0] is cells:
        entry[1] = (labels, cores, shared)
    return labels, cores, shared


# the period a label states of itself, after the line's name: "Final dividend *for the year
# ended 30 June 2018 of AU 14 cents (2017: AU 12 cents)*", "Interest paid *during the six
# months ended ...*" — it says which period the line covers (the columns already say it), not
# what the line is
_OWN_PERIOD = re.compile(r"\s+(?:for|in|during|over)\s+the\s+(?:\w+\s+){0,2}(?:year|period|"
                         r"quarter|months?|weeks?)\s+(?:ended|ending)\b.*$", re.I)


def core_name(lab: str) -> str:
    """A label's own name: without its notes in parentheses and without the period it states
    of itself (`_OWN_PERIOD`)."""
    return _OWN_PERIOD.sub(" ", re.sub(r"\(.*\)", " ", lab))


def phrase(s: str) -> str:
    """A label or question as plain words: "Sales per square metre ($)" -> "sales per square
    metre", so a label's notes and punctuation do not hide that the question quotes it; nor
    does a footnote mark glued to its end ("Current year1"), as in `words`."""
    s = re.sub(r"(?<=[a-z]{3})\d{1,2}\s*$", "", s.lower().replace("’", "'"))
    s = re.sub(r"\([^)]*\)?", " ", s)
    return " ".join(re.findall(r"[a-z0-9]+", s))


def year_of(c: dict) -> int | None:
    return _year(c["time_key"] or "")


@lru_cache(maxsize=1 << 12)
def _year(time_key: str) -> int | None:  # a few distinct keys, asked of every cell
    m = YEAR.search(time_key)
    return int(m.group(1)) if m else None


def scale(c: dict) -> str:
    """The cell's scale (`tableqa_scale.cell_scale`), read against its line item; a line
    under a per-share heading ("Basic" under "Net income per share:") is per share too."""
    sc = cell_scale(c, label(c))
    return "" if sc and sc != "percent" and per_unit(heading(c)) else sc


def heading(c: dict) -> str:
    """The section heading ingestion recorded for the cell's row ("Non-current:", the
    locator's "section", `ingest.sections`), or "". Kept on the cell (cells are cached per
    view), so reading every cell's heading on each question parses each locator once."""
    h = c.get("_heading")
    if h is None:
        try:
            h = str(json.loads(c["locator"] or "{}").get("section") or "")
        except (ValueError, AttributeError):
            h = ""
        c["_heading"] = h
    return h


# words of a line's label that say when, not what: "Granted during the period"
TIMING = {"period", "periods"}
GLUE = {"of", "the", "and", "in", "for", "a", "an", "to", "on", "at", "by", "from", "with"}


def position(question: str, lab: str) -> int:
    """Where the question names a label: the label itself, else its first content word (a
    word two labels share, "costs", says nothing about which one comes first)."""
    low = question.lower()
    exact = low.find(re.sub(r"\s+", " ", lab.lower().strip()))
    if exact >= 0:
        return exact
    for w in words(lab):
        if stem(w) in content(lab):
            m = re.search(rf"\b{re.escape(w)}", low)
            if m:
                return m.start()
    return 10 ** 6


def latest_common(by_label: dict, a: str, b: str) -> int | None:
    common = set(by_label.get(a, {})) & set(by_label.get(b, {}))
    return max(common) if common else None


_BRACKETED = re.compile(r"^[^\d(]*\(\s*[$€£]?\s*\d")


def share_sizes(parts: list[dict], whole: dict) -> list[float] | None:
    """The parts' figures as a share of `whole` takes them, or None. A deduction a table shows
    in brackets ("(111)" depreciation under a positive EBITDA, "(365,223)" shares vested in a
    roll-forward of a positive balance) is a part by its size — "what percentage of EBITDA is
    depreciation" asks how big it is, and that is how the dev set's analysts read all four
    such shares; a part of the other sign written with a minus, or any part against a zero or
    negative whole, is not read (which sign is meant is a guess)."""
    b = float(whole["value_num"] or 0)
    if not b:
        return None
    out = []
    for c in parts:
        v = float(c["value_num"])
        if (v < 0) != (b < 0):
            if b < 0 or not _BRACKETED.match(c["value_text"] or ""):
                return None
            v = -v
        out.append(v)
    return out
