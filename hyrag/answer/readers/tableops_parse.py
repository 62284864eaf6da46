"""Reading a question against one table's cells and headers (for `tableops_ops`).

A row-and-column question names rows by their cell values ("Crettyard", "lake tuz", "may
2010"), columns by their header words ("venue", "away team"), and numeric conditions ("more than
4 points", "at least 1,500", "before 1950"). This module finds those three things; nothing here
knows a particular table — the vocabulary is the table's own cells and headers, plus a small
lexicon of how questions name kinds of columns ("who" names a person, "deeper" a depth).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from hyrag.answer.programs.lexicon import singular
from hyrag.answer.readers.tableops import Grid


def wordset(text: str) -> frozenset[str]:
    """The words of a space-separated list (the vocabularies below read as prose)."""
    return frozenset(text.split())


STOP = wordset(
    "a an the of in on at for to from by with and or as is are was were be been do does did "
    "what which who whom whose when where why how much many there their its it this that these "
    "those than then has have had will would can could should into over under between during "
    "s me i we you he she they his her him them name list give tell show please table chart "
    "listed list total number amount count times time only other also any all each per one "
    "same more most less least first last next previous before after above below top bottom "
    "highest lowest largest smallest biggest greatest fewest best worst")
# Words that never name a cell value on their own (operators and question words).
_OPWORDS = STOP | wordset(
    "year years long far team game games player players people person place position "
    "difference average mean sum consecutive result won win wins lost loss")


def fold(text: str) -> str:
    s = unicodedata.normalize("NFKD", str(text))
    s = "".join(ch for ch in s if not unicodedata.combining(ch)).lower()
    s = re.sub(r"(?<=[a-z])['’]s\b", "", s)  # possessive: "piotr's" -> "piotr"
    s = _ORDINAL.sub(lambda m: f"{m.group(1)} {_ORDINALS[m.group(2)]}", s)
    return re.sub(r"\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)"
                  r"(?= place\b)", lambda m: _ORDINALS[m.group(1)], s)


_ORDINALS = {w: f"{i}{'st' if i == 1 else 'nd' if i == 2 else 'rd' if i == 3 else 'th'}"
             for i, w in enumerate(("first", "second", "third", "fourth", "fifth", "sixth",
                                    "seventh", "eighth", "ninth", "tenth"), start=1)}
# "placed first", "finished third": a position a cell states ("1st"), not the first row
_ORDINAL = re.compile(r"\b(placed|place|finished|finishing|came|come|ranked|rank|won|"
                      r"got|took|take|taking|position)\s+(first|second|third|fourth|fifth|"
                      r"sixth|seventh|eighth|ninth|tenth)\b")


def tokens(text: str) -> list[str]:
    return list(_tokens(str(text)))


# memoised like tableqa_rows.words: every cell of a grid is tokenised when it is laid out and
# again for its value index, and a table repeats its cells' texts ("North", "Online") — ~0.4 s
# of a fresh `hyrag ask` on the sample knowledge base went to folding the same strings
@lru_cache(maxsize=1 << 17)
def _tokens(text: str) -> tuple[str, ...]:
    return tuple(re.findall(r"[a-z0-9]+", fold(text).replace(",", "")))


_NUM = re.compile(r"^[-+]?\$?\s*(\d[\d,]*(?:\.\d+)?|\.\d+)")
_CLOCK = re.compile(r"^(\d+):(\d{2})(?::(\d{2}(?:\.\d+)?))?|^(\d+):(\d{2}\.\d+)")


def parse_number(s: str) -> float | None:
    """The number a cell's text starts with ("7,169" -> 7169, "5,000 m" -> 5000, "2:37.70" ->
    157.7 seconds, "1st" -> 1); None for text."""
    t = (s or "").strip().replace("−", "-").replace("–", "-")
    m = _CLOCK.match(t)
    if m:
        parts = [float(x) for x in re.findall(r"\d+(?:\.\d+)?", m.group(0))]
        v = 0.0
        for p in parts:
            v = v * 60 + p
        return v
    m = _NUM.match(t)
    if not m:
        return None
    try:
        v = float(m.group(1).replace(",", ""))
    except ValueError:
        return None
    return -v if t.startswith("-") else v


def cell_number(g: Grid, i: int, j: int) -> float | None:
    v = g.values[i][j]
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    return parse_number(g.text[i][j])


def column_numeric(g: Grid, j: int) -> bool:
    """A column a comparison can rank: typed numeric, or text cells that mostly start with a
    number ("5,000 m", "1st", "2:37.70")."""
    key = ("numeric", j)
    if key not in g.memo:
        vals = [g.text[i][j] for i in range(g.n_rows) if g.text[i][j]]
        g.memo[key] = g.numeric(j) or bool(vals) and sum(
            parse_number(v) is not None for v in vals) >= 0.8 * len(vals)
    return g.memo[key]


@dataclass(frozen=True)
class Match:
    """A cell value the question names: the question span and the (row, column) cells."""

    start: int
    end: int
    cols: tuple[int, ...]
    rows: frozenset[int]
    full: bool  # every word of the cell is in the question
    text: str


def _compact(ts: list[str]) -> str:
    return "".join(ts)


_GRAMMAR = wordset("a an the of in on at for to from by with and or as is are was were be "
                     "s per")


def header_tokens(g: Grid, j: int) -> set[str]:
    key = ("header", j)
    if key not in g.memo:
        g.memo[key] = {singular(w) for w in tokens(g.headers[j]) if w not in _GRAMMAR}
    return g.memo[key]


def year_column(g: Grid, j: int) -> bool:
    """A column of years or dates: numbers in it are periods, never amounts to add up."""
    return g.roles[j] == "time" or _years_in(g, j) and bool(
        header_tokens(g, j) & {"year", "season", "date", "founded", "built", "established",
                               "election", "born", "died", "opened", "released"})


def match_values(q: list[str], g: Grid, blocked: set[int]) -> list[Match]:
    """Cell values named in the question, longest span first, without overlaps. A full match
    is the whole cell ("bc lions"); a partial one is a distinctive run of a longer cell's words
    ("crettyard" for "Crettyard GAA", "may 2010" for "12 May 2010" gives two)."""
    full, part = _value_index(g)
    heads = set().union(*(header_tokens(g, j) for j in range(len(g.cols))))
    found: list[Match] = _date_matches(q, g, blocked)
    used = set(blocked) | {k for m in found for k in range(m.start, m.end)}
    n = len(q)
    for size in range(min(10, n), 0, -1):
        for s in range(0, n - size + 1):
            span = set(range(s, s + size))
            if span & used:
                continue
            run = q[s:s + size]
            if size == 1 and (run[0] in _OPWORDS or (run[0].isdigit() and len(run[0]) < 3)):
                continue
            one = [*run[:-1], singular(run[-1])]  # "unionists" names "Unionist"
            if one == run or singular(run[-1]) in heads:
                one = run  # "plugs" of the header "IEC World Plugs" names the column
            hit = full.get(_compact(run)) or full.get(_compact(one))
            is_full = hit is not None
            if hit is None:
                hit = _partial(part.get(" ".join(run)) or part.get(" ".join(one)), q, s,
                               s + size)
                if not hit or (sum(len(r) for r in hit.values()) > max(3, g.n_rows // 2)
                               and not run[0].isdigit() and run[0] not in _MONTH_NAMES):
                    continue  # a word most rows share names no row (a year or month may)
            rows = frozenset().union(*hit.values())
            found.append(Match(s, s + size, tuple(sorted(hit)), rows, is_full, " ".join(run)))
            used |= span
    found.sort(key=lambda m: m.start)
    return found


_MONTHS = {m: i for i, ms in enumerate((
    "january jan", "february feb", "march mar", "april apr", "may", "june jun", "july jul",
    "august aug", "september sep sept", "october oct", "november nov", "december dec"),
    start=1) for m in ms.split()}
_MONTH_NAMES = wordset("january february march april may june july august september october "
                       "november december")


def _date_matches(q: list[str], g: Grid, blocked: set[int]) -> list[Match]:
    """Dates the question names ("6 february 1922", "may 2010", "november of 1992", "in
    january") matched against a column of typed dates, which the typed table stores as
    dates, not as the words the file wrote. A month alone must be spelled out and not be
    "may" or "march" (a verb as often as a month)."""
    cols = [j for j in range(len(g.cols)) if any(hasattr(v[j], "month") and hasattr(
        v[j], "year") for v in g.values[:50])]
    if not cols:
        return []
    out: list[Match] = []
    used = set(blocked)
    for k, w in enumerate(q):
        mon = _MONTHS.get(w)
        if mon is None or k in used:
            continue
        s, e = k, k + 1
        day = year = None
        if k and q[k - 1].isdigit() and len(q[k - 1]) <= 2:
            s, day = k - 1, int(q[k - 1])
        elif e < len(q) and q[e].isdigit() and len(q[e]) <= 2:
            day, e = int(q[e]), e + 1
        if e < len(q) and q[e] == "of" and e + 1 < len(q) and len(q[e + 1]) == 4:
            e += 1
        if e < len(q) and q[e].isdigit() and len(q[e]) == 4:
            year, e = int(q[e]), e + 1
        if day is None and year is None and (w not in _MONTH_NAMES or w in ("may", "march")):
            continue
        if used & set(range(s, e)):
            continue
        for j in cols:
            rows = frozenset(i for i in range(g.n_rows) if _on(g.values[i][j], day, mon, year))
            if rows:
                out.append(Match(s, e, (j,), rows, True, " ".join(q[s:e])))
                used |= set(range(s, e))
                break
    return out


def _on(v: object, day: int | None, mon: int, year: int | None) -> bool:
    return hasattr(v, "month") and v.month == mon and (day is None or v.day == day) and (
        year is None or v.year == year)


def _value_index(g: Grid) -> tuple[dict, dict]:
    """Whole cells (compacted) and runs of up to three words of longer cells -> their cells;
    built once per table (the grid is cached per knowledge-base generation)."""
    if "values" in g.memo:
        return g.memo["values"]
    full: dict[str, dict[int, set[int]]] = {}
    part: dict[str, dict[int, dict[int, tuple[str, str]]]] = {}  # run -> col -> row -> nbrs
    head_words = set().union(*(header_tokens(g, j) for j in range(len(g.cols))))
    head_phrases = {_compact(tokens(h)) for h in g.headers}  # "in service" names a column
    for j in range(len(g.cols)):
        for i in range(g.n_rows):
            cell = g.text[i][j] or ""
            lines = [x for x in cell.split("\n") if x.strip()]
            # a cell of several lines lists several values ("Gold" holding a nation and its
            # skaters): each line is a value of its own
            for piece in [cell, *lines] if len(lines) > 1 else [cell]:
                _index_value(g, j, i, piece, full, part, head_words, head_phrases)
    g.memo["values"] = (full, part)
    return full, part


def _index_value(g: Grid, j: int, i: int, text: str, full: dict, part: dict,
                 head_words: set[str], head_phrases: set[str]) -> None:
    """One value of cell (i, j): whole, whole without its bracketed note, and its runs of up
    to three words with the words around each run (so a run can be told from a longer name)."""
    ts = tokens(text)
    if not ts or len(ts) > 12:
        return
    if all(t.isdigit() for t in ts) and not _year_like(g, j, ts) and not (
            g.roles[j] == "time" and any(len(t) == 4 for t in ts)):
        return  # a bare number names no row; a date ("1944-04-21") may
    if _compact(ts) not in head_phrases:
        full.setdefault(_compact(ts), {}).setdefault(j, set()).add(i)
    bare = tokens(_ANNOTATION.sub(" ", text))
    if bare and bare != ts and _compact(bare) not in head_phrases:
        full.setdefault(_compact(bare), {}).setdefault(j, set()).add(i)
    for n in range(1, min(4, len(ts))):
        for k in range(len(ts) - n + 1):
            run = ts[k:k + n]
            if all(w in _OPWORDS or singular(w) in head_words for w in run):
                continue
            if n == 1 and (len(run[0]) < 3 or (run[0].isdigit() and len(run[0]) != 4)):
                continue
            nb = (ts[k - 1] if k else "", ts[k + n] if k + n < len(ts) else "")
            part.setdefault(" ".join(run), {}).setdefault(j, {}).setdefault(i, nb)


# A trailing note in brackets ("Varbergs GIF (D3)", "United States (USA)", "Lyon [a]"): a
# reader names the row without it, so the cell also matches whole without it.
_ANNOTATION = re.compile(r"\s*[(\[][^()\[\]]*[)\]]\s*$")


def _partial(hit: dict[int, dict[int, tuple[str, str]]] | None, q: list[str], s: int,
             e: int) -> dict[int, set[int]]:
    """The cells a run of a longer cell's words names, unless the question goes on with a
    different word where the cell goes on ("kestrel dynamics" is not "Kestrel Corp")."""
    out: dict[int, set[int]] = {}
    before = q[s - 1] if s else ""
    after = q[e] if e < len(q) else ""
    for j, rows in (hit or {}).items():
        for i, (nb_before, nb_after) in rows.items():
            if nb_after and after and after not in STOP and after != nb_after \
                    and not after.isdigit():
                continue
            if nb_before and before and before not in STOP and before != nb_before \
                    and not before.isdigit() and not nb_before.isdigit():
                continue
            out.setdefault(j, set()).add(i)
    return out


def _year_like(g: Grid, j: int, ts: list[str]) -> bool:
    return len(ts) == 1 and len(ts[0]) == 4 and ts[0][:2] in ("18", "19", "20") and (
        g.roles[j] == "time" or bool(header_tokens(g, j) & {"year", "season", "date"})
        or _years_in(g, j))


def column_mentions(q: list[str], g: Grid, skip: set[int]) -> dict[int, float]:
    """Columns whose header words the question uses (outside the spans in `skip`): the share
    of the header's words found, plus the synonyms of a few kinds of column."""
    qs = {singular(w) for k, w in enumerate(q) if k not in skip and not w.isdigit()}
    out: dict[int, float] = {}
    for j in range(len(g.cols)):
        hw = {w for w in header_tokens(g, j) if not w.isdigit()}
        if not hw:
            continue
        hit = {h for h in hw if any(same_word(h, w) for w in qs)}
        if hit:
            out[j] = len(hit) / len(hw) + 0.01 * len(hit)
    return out


# Inflections a prefix does not catch ("losses" names the column "Lost").
_FORMS = {"loss": "lost", "lose": "lost", "win": "won", "draw": "drawn", "tie": "tied",
          "goal": "gf", "born": "birth", "die": "death", "died": "death", "elected": "election",
          "run": "hr", "bear": "born", "athlete": "name", "player": "name", "old": "age"}


def same_word(a: str, b: str) -> bool:
    """One word, or one a prefix of the other ("attend" / "attendance"), or an inflection."""
    if a == b or _FORMS.get(a) == b or _FORMS.get(b) == a:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 5 and long_.startswith(short)


# How questions name kinds of columns.
KINDS: dict[str, frozenset[str]] = {
    "person": wordset("name player driver rider athlete winner artist candidate member "
                        "competitor jockey director coach manager pilot nominee person "
                        "cyclist runner swimmer skater boxer wrestler author composer singer "
                        "actor actress holder champion incumbent representative senator "
                        "governor president minister leader scorer recipient"),
    "time": wordset("year season date years seasons dates time held"),
    "place": wordset("venue location city place site country town stadium host "
                       "ground arena state county region nation"),
    "duration": wordset("time duration length tenure term years"),
    "team": wordset("team club opponent opponents side squad franchise visitor"),
}
COMPARATIVES: dict[str, tuple[frozenset[str], str]] = {
    # word -> (header words it measures by, "desc" when the largest wins)
    "deeper": (frozenset({"depth", "deep", "deepest"}), "desc"),
    "deepest": (frozenset({"depth", "deep"}), "desc"),
    "taller": (frozenset({"height", "tall", "floors"}), "desc"),
    "tallest": (frozenset({"height", "tall", "floors"}), "desc"),
    "longer": (frozenset({"length", "long", "distance", "duration"}), "desc"),
    "longest": (frozenset({"length", "long", "distance", "duration"}), "desc"),
    "shortest": (frozenset({"length", "height", "distance", "duration"}), "asc"),
    "faster": (frozenset({"speed", "knot", "time"}), "desc"),
    "fastest": (frozenset({"speed", "knot", "time"}), "desc"),
    "heavier": (frozenset({"weight", "mass"}), "desc"),
    "heaviest": (frozenset({"weight", "mass"}), "desc"),
    "weighs": (frozenset({"weight", "mass"}), "desc"),
    "larger": (frozenset({"area", "size", "population", "capacity"}), "desc"),
    "bigger": (frozenset({"area", "size", "population", "capacity"}), "desc"),
    "older": (frozenset({"age", "year", "built", "founded", "date", "born"}), "asc"),
    "oldest": (frozenset({"year", "built", "founded", "date", "born", "established"}), "asc"),
    "newest": (frozenset({"year", "built", "founded", "date", "established"}), "desc"),
    "recent": (frozenset({"year", "date", "season"}), "desc"),
    "populous": (frozenset({"population"}), "desc"),
    "higher": (frozenset(), "desc"),
    "more": (frozenset(), "desc"),
    "greater": (frozenset(), "desc"),
    "less": (frozenset(), "asc"),
    "fewer": (frozenset(), "asc"),
    "lower": (frozenset(), "asc"),
}
MAXWORDS = wordset("most highest largest biggest greatest maximum max top best longest "
                     "tallest deepest fastest heaviest oldest newest latest leads leading")
# Words that put rank 1 first: "the top nation", "what nation leads the medal count"
TOPWORDS = wordset("top best highest ranked leads leading better")
MINWORDS = wordset("least lowest smallest fewest minimum min worst shortest")
RANKWORDS = wordset("rank ranking position place pos pl finish placing seed")


def kind_columns(g: Grid, kind: str) -> list[int]:
    ws = KINDS[kind]
    return [j for j in range(len(g.cols)) if header_tokens(g, j) & ws]


def time_columns(g: Grid) -> list[int]:
    """Columns of periods: the time role, headers like "Year" / "Season" / "Date", then
    columns whose cells are years ("Release" holding 2005)."""
    out = [j for j in range(len(g.cols)) if g.roles[j] == "time"]
    out += [j for j in kind_columns(g, "time") if j not in out]
    out += [j for j in range(len(g.cols)) if j not in out and _years_in(g, j)
            and not g.numeric(j) or j not in out and g.numeric(j) and _all_years(g, j)]
    return out


def _all_years(g: Grid, j: int) -> bool:
    xs = [g.values[i][j] for i in range(g.n_rows) if g.values[i][j] is not None]
    return bool(xs) and all(isinstance(x, float) and x.is_integer() and 1700 <= x <= 2100
                            for x in xs)


_NAMING = wordset("name title team club country nation player driver "
                                   "rider athlete artist song album film player")


def key_column(g: Grid, avoid: set[int]) -> int | None:
    """The column that names a row: a text column headed like a name ("Name", "Player",
    "Title", "Team") or the first whose values are mostly distinct and not numbers."""
    named = [j for j in range(len(g.cols)) if j not in avoid and header_tokens(g, j) & (
        _NAMING | KINDS["person"]) and not column_numeric(g, j)]
    for j in named:  # a naming header whose values mostly differ ("Nation" repeating
        vals = [g.text[i][j] for i in range(g.n_rows) if g.text[i][j]]  # names no row)
        if vals and len(set(vals)) >= 0.6 * len(vals):
            return j
    best = None
    for j in range(len(g.cols)):
        if j in avoid or g.roles[j] in ("numeric", "time"):
            continue
        vals = [g.text[i][j] for i in range(g.n_rows) if g.text[i][j]]
        if not vals or column_numeric(g, j):
            continue
        if header_tokens(g, j) & {"no", "notes", "note", "ref", "reference", "report"}:
            continue
        if len(set(vals)) >= 0.7 * len(vals):
            return j
        best = j if best is None else best
    return named[0] if named else best


@dataclass(frozen=True)
class Condition:
    """A numeric condition on one column: rows whose number satisfies `op value`."""

    col: int
    op: str  # > >= < <= == range
    value: float
    hi: float | None = None
    span: tuple[int, int] = (0, 0)

    def test(self, x: float | None) -> bool:
        if x is None:
            return False
        if self.op == "range":
            return self.value <= x <= (self.hi if self.hi is not None else self.value)
        return {">": x > self.value, ">=": x >= self.value, "<": x < self.value,
                "<=": x <= self.value, "==": x == self.value}[self.op]


_CMP = [
    (r"(?:more|greater|higher|larger|bigger|longer|taller|over|above|exceeding|exceeded)"
     r"(?: than)? (\d[\d,.]*)", ">"),
    (r"(?:at least|no less than|minimum of|a minimum of) (\d[\d,.]*)", ">="),
    (r"(\d[\d,.]*)(?: \w+){0,2} or (?:more|greater|higher|above|over)", ">="),
    (r"(?:less|fewer|lower|smaller|shorter|under|below)(?: than)? (\d[\d,.]*)", "<"),
    (r"(?:at most|no more than|maximum of|a maximum of|up to) (\d[\d,.]*)", "<="),
    (r"(\d[\d,.]*)(?: \w+){0,2} or (?:less|fewer|lower|below|under)", "<="),
    (r"(?:before|prior to|earlier than)(?: the (?:year|season))? (\d{4})", "<"),
    (r"(?:after|since|later than)(?: the (?:year|season))? (\d{4})", ">"),
    (r"in the (\d{2,4}) ?s\b", "decade"),
    (r"(\d[\d,.]*)(?= [a-z])", "=="),  # "all 225 laps", "79 points": if a column follows
]


def numeric_conditions(qtext: str, q: list[str], g: Grid) -> list[Condition]:
    """Numeric conditions and the column each applies to: a numeric column named next to the
    number, else one named anywhere, else a year column for a year, else the only numeric
    column whose values the condition splits."""
    low = " ".join(q)
    out: list[Condition] = []
    taken: list[tuple[int, int]] = []
    for pat, op in _CMP:
        for m in re.finditer(r"\b" + pat, low):
            if any(a <= m.start() < b for a, b in taken):
                continue
            raw = m.group(1).replace(",", "")
            try:
                val = float(raw.rstrip("."))
            except ValueError:
                continue
            s_tok = len(low[:m.start()].split())
            e_tok = s_tok + len(m.group(0).split())
            hi = None
            if op == "decade":
                base = val if val >= 100 else 1900 + val
                width = 100 if base % 100 == 0 and val >= 100 else 10
                op, val, hi = "range", base, base + width - 1
            col = _condition_column(q, g, s_tok, e_tok, val, op)
            if col is None:
                continue
            taken.append((m.start(), m.end()))
            if op == "==":
                e_tok += 1  # "225 laps": the column word belongs to the condition
            out.append(Condition(col, op, val, hi, (s_tok, e_tok)))
    return out


def _condition_column(q: list[str], g: Grid, s: int, e: int, val: float, op: str
                      ) -> int | None:
    nums = [j for j in range(len(g.cols)) if column_numeric(g, j)]
    if op == "==":
        after = [singular(w) for w in q[e:e + 2]]
        hit = [j for j in nums if any(same_word(h, w) for h in header_tokens(g, j)
                                      for w in after[:1] if not w.isdigit())]
        return hit[0] if len(hit) == 1 else None
    yearish = 1000 <= val <= 2100 and float(val).is_integer()
    times = [j for j in time_columns(g) if j in nums or _years_in(g, j)]
    if not yearish:  # "at least 90 years old when they died": an age, not a date of death
        nums = [j for j in nums if j not in times and not year_column(g, j)]
    if op in ("<", ">") and yearish and times and any(
            w in q[max(s - 1, 0):e] for w in ("before", "after", "since", "prior", "earlier",
                                                "later")):
        return times[0]
    if op == "range":
        return times[0] if times else None
    near = {singular(w) for w in q[max(0, s - 4):min(len(q), e + 3)] if not w.isdigit()}
    scored = [(sum(any(same_word(h, w) for w in near) for h in header_tokens(g, j)), j)
              for j in nums]
    scored = [x for x in scored if x[0] > 0]
    if scored:
        return max(scored)[1]
    wide = column_mentions(q, g, set(range(s, e)))
    named = [j for j in wide if j in nums]
    if len(named) == 1:
        return named[0]
    split = []
    for j in nums:
        xs = [cell_number(g, i, j) for i in range(g.n_rows)]
        c = Condition(j, op, val)
        k = sum(c.test(x) for x in xs)
        if 0 < k < g.n_rows:
            split.append(j)
    return split[0] if len(split) == 1 else None


def _years_in(g: Grid, j: int) -> bool:
    key = ("years", j)
    if key not in g.memo:
        vals = [g.text[i][j] for i in range(min(g.n_rows, 30)) if g.text[i][j]]
        g.memo[key] = bool(vals) and sum(bool(re.search(r"\b(1[6-9]|20)\d{2}\b", v))
                                         for v in vals) >= 0.8 * len(vals)
    return g.memo[key]


def year_of(text: str) -> float | None:
    m = re.search(r"\b(1[6-9]\d{2}|20\d{2})\b", text or "")
    return float(m.group(1)) if m else None
