"""The vocabulary a question is parsed against, read from one knowledge base.

Tables with their roles (id, time, categorical, numeric columns), every categorical value, every
claim entity and attribute, the time keys each table holds — and a typo corrector over the words
of all of them (a symmetric-delete index: a word of the question that is not in the vocabulary is
mapped to the vocabulary word within Damerau distance 1, or 2 for words of eight letters or more).
Built once per knowledge-base generation (sources and their versions), so a new ingest is seen,
and saved in the knowledge-base folder (`hyrag.kbcache`), so the next process reads it instead
of building it again (~0.3-1.3 s of a fresh `hyrag ask` on the sample knowledge base).
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from hyrag.answer.programs.lexicon import singular
from ingest.modelclaims import own_column, own_name
from ingest.timekeys import TimeKey, parse_time_key

_WORD = re.compile(r"[a-z0-9]+")
# Grammar and question words: never typo-corrected, never part of an attribute phrase.
STOPWORDS = frozenset(["a", "an", "the", "of", "in", "on", "at", "for", "to", "from", "by", "with", "and", "or", "as", "is", "are", "was", "were", "be", "been", "being", "do", "does", "did", "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "much", "many", "much", "there", "their", "its", "it", "this", "that", "these", "those", "than", "then", "vs", "versus", "per", "each", "all", "any", "some", "me", "show", "tell", "give", "list", "please", "i", "we", "our", "us", "you", "your", "have", "has", "had", "will", "would", "can", "could", "should", "about", "into", "over", "under", "between", "during", "since", "until", "through", "up", "down", "across", "value", "figure", "number", "amount", "s"]) - {"amount"}
_AGG_WORDS = frozenset(["total", "sum", "average", "mean", "avg", "median", "count", "max", "maximum", "min", "minimum", "highest", "lowest", "largest", "smallest", "most", "least", "top", "bottom", "share", "percentage", "growth", "grow", "grew", "increase", "change", "changed", "cagr", "difference", "ratio", "compare", "comparison", "trend", "trended", "rank", "ranking", "standard", "deviation", "stdev", "best", "worst", "biggest"])


def words(text: str) -> list[str]:
    """Lower-case word tokens ("student-to-faculty" -> student, to, faculty; "E1005" -> e1005)."""
    return _WORD.findall(text.lower().replace("_", " "))


def norm_tokens(text: str) -> tuple[str, ...]:
    return tuple(w if w in STOPWORDS else singular(w) for w in words(text))


def content(key: str) -> frozenset[str]:
    """The words of a normalised phrase that carry meaning (stopwords dropped)."""
    return frozenset(w for w in key.split() if w not in STOPWORDS)


def norm(text: str) -> str:
    return " ".join(norm_tokens(text))


def osa(a: str, b: str) -> int:
    """Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions)."""
    if a == b:
        return 0
    la, lb = len(a), len(b)
    d = [[0] * (lb + 1) for _ in range(la + 1)]
    for i in range(la + 1):
        d[i][0] = i
    for j in range(lb + 1):
        d[0][j] = j
    for i in range(1, la + 1):
        for j in range(1, lb + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[la][lb]


def max_typos(word: str) -> int:
    return 0 if len(word) < 4 else (1 if len(word) < 8 else 2)


def _deletes(w: str, n: int) -> set[str]:
    out = {w}
    frontier = {w}
    for _ in range(n):
        nxt = set()
        for x in frontier:
            for i in range(len(x)):
                nxt.add(x[:i] + x[i + 1:])
        out |= nxt
        frontier = nxt
    return out


@dataclass
class TableInfo:
    name: str
    n_rows: int
    id_col: str | None = None
    time_col: str | None = None
    time_dtype: str = ""
    numeric: list[str] = field(default_factory=list)
    categorical: list[str] = field(default_factory=list)
    units: dict[str, str] = field(default_factory=dict)
    time_keys: dict[str, TimeKey] = field(default_factory=dict)  # VARCHAR period values
    years: tuple[int, int] | None = None  # first and last year the time column covers
    nouns: frozenset[str] = frozenset()  # "order" for sales (order_id), "sale" for sales

    @property
    def multi_period(self) -> bool:
        return self.years is not None and self.years[0] != self.years[1]


@dataclass
class Catalog:
    tables: dict[str, TableInfo]
    values: dict[str, list[tuple[str, str, str]]]  # norm(value) -> [(value, table, column)]
    entities: dict[str, list[str]]  # norm(entity) -> [entity spellings in claims]
    attributes: dict[str, set[str]]  # norm(attribute) -> {attribute spellings}
    attr_tables: dict[str, set[str]]  # norm(attribute) -> tables ("" for prose) holding it
    ids: dict[str, str]  # lower-case id value -> id as stored (E1005, SKU-100-W)
    # norm(entity) -> norm(attributes) its claims carry (read-only: a catalog read back from
    # the folder shares one frozenset among the entities carrying the same attributes)
    entity_attrs: dict[str, set[str]]
    latest: TimeKey | None
    vocab: Counter = field(default_factory=Counter)
    _deletes: dict[str, set[str]] = field(default_factory=dict)

    def build_index(self) -> None:
        idx: dict[str, set[str]] = defaultdict(set)
        for w in self.vocab:
            if w.isdigit() or len(w) < 4:
                continue
            for d in _deletes(w, max_typos(w)):
                idx[d].add(w)
        self._deletes = dict(idx)

    def correct(self, word: str) -> str:
        """The vocabulary word this (possibly misspelt) word stands for, or the word itself."""
        if word in self.vocab or singular(word) in self.vocab or word in STOPWORDS \
                or word in _AGG_WORDS or any(c.isdigit() for c in word) or len(word) < 4:
            return word
        n = max_typos(word)
        cands: set[str] = set()
        for d in _deletes(word, n):
            cands |= self._deletes.get(d, set())
        best = None
        for c in cands:
            dist = osa(word, c)
            if dist <= max_typos(c) and dist <= n:
                key = (dist, -self.vocab[c], c)
                if best is None or key < best[0]:
                    best = (key, c)
        return best[1] if best else word


_CACHE: dict[tuple, Catalog] = {}
_CACHE_SIZE = 4


def generation(con) -> tuple:
    return tuple(con.execute(
        "SELECT count(*), max(ingested_at), count(*) FILTER (WHERE status = 'current') "
        "FROM sources").fetchone())


# (connection, its view key) while one question is read: `pinned_view`
_PINNED: ContextVar[tuple[object, tuple] | None] = ContextVar("hyrag_pinned_view", default=None)


@contextmanager
def pinned_view(con) -> Iterator[tuple]:
    """Within this block `view_key(con)` is computed once: the readers of one question (the
    reader stage asks up to seven, each reading its cache through `per_view`) see one knowledge
    base — nothing is ingested while a question is read — and the key's four queries cost
    ~2 ms each on the sample knowledge base, several times per question before. Another
    connection (another subject's view) still gets its own key."""
    key = view_key(con)
    token = _PINNED.set((con, key))
    try:
        yield key
    finally:
        _PINNED.reset(token)


def view_key(con) -> tuple:
    """What a cache of table contents must be keyed by: the database, its generation (sources
    and versions, as the catalog keys its cache), and what this reader may see — the tables and
    the sources behind them, so a subject never gets a cache filled through another's view (two
    subjects can see the same table names and different versions of one file)."""
    pin = _PINNED.get()
    if pin is not None and pin[0] is con:
        return pin[1]
    # one query (four before, ~2 ms each): the files attached (PRAGMA database_list), the
    # generation, the tables and the sources
    paths, n, last, current, tables, sources = con.cursor().execute(
        "SELECT (SELECT list(path ORDER BY database_oid) FROM duckdb_databases() "
        "WHERE NOT internal), count(*), max(ingested_at), "
        "count(*) FILTER (WHERE status = 'current'), "
        "(SELECT list(table_name ORDER BY table_name) FROM kb_tables), "
        "list(source_id ORDER BY source_id) FROM sources").fetchone()
    return (tuple(paths or ()), (n, last, current), tuple(tables or ()), tuple(sources or ()))


def per_view(cache: dict, con, build: Callable, size: int = 4):
    """`build(con)`, kept in `cache` under `view_key(con)` — the table and prose readers' one
    cache of what they read from a store (a few views at once: the oldest leaves first)."""
    key = view_key(con)
    if key not in cache:
        while len(cache) >= size:
            cache.pop(next(iter(cache)))
        cache[key] = build(con)
    return cache[key]


CACHE_NAME = "answer_catalog"  # KB/cache/answer_catalog.json
# what the saved catalog's layout depends on: this module (builder, encoder) and TimeKey
_CODE = ("hyrag.answer.parse.catalog", "ingest.periods")


def load_catalog(store) -> Catalog:
    """The catalog of `store` (a Store or a subject's view of one): from memory, else, for a
    whole knowledge base, from its folder (`hyrag.kbcache`), else built (and saved)."""
    from hyrag import kbcache

    con = store.con.cursor()
    gen = generation(con)
    key = (str(store.folder), gen)
    cat = _CACHE.get(key)
    if cat is None:
        saved = kbcache.persistable(store)
        disk_key = kbcache.cache_key(store, _CODE, gen) if saved else ""
        doc = kbcache.read_json(store, CACHE_NAME, disk_key) if saved else None
        cat = decode_catalog(doc) if doc is not None else None
        if cat is None:
            cat = _build(con)
            if saved:
                kbcache.write_json(store, CACHE_NAME, disk_key, encode_catalog(cat))
        while len(_CACHE) >= _CACHE_SIZE:  # a few: one per subject's view (issue 8)
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = cat
    return cat


def _tk(k: TimeKey | None) -> list | None:
    if k is None:
        return None
    return [k.key, k.grain, k.start and k.start.isoformat(), k.end and k.end.isoformat(),
            k.order_key]


def _untk(v: list | None) -> TimeKey | None:
    if v is None:
        return None
    key, grain, start, end, ok = v
    return TimeKey(key, grain, start and dt.date.fromisoformat(start),
                   end and dt.date.fromisoformat(end), ok)


def encode_catalog(cat: Catalog) -> dict:
    """The catalog as JSON values (sets as sorted lists; dict order kept, it is insertion
    order the parser may rely on)."""
    return {
        "tables": {n: {"n_rows": t.n_rows, "id_col": t.id_col, "time_col": t.time_col,
                       "time_dtype": t.time_dtype, "numeric": t.numeric,
                       "categorical": t.categorical, "units": t.units,
                       "time_keys": {v: _tk(k) for v, k in t.time_keys.items()},
                       "years": t.years, "nouns": sorted(t.nouns)}
                   for n, t in cat.tables.items()},
        "values": cat.values,
        "entities": cat.entities,
        "attributes": {k: sorted(v) for k, v in cat.attributes.items()},
        "attr_tables": {k: sorted(v) for k, v in cat.attr_tables.items()},
        "ids": cat.ids,
        "entity_attrs": _shared_sets(cat.entity_attrs),
        "latest": _tk(cat.latest),
        "vocab": dict(cat.vocab),
        "deletes": {k: sorted(v) for k, v in cat._deletes.items()},
    }


def _shared_sets(by_key: dict[str, set[str]]) -> dict:
    """{key: set} as its distinct sets and each key's index into them. Entities of one table
    carry the same attributes: at 1.1 M claims, 100,000 order ids each listed the same eleven
    attribute names (14 of the file's 16 MB, ~1 s of a fresh process reading it back)."""
    sets: dict[tuple[str, ...], int] = {}
    index = {k: sets.setdefault(tuple(sorted(v)), len(sets)) for k, v in by_key.items()}
    return {"sets": [list(x) for x in sets], "index": index}


def _unshare_sets(doc: dict) -> dict[str, frozenset[str]]:
    """`_shared_sets`' inverse: one frozenset object per distinct set (read-only, shared)."""
    sets = [frozenset(x) for x in doc["sets"]]
    return {k: sets[i] for k, i in doc["index"].items()}


def decode_catalog(doc: dict) -> Catalog | None:
    """`encode_catalog`'s inverse; None for a document of another layout (rebuilt then)."""
    try:
        tables = {n: TableInfo(
            n, int(t["n_rows"]), t["id_col"], t["time_col"], t["time_dtype"],
            list(t["numeric"]), list(t["categorical"]), dict(t["units"]),
            {v: _untk(k) for v, k in t["time_keys"].items()},
            tuple(t["years"]) if t["years"] is not None else None, frozenset(t["nouns"]))
            for n, t in doc["tables"].items()}
        cat = Catalog(
            tables,
            {k: [tuple(x) for x in v] for k, v in doc["values"].items()},
            {k: list(v) for k, v in doc["entities"].items()},
            {k: set(v) for k, v in doc["attributes"].items()},
            {k: set(v) for k, v in doc["attr_tables"].items()},
            dict(doc["ids"]),
            _unshare_sets(doc["entity_attrs"]),
            _untk(doc["latest"]),
            Counter(doc["vocab"]),
        )
        cat._deletes = {k: set(v) for k, v in doc["deletes"].items()}
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return None
    return cat


def _build(con) -> Catalog:
    tables: dict[str, TableInfo] = {}
    for name, n_rows in con.execute(
            "SELECT table_name, n_rows FROM kb_tables ORDER BY table_name").fetchall():
        tables[name] = TableInfo(name, int(n_rows or 0))
    for t, col, role, dtype, unit in con.execute(
            "SELECT s.table_name, s.column_name, s.role, s.dtype, coalesce(s.unit, '') "
            "FROM schemas s JOIN kb_tables k USING (table_name, source_id) "
            "ORDER BY s.table_name, s.position").fetchall():
        ti = tables.get(t)
        if ti is None:
            continue
        if role == "id" and ti.id_col is None:
            ti.id_col = col
        elif role == "time" and ti.time_col is None:
            ti.time_col, ti.time_dtype = col, dtype or ""
        elif role == "numeric":
            ti.numeric.append(col)
            ti.units[col] = unit
        elif role == "categorical":
            ti.categorical.append(col)
    values: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    vocab: Counter = Counter()
    for ti in tables.values():
        nouns = {singular(w) for w in words(ti.name) if not w.isdigit()}
        if ti.id_col:
            nouns |= {singular(w) for w in words(ti.id_col) if w not in ("id", "no", "number")}
        ti.nouns = frozenset(nouns)
        for col in ti.categorical:
            for (v,) in con.execute(
                    f'SELECT DISTINCT CAST("{col}" AS VARCHAR) FROM "{ti.name}" '
                    f'WHERE "{col}" IS NOT NULL LIMIT 500').fetchall():
                values[norm(v)].append((v, ti.name, col))
                vocab.update(norm_tokens(v))
        if ti.time_col:
            if ti.time_dtype.upper().startswith(("DATE", "TIMESTAMP")):
                lo, hi = con.execute(f'SELECT min(year("{ti.time_col}")), '
                                     f'max(year("{ti.time_col}")) FROM "{ti.name}"').fetchone()
                if lo is not None:
                    ti.years = (int(lo), int(hi))
            else:
                for (v,) in con.execute(f'SELECT DISTINCT CAST("{ti.time_col}" AS VARCHAR) '
                                        f'FROM "{ti.name}" LIMIT 2000').fetchall():
                    k = parse_time_key(v)
                    if k is not None and k.start is not None:
                        ti.time_keys[v] = k
                if ti.time_keys:
                    ys = [k.start.year for k in ti.time_keys.values()]
                    ti.years = (min(ys), max(ys))
        for c in (*ti.numeric, *ti.categorical, ti.name):
            vocab.update(norm_tokens(c))
        vocab.update(ti.nouns)
    entities: dict[str, list[str]] = defaultdict(list)
    attributes: dict[str, set[str]] = defaultdict(set)
    attr_tables: dict[str, set[str]] = defaultdict(set)
    ids: dict[str, str] = {}
    entity_attrs: dict[str, set[str]] = defaultdict(set)
    id_cols = {(t.name, t.id_col) for t in tables.values() if t.id_col}
    # A cell claim names its row by the headings over it and its column by the captions over
    # it ("Current, Cash"; "United States, Total": `ingest.modelclaims`); a question may name
    # the row or column by its own label alone, so each is also found by that (the locator's
    # section and column say which part is the label).
    for ent, attr, table, kind, header, section in con.execute(
            "SELECT DISTINCT entity, attribute, coalesce(table_name, ''), kind, "
            "CASE WHEN kind = 'cell' AND strpos(attribute, ', ') > 0 "
            "THEN json_extract_string(locator, '$.column') END, "
            "CASE WHEN kind = 'cell' AND strpos(entity, ', ') > 0 "
            "AND strpos(locator, '\"section\"') > 0 "
            "THEN json_extract_string(locator, '$.section') END FROM claims "
            "WHERE NOT superseded AND entity IS NOT NULL").fetchall():
        attr_key = norm(_strip_agg(attr or "")) if kind == "aggregate" else norm(attr or "")
        if attr_key:
            attributes[attr_key].add(attr)
            attr_tables[attr_key].add(table)
            if header and (own := norm(own_column(attr, header))) != attr_key:
                attributes[own].add(attr)
                attr_tables[own].add(table)
        for name in dict.fromkeys((ent, own_name(ent, section) if section else ent)):
            ne = norm(name)
            if attr_key:
                entity_attrs[ne].add(attr_key)
            if kind == "cell" and table in tables and (table, tables[table].id_col) in id_cols:
                if name == ent:
                    ids[name.lower()] = ent
                else:  # the row's own label: found, never in place of a full name
                    ids.setdefault(name.lower(), ent)
            elif ent not in entities[ne]:
                entities[ne].append(ent)
    for ne in entities:
        vocab.update(ne.split())
    for a in attributes:
        vocab.update(a.split())
    vocab.update(_AGG_WORDS)
    latest = None
    row = con.execute("SELECT time_key FROM claims WHERE order_key IS NOT NULL AND NOT superseded "
                      "AND kind <> 'text' ORDER BY order_key DESC LIMIT 1").fetchone()
    if row:
        latest = parse_time_key(row[0])
    cat = Catalog(tables, dict(values), dict(entities), dict(attributes), dict(attr_tables), ids,
                  dict(entity_attrs), latest, vocab)
    cat.build_index()
    return cat


def _strip_agg(attr: str) -> str:
    for p in ("total ", "average ", "mean ", "median ", "count of ", "share of "):
        if attr.lower().startswith(p):
            return attr[len(p):]
    return attr
