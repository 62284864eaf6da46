"""The schema-aware question parser: a question -> a typed, inspectable `ParsedQuestion`.

Deterministic and offline. The question is matched against the knowledge base's own vocabulary
(`parse.catalog`): ids (E1005, SKU-100-W), claim entities and categorical values (longest
phrase first), tables named by their distinctive words ("sales", "ERP"), the measure (a claim
attribute or a numeric column, chosen as the longest vocabulary phrase whose words all occur
among the question's remaining words, or the vocabulary phrase the remaining words are part
of), periods (`ingest.timekeys`), the operation (total, average, median, count, max, min,
share, growth, CAGR, difference, ratio, stdev), comparison, trend, grouping and ranking with a
limit. Misspelt words are corrected against the vocabulary first (Damerau distance 1, or 2 for
words of eight letters or more) and every correction is recorded.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

from hyrag.answer.parse.catalog import STOPWORDS, Catalog, content, norm, singular, words
from ingest.intervals import parse_interval
from ingest.timekeys import find_time_expressions, year_key

_OPS = [  # (operation, words) checked in this order; the first hit wins
    ("cagr", {"cagr", "compound"}),
    ("growth", {"growth", "grow", "grew", "increase", "increased", "change", "changed",
                "decline", "declined", "rise", "rose"}),
    ("difference", {"difference", "gap", "minus"}),
    ("ratio", {"ratio"}),
    ("share", {"share", "percentage", "proportion", "fraction"}),
    ("stdev", {"stdev", "deviation", "volatility"}),
    ("median", {"median"}),
    ("average", {"average", "mean", "avg"}),
    ("count", {"count"}),
    ("total", {"total", "sum", "overall", "combined"}),
]
_MAX = {"highest", "largest", "most", "max", "maximum", "top", "biggest", "best"}
_MIN = {"lowest", "smallest", "least", "min", "minimum", "bottom", "worst", "fewest"}
_COMPARE = {"compare", "comparison", "versus", "vs", "against"}
_TREND = {"trend", "trended", "trending", "evolve", "evolved", "over"}
_RELATION = {"own", "owns", "owned", "owner", "subsidiary", "parent", "acquired", "acquire",
             "headquartered", "located", "partner", "partners"}
# Words a question uses around a measure that never name one (verbs of having and doing).
_FILLER = STOPWORDS | _MAX | _MIN | _COMPARE | _TREND | {w for _, ws in _OPS for w in ws} | {
    "employ", "employed", "record", "recorded", "enroll", "enrolled", "work", "works", "place",
    "placed", "get", "got", "had", "report", "reported", "single", "one", "region", "department",
    "name", "names", "x", "y", "did", "does", "value", "q", "fy", "fiscal", "year",
    "quarter", "month", "number", "figure", "state", "states", "were", "graduates_",
}
_ID = re.compile(r"\b[A-Za-z]{1,5}-?\d{2,}(?:-[A-Za-z0-9]+)*\b")
_TOPN = re.compile(r"\b(?:top|bottom|first|last)\s+(\d{1,3})\b", re.I)


@dataclass(frozen=True)
class EntityRef:
    name: str  # as the knowledge base spells it
    kind: str  # "id" | "entity" (a claim entity) | "value" (a categorical value only)
    columns: tuple[tuple[str, str], ...] = ()  # (table, column) holding it as a value
    matched: str = ""  # the words of the question it came from


@dataclass(frozen=True)
class Measure:
    name: str  # canonical attribute phrase ("graduate employment rate", "revenue")
    forms: tuple[str, ...]  # spellings in claims and columns ("Revenue", "revenue")
    tables: tuple[str, ...]  # typed tables with a numeric column of this name
    claim_tables: tuple[str, ...]  # tables ("" = prose) whose claims carry the attribute
    known: bool = True  # False: the phrase is in no table and no claim (a gap in waiting)


@dataclass(frozen=True)
class Period:
    key: str
    lo: float
    hi: float
    grain: str


@dataclass(frozen=True)
class ParsedQuestion:
    question: str
    words: tuple[str, ...]
    corrections: tuple[tuple[str, str], ...] = ()
    entities: tuple[EntityRef, ...] = ()
    measure: Measure | None = None
    scope: tuple[str, ...] = ()  # tables the question names
    count_table: str | None = None  # "how many orders" -> the table whose rows are orders
    periods: tuple[Period, ...] = ()
    interval: tuple[float, float] | None = None
    operation: str | None = None
    group_by: str | None = None  # a categorical column name ("region")
    ranking: tuple[str, int] | None = None  # ("desc" | "asc", limit)
    comparison: bool = False
    trend: bool = False
    relation: bool = False
    residual: tuple[str, ...] = ()  # words no vocabulary item explained
    counted: str = ""  # what a count question counts: "how many airlines have ..." -> airlines
    clarify: tuple[str, ...] = ()  # why the question cannot choose its evidence

    @property
    def sql_only(self) -> bool:
        """An aggregate over a typed table that no single claim answers."""
        if self.count_table:
            return True
        if not self.measure or not self.measure.tables:
            return False
        if self.operation in ("total", "average", "median", "count", "max", "min"):
            return not any(e.kind == "entity" for e in self.entities) or \
                sum(1 for e in self.entities if e.columns) > 1 or self.operation in (
                    "median", "max", "min", "count")
        return False

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


# "how many airlines have ...", "what is the number of counties ...": what is counted, up to
# the verb, preposition or qualifier that ends the noun phrase
_HOW_MANY = re.compile(r"^\s*(?:how\s+many|(?:what\s+(?:is|was)\s+)?the\s+(?:total\s+)?number\s+"
                       r"of)\s+(.+?)(?=\s+(?:did|does|do|were|was|are|is|have|has|had|in|on|at|"
                       r"of|for|from|by|with|that|who|which|whose|only|not|ever|than|more|less|"
                       r"over|under|above|below)\b|\s*\?|$)", re.I)


def counted_noun(question: str) -> str:
    """What a "how many N ..." question counts ("airlines"), or ""."""
    m = _HOW_MANY.match(question)
    return m.group(1).strip() if m and len(m.group(1).split()) <= 3 else ""


def parse(question: str, cat: Catalog, *, fiscal_year_start_month: int = 1) -> ParsedQuestion:
    text = question
    # 1. periods, then ids, are cut out of the text before words are matched
    periods: list[Period] = []
    blank = list(text)
    for s, e, k in find_time_expressions(text, fiscal_year_start_month=fiscal_year_start_month):
        iv = k.interval()
        if iv is None:
            continue
        periods.append(Period(k.key, iv[0], iv[1], k.grain))
        blank[s:e] = " " * (e - s)
    interval = parse_interval(text, latest=cat.latest,
                              fiscal_year_start_month=fiscal_year_start_month)
    entities: list[EntityRef] = []
    for m in _ID.finditer("".join(blank)):
        stored = cat.ids.get(m.group(0).lower())
        if stored:
            entities.append(EntityRef(stored, "id", matched=m.group(0)))
            blank[m.start():m.end()] = " " * (m.end() - m.start())
    raw = words("".join(blank))
    corrections: list[tuple[str, str]] = []
    toks: list[str] = []
    for w in raw:
        c = cat.correct(w)
        if c != w:
            corrections.append((w, c))
        toks.append(c if c in STOPWORDS else singular(c))
    used = [False] * len(toks)
    n = len(toks)
    # attribute phrases of two words or more are protected from entity and table matching
    # ("full-time faculty members" is a measure even though "full-time" is a value)
    by_content: dict[frozenset[str], str] = {}
    for key in cat.attributes:
        ck = content(key)
        if len(ck) >= 2:
            by_content.setdefault(ck, key)
    protected = [False] * n
    for size in range(min(7, n), 1, -1):
        for i in range(0, n - size + 1):
            ck = frozenset(t for t in toks[i:i + size] if t not in STOPWORDS)
            if len(ck) >= 2 and ck in by_content and toks[i] not in STOPWORDS \
                    and toks[i + size - 1] not in STOPWORDS:
                for j in range(i, i + size):
                    protected[j] = True
    measure_words = {w for a in cat.attributes for w in a.split()}
    how_many = bool(re.search(r"\bhow many\b|\bnumber of\b|\bcount\b", text, re.I))
    col_words = {norm(c) for ti in cat.tables.values() for c in ti.categorical}
    scope: list[str] = []
    count_table: str | None = None
    table_names = {norm(t) for t in cat.tables}
    # 2. operation, ranking, comparison, trend
    low = set(toks)
    operation = next((op for op, ws in _OPS if low & {singular(w) for w in ws} | (low & ws)),
                     None)
    topn = _TOPN.search(text)
    ranking: tuple[str, int] | None = None
    if low & _MAX or low & _MIN:
        direction = "asc" if low & _MIN and not low & _MAX else "desc"
        ranking = (direction, int(topn.group(1)) if topn else 1)
    comparison = bool(low & _COMPARE) or operation == "difference"
    trend = bool(low & {"trend", "trended", "trending", "evolve", "evolved"}) or (
        bool(re.search(r"\bhow did\b", text, re.I)) and len(periods) >= 2)
    relation = bool(low & _RELATION)
    # 3. entities and categorical values, longest phrase first; tables named by their
    # distinctive word ("sales", "ERP") once multi-word names are taken, unless the word is a
    # value followed by its column ("the Sales department")
    for size in range(min(6, n), 0, -1):
        if size == 1:
            _scope_words(toks, used, protected, cat, col_words, measure_words, how_many, scope)
        for i in range(0, n - size + 1):
            if any(used[i:i + size]) or any(protected[i:i + size]):
                continue
            gram = toks[i:i + size]
            if all(g in _FILLER for g in gram):
                continue
            key = " ".join(gram)
            if key in table_names and size > 1:
                continue  # "erp revenue": a table named, not an entity
            if key in cat.attributes and key not in cat.entities:
                continue  # a melted line item ("Revenue") is a measure, not an entity
            ents = cat.entities.get(key)
            vals = cat.values.get(key)
            if not ents and not vals:
                continue
            cols = tuple((t, c) for _, t, c in (vals or []))
            name = ents[0] if ents else vals[0][0]  # type: ignore[index]
            entities.append(EntityRef(name, "entity" if ents else "value", cols,
                                      " ".join(raw[i:i + size])))
            for j in range(i, i + size):
                used[j] = True
    ranks_rows = bool(low & (_MAX | _MIN)) and bool(re.search(r"\b(which|what|top)\b", text,
                                                                  re.I))
    if (how_many or ranks_rows) and count_table is None:
        for t in scope:
            if cat.tables[t].id_col and cat.tables[t].nouns & set(toks):
                count_table = t
                break
    for i in range(1, n):  # "the Enterprise segment": the column word after its value
        if toks[i] in col_words and used[i - 1] and not used[i]:
            used[i] = True
    # 4. "how many <rows>", table nouns, grouping
    id_lookup = any(e.kind == "id" for e in entities)
    for i, t in enumerate(toks):
        if used[i] or protected[i]:
            continue
        owners = [ti.name for ti in cat.tables.values() if t in ti.nouns and ti.id_col
                  and t not in {norm(c) for c in ti.numeric}]  # "visits" is a measure
        if owners and (how_many or ranks_rows) and count_table is None:
            count_table = owners[0]
            used[i] = True
        elif owners and id_lookup:
            used[i] = True  # "employee E1005": the noun of the id, not a measure
    group_by = None
    for gm in re.finditer(r"(?=\b(?:which|what|each|per|by|top\s+\d+|bottom\s+\d+)\s+"
                          r"(\w+)(?:\s+(\w+))?(?:\s+(\w+))?)", text, re.I):
        nxt = [singular(cat.correct(w.lower())) for w in gm.groups() if w]
        tries = [" ".join(nxt[j:j + 2]) for j in range(len(nxt) - 1)] + nxt[:2]
        g = next((x for x in tries if x in col_words), None)
        if g:
            group_by = g
            gw = g.split()
            for i in range(n - len(gw) + 1):
                if toks[i:i + len(gw)] == gw and not any(used[i:i + len(gw)]):
                    for j in range(i, i + len(gw)):
                        used[j] = True
                    break
            break
    if group_by and not (ranking or operation):
        ranking = None
    # 5. the measure: from the words nothing else explained
    residual = tuple(t for i, t in enumerate(toks) if not used[i] and t not in _FILLER)
    wide = tuple(t for i, t in enumerate(toks) if not used[i] and t not in STOPWORDS)
    if id_lookup and group_by:
        residual, group_by = (*residual, group_by), None  # "which department does E1007 ..."
    measure = _measure(residual, wide, cat, entities, scope, id_lookup=id_lookup)
    if measure and operation and not measure.tables and any(w in measure.name.split() for w in
                                     next(ws for op, ws in _OPS if op == operation)):
        operation = None  # "median starting salary" names the measure, not the operation
    if measure and measure.known and measure.tables and not entities and operation is None \
            and not group_by and not ranking and re.search(r"\bhow much\b", text, re.I):
        operation = "total"
    if measure and group_by and norm(measure.name) == group_by:
        group_by = None
    if count_table and measure and not measure.known:
        measure = None
    if count_table and operation is None:
        operation = "count"
    if count_table and measure and measure.known and measure.tables:
        count_table = None  # "how many conversions": a sum of the measure, not a row count
        operation = None if operation in (None, "count") else operation
        if operation is None and how_many:
            operation = "total"
    if ranking and not group_by and not entities and measure and measure.tables \
            and operation is None:
        operation = "max" if ranking[0] == "desc" else "min"
        ranking = None
    clarify = _clarify(measure, entities, periods, scope, operation, group_by, ranking,
                       count_table, comparison, cat)
    return ParsedQuestion(
        question=question, words=tuple(toks), corrections=tuple(corrections),
        entities=tuple(entities), measure=measure, scope=tuple(scope), count_table=count_table,
        periods=tuple(periods), interval=interval, operation=operation, group_by=group_by,
        ranking=ranking, comparison=comparison, trend=trend, relation=relation,
        residual=residual, clarify=clarify, counted=counted_noun(question),
    )


def _scope_words(toks, used, protected, cat, col_words, measure_words, how_many, scope):
    n = len(toks)
    for i, t in enumerate(toks):
        if used[i] or protected[i] or (i + 1 < n and toks[i + 1] in col_words and any(
                norm(c) == toks[i + 1] for _, _, c in cat.values.get(t, ()))):
            continue  # "the Sales department": a value followed by its own column
        for ti in cat.tables.values():
            # a table is named by the first word of its name ("sales", "erp", "customers")
            distinctive = [w for w in (singular(x) for x in words(ti.name))
                           if not w.isdigit() and len(w) > 1
                           and w not in {norm(c) for c in ti.numeric}][:1]
            if distinctive and t == distinctive[0] and ti.name not in scope:
                scope.append(ti.name)
                used[i] = True


def _measure(residual: tuple[str, ...], wide: tuple[str, ...], cat: Catalog,
             entities: list[EntityRef], scope: list[str], *, id_lookup: bool) -> Measure | None:
    if not residual:
        return None
    rs = set(residual)
    ws = set(wide) | rs
    names: dict[str, tuple[set[str], set[str], set[str]]] = {}  # key -> forms, tables, claim tabs
    for key, forms in cat.attributes.items():
        names[key] = (set(forms), set(), set(cat.attr_tables.get(key, ())))
    for ti in cat.tables.values():
        cols = ti.numeric + (ti.categorical if id_lookup else [])
        for col in cols:
            key = norm(col)
            f, tabs, ct = names.setdefault(key, (set(), set(), set()))
            f.add(col)
            if col in ti.numeric:
                tabs.add(ti.name)
    ent_names = {norm(e.name) for e in entities}

    def rank(key: str) -> tuple:
        forms, tabs, ctabs = names[key]
        in_scope = bool(scope) and bool(set(scope) & (tabs | ctabs))
        for_entity = any(key in cat.entity_attrs.get(e, ()) for e in ent_names)
        return (for_entity, in_scope, len(key.split()), len(tabs) + len(ctabs))

    full = [k for k in names if k and content(k) and content(k) <= ws and content(k) & rs]
    carried = {a for e in ent_names for a in cat.entity_attrs.get(e, ())}
    # "beds of Riverside Clinic": the entity's own "licensed beds" beats a column "beds" that
    # the entity has no value in
    held = [k for k in carried if k in names and rs <= content(k) and k not in full]
    if full and not any(rank(k)[0] for k in full) and held:
        best = min(held, key=lambda k: (len(k.split()), k))
    elif full:
        best = max(full, key=rank)
    else:
        part = [k for k in names if k and rs <= content(k)]
        if not part:
            return Measure(" ".join(residual), (), (), (), known=False)
        best = min(part, key=lambda k: (len(k.split()), k))
    forms, tabs, ctabs = names[best]
    return Measure(best, tuple(sorted(forms)), tuple(sorted(tabs)), tuple(sorted(ctabs)))


def _clarify(measure, entities, periods, scope, operation, group_by, ranking, count_table,
             comparison, cat: Catalog) -> tuple[str, ...]:
    why: list[str] = []
    if measure is None and count_table is None:
        if not entities or operation or group_by or ranking or comparison:
            why.append("the question names no measure the knowledge base holds "
                       "(for example revenue, salary, spend)")
        return tuple(why)
    if measure is None or not measure.known:
        return ()
    tables = [t for t in measure.tables if not scope or t in scope]
    claim_tabs = [t for t in measure.claim_tables if not scope or t in scope]
    if not entities and not scope and not periods and len(set(tables) | set(claim_tabs)) > 1 \
            and not count_table:
        why.append(f"'{measure.name}' is held by several tables "
                   f"({', '.join(sorted(set(tables) | {t or 'documents' for t in claim_tabs}))})"
                   " and the question names no table, entity or period")
    elif not periods and operation in ("total", "growth", "cagr") and not group_by:
        multi = [t for t in (tables or []) if cat.tables[t].multi_period]
        if multi and not any(e.kind == "id" for e in entities):
            t = cat.tables[multi[0]]
            why.append(f"a {operation} of '{measure.name}' needs a period: {t.name} covers "
                       f"{t.years[0]}-{t.years[1]}")  # type: ignore[index]
    return tuple(why)


def expand_years(periods: tuple[Period, ...]) -> tuple[Period, ...]:
    """"from 2022 to 2024" for a trend: every year between the two named years."""
    if len(periods) == 2 and periods[0].grain == periods[1].grain == "year":
        a, b = int(periods[0].key[:4]), int(periods[1].key[:4])
        if a < b <= a + 30:
            out = []
            for y in range(a, b + 1):
                k = year_key(y)
                iv = k.interval()
                out.append(Period(k.key, iv[0], iv[1], "year"))  # type: ignore[index]
            return tuple(out)
    return periods


__all__ = ["EntityRef", "Measure", "ParsedQuestion", "Period", "expand_years", "field", "parse"]
