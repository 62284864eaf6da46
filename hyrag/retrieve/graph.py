"""Graph / category traversal: the names a question mentions, matched exactly or fuzzily, then
the claims about them, and one hop along the `relations` table.

Vectors and BM25 both stumble on "Kara Lopze" or "SO-10042": the first is a typo, the second a
token no model has seen. A lookup table of the knowledge base's own names does not. The table
holds every claim entity (row ids, aggregate groups, text subjects), every categorical / id cell
value (reaching the rows that hold it: "Kara Lopez" -> her row -> her salary cell) and every
table name. Question n-grams (longest first) are looked up exactly, then fuzzily (character
bigram candidates confirmed by an edit distance with transpositions of at most one for five to
eight letters, two from nine) for n-grams of five or more letters. A claim's match score
combines how many of the question's names it is about, how much of its attribute the question
names, whether its table is named, and whether its period is exactly the asked one; divided by
its maximum it is the strategy's normalised similarity.

The lookup table is itself a list of names in the knowledge base: a subject who may see only
some sources gets a graph built over those sources' claims and relations alone (`restrict`), so
a denied name is never matched, fuzzily or exactly, and cannot take the question's words away
from a visible one.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from hyrag.retrieve.catalog import ClaimCatalog
from hyrag.retrieve.columns import Groups, LabelledGroups, TextColumn
from hyrag.retrieve.text import STOPWORDS, norm_phrase, tokens

FUZZY_MIN_LEN = 5
ITEM_CAP = 25  # a value held by more rows than this is a category, not a name: no row fan-out
MAX_NGRAM = 5
_WORDS = re.compile(r"[0-9a-zà-ÿ][0-9a-zà-ÿ\-&']*", re.IGNORECASE)


@dataclass(frozen=True)
class Mention:
    key: str  # the vocabulary key matched
    text: str  # the question words that matched it
    quality: float  # 1.0 exact, else the fuzzy ratio


def _grams(key: str) -> set[str]:
    k = f" {key} "
    return {k[i : i + 2] for i in range(len(k) - 1)}


def osa_distance(a: str, b: str) -> int:
    """Optimal string alignment distance: edits plus adjacent transpositions ("nroth" ->
    "north" is one), the commonest typing errors (Damerau 1964)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


def allowed_edits(n: int) -> int:
    """One typo in a name of 5-8 letters, two from 9 letters on."""
    return 0 if n < FUZZY_MIN_LEN else 1 if n < 9 else 2


VALUE_ROLES = ("categorical", "id", "text")  # cells whose value names their row
MAX_VALUE_CHARS = 60  # a longer cell value is prose, not a name


class EntityGraph:
    def __init__(
        self,
        cat: ClaimCatalog,
        relations: Iterable[tuple[str, str, str]] = (),
        *,
        visible: np.ndarray | None = None,
        conf: np.ndarray | None = None,
    ) -> None:
        """`visible`: only these catalog claims feed the lookup table (None: all); `conf`: the
        claim confidences to break ties with (default the catalog's)."""
        self.cat = cat
        self.conf = cat.conf if conf is None else conf
        self._relation_rows = [tuple(r) for r in relations]
        self.by_entity, self.by_value, self.by_table = _name_tables(cat, visible)
        self.relations = _relation_map(self._relation_rows)
        self._fuzzy_keys: list[str] | None = None
        self._tri_index: dict[tuple[str, int], list[str]] | None = None
        self._attr_tokens: dict[str, set[str]] = {}

    def is_key(self, key: str) -> bool:
        """Whether `key` is a name of the lookup table (a claim entity, a naming cell value, a
        table)."""
        return (bool(key) and key not in STOPWORDS and len(key) > 1
                and (key in self.by_entity or key in self.by_value or key in self.by_table))

    @property
    def keys(self) -> set[str]:
        """Every name of the lookup table (decodes them all: for tests and diagnostics)."""
        return {k for k in (*self.by_entity, *self.by_value, *self.by_table) if self.is_key(k)}

    def fuzzy_keys(self) -> list[str]:
        """The names a misspelt phrase may match: five letters or more (four with one edit
        allowed), no digit. A question phrase with a digit is never fuzzy-matched, and each
        digit of a key would cost an edit against a digit-free phrase."""
        if self._fuzzy_keys is None:
            self._fuzzy_keys = sorted(
                k for k in {*self.by_entity, *self.by_value, *self.by_table}
                if len(k) >= FUZZY_MIN_LEN - 1 and not any(c.isdigit() for c in k)
                and self.is_key(k))
        return self._fuzzy_keys

    @property
    def _tri(self) -> dict[tuple[str, int], list[str]]:
        """Bigram postings bucketed by key length, built at the first fuzzy lookup: a lookup
        reads only the lengths its edit budget allows, so a million ids ("ord-0000001") never
        crowd a word's candidates."""
        if self._tri_index is None:
            tri: dict[tuple[str, int], list[str]] = defaultdict(list)
            for k in self.fuzzy_keys():
                for g in sorted(_grams(k)):
                    tri[(g, len(k))].append(k)
            self._tri_index = tri
        return self._tri_index

    # -- saved between processes (hyrag.kbcache) ---------------------------------------------
    def to_arrays(self) -> tuple[dict[str, np.ndarray], dict]:
        """The name tables as arrays (names -> claims, names -> items) and the small rest
        (tables, relations, fuzzy keys) as JSON values."""
        if not isinstance(self.by_entity, Groups) or not isinstance(self.by_value,
                                                                    LabelledGroups):
            raise TypeError("only a graph built over a catalog is saved")
        arrays = {**self.by_entity.to_arrays("by_entity"),
                  **self.by_value.groups.to_arrays("by_value")}
        state = {"by_table": self.by_table, "relation_rows": self._relation_rows,
                 "fuzzy_keys": self.fuzzy_keys()}
        return arrays, state

    @classmethod
    def from_arrays(cls, cat: ClaimCatalog, arrays: dict[str, np.ndarray], state: dict
                    ) -> EntityGraph:
        """The graph `to_arrays` described, over the same catalog (same claims, same order)."""
        out = cls.__new__(cls)
        out.cat, out.conf = cat, cat.conf
        out._relation_rows = [tuple(r) for r in state["relation_rows"]]
        out.by_entity = Groups.from_arrays("by_entity", arrays)
        out.by_value = LabelledGroups(Groups.from_arrays("by_value", arrays), cat.item_ids.pool)
        out.by_table = {str(k): str(v) for k, v in state["by_table"].items()}
        out.relations = _relation_map(out._relation_rows)
        out._fuzzy_keys = [str(k) for k in state["fuzzy_keys"]]
        out._tri_index = None
        out._attr_tokens = {}
        return out

    def restrict(
        self, visible: np.ndarray, sources: frozenset[str], conf: np.ndarray | None = None
    ) -> EntityGraph:
        """The graph as a subject who sees only the `visible` claims (of `sources`) sees it:
        names, values and tables of those claims, relations stated in those sources."""
        rels = [r for r in self._relation_rows if len(r) > 3 and r[3] in sources]
        return EntityGraph(self.cat, rels, visible=visible, conf=conf)

    # -- matching ---------------------------------------------------------------------------
    def mentions(self, question: str) -> list[Mention]:
        words = [w.lower().strip("'") for w in _WORDS.findall(question)]
        used = [False] * len(words)
        found: list[Mention] = []
        for fuzzy in (False, True):
            for n in range(min(MAX_NGRAM, len(words)), 0, -1):
                for i in range(len(words) - n + 1):
                    if any(used[i : i + n]):
                        continue
                    phrase = " ".join(words[i : i + n])
                    if n == 1 and (phrase in STOPWORDS or len(phrase) < 2):
                        continue
                    if n > 1 and (words[i] in STOPWORDS or words[i + n - 1] in STOPWORDS):
                        continue
                    m = (
                        self._fuzzy(phrase)
                        if fuzzy
                        else (Mention(phrase, phrase, 1.0) if self.is_key(phrase) else None)
                    )
                    if m is not None:
                        found.append(m)
                        for j in range(i, i + n):
                            used[j] = True
        return found

    def _fuzzy(self, phrase: str) -> Mention | None:
        letters = phrase.replace(" ", "")
        if len(letters) < FUZZY_MIN_LEN or any(c.isdigit() for c in letters):
            return None
        budget = allowed_edits(len(phrase))
        lengths = range(len(phrase) - budget, len(phrase) + budget + 1)
        counts = Counter(
            k for g in _grams(phrase) for n in lengths for k in self._tri.get((g, n), ())
        )
        best: Mention | None = None
        for k, _ in counts.most_common(20):
            if abs(len(k) - len(phrase)) > budget:
                continue
            d = osa_distance(phrase, k)
            if d <= budget:
                q = 1.0 - d / max(len(k), len(phrase))
                if best is None or q > best.quality:
                    best = Mention(k, phrase, q)
        return best

    def attr_match(self, attribute: str | None, q_tokens: set[str]) -> float:
        """Share of the attribute's tokens that the question names (0..1)."""
        if not attribute:
            return 0.0
        toks = self._attr_tokens.get(attribute)
        if toks is None:
            toks = set(tokens(attribute.replace("_", " ")))
            self._attr_tokens[attribute] = toks
        return len(toks & q_tokens) / len(toks) if toks else 0.0

    # -- ranking ----------------------------------------------------------------------------
    def rank(
        self,
        question: str,
        q_tokens: set[str],
        mask: np.ndarray,
        exact_period: np.ndarray | None,
        limit: int,
    ) -> list[tuple[int, float]]:
        """Claims about the question's names, best first, as (catalog index, similarity)."""
        ments = self.mentions(question)
        tables = {self.by_table[m.key] for m in ments if m.key in self.by_table}
        # A table's name is a scope, not a subject, unless the question names nothing else.
        names = [m for m in ments if m.key not in self.by_table] or ments
        if not names:
            return []
        about: dict[int, float] = defaultdict(float)
        for m in names:
            hit: dict[int, float] = {}
            for i in self.by_entity.get(m.key, ()):
                hit[i] = m.quality
            items = self.by_value.get(m.key, ())
            if len(items) <= ITEM_CAP:
                for item in items:
                    for i in self.cat.by_item.get(item, ()):
                        hit[i] = max(hit.get(i, 0.0), 0.9 * m.quality)
            for i, q in hit.items():
                about[i] += q
        if not about:
            return []
        idx = np.fromiter(about.keys(), dtype=np.int64)
        idx = idx[mask[idx]]  # the pre-filter, before any ranking
        if not idx.size:
            return []
        # Scored column-wise: one attribute match per distinct attribute, the table bonus by
        # code (a popular name reaches tens of thousands of claims at 1.1 M)
        attrs = self.cat.attributes
        a_codes = attrs.codes[idx]
        uniq, inv = np.unique(a_codes, return_inverse=True)
        a_score = np.asarray([0.0 if c < 0 else self.attr_match(attrs.pool.text(int(c)),
                                                                q_tokens) for c in uniq])
        s = np.fromiter((about[i] for i in idx.tolist()), dtype=np.float64, count=idx.size)
        s = s / len(names) + a_score[inv.ravel()]
        if tables:
            s += 0.5 * self.cat.tables.isin(tables)[idx]
        if exact_period is not None:
            s += 0.5 * np.asarray(exact_period, dtype=bool)[idx]
        s = s / (2.0 + 0.5 * bool(tables) + 0.5 * (exact_period is not None))
        # best first; ties: the more confident claim, then the smaller id (rows are in id
        # order when the catalog's index is its own pool)
        ids = idx if self.cat.index.values is None else np.asarray(
            [self.cat.ids[int(i)] for i in idx])
        order = np.lexsort((ids, -np.asarray(self.conf)[idx], -s))[:limit]
        return [(int(idx[j]), float(s[j])) for j in order]

    def neighbours(
        self, entity: str, allowed_sources: set[str] | None = None
    ) -> list[tuple[str, str]]:
        """One hop: (relation, other end) for an entity name, along relations stated in
        sources the caller may see (all when `allowed_sources` is None)."""
        return [
            (rel, other)
            for rel, other, source in self.relations.get(norm_phrase(entity), ())
            if allowed_sources is None or source in allowed_sources
        ]


def _relation_map(rows: list[tuple]) -> dict[str, list[tuple[str, str, str | None]]]:
    """(relation, other end, source of the sentence that stated it) per normalised name:
    expansion may only follow a relation whose source the subject may see, or the hop itself
    would leak it."""
    out: dict[str, list[tuple[str, str, str | None]]] = defaultdict(list)
    for head, rel, tail, *src in rows:
        h, t = norm_phrase(head), norm_phrase(tail)
        source = src[0] if src else None
        out[h].append((rel, t, source))
        out[t].append((rel, h, source))
    return out


def _norm_keys(col: TextColumn, keep: np.ndarray | None = None) -> tuple[np.ndarray, list[str]]:
    """Each distinct value's normalised name as an index into the returned names (-1: none);
    one normalisation per distinct value, not per claim. `keep`: which distinct values may
    have a name at all."""
    names: dict[str, int] = {}
    values = col.pool.decoded()
    code_key = np.full(len(values) + 1, -1, dtype=np.int64)  # the extra slot: a None value
    for j, v in enumerate(values):
        if v and (keep is None or keep[j]):
            code_key[j] = names.setdefault(norm_phrase(v), len(names))
    return code_key, list(names)


def _name_tables(cat: ClaimCatalog, visible: np.ndarray | None
                 ) -> tuple[Groups, LabelledGroups, dict[str, str]]:
    """name -> claims about it (their entity), name -> items holding it (a naming cell value),
    name -> table, over the `visible` claims (None: all)."""
    vis = np.ones(len(cat), dtype=bool) if visible is None else np.asarray(visible, dtype=bool)
    code_key, names = _norm_keys(cat.entities)
    ent_key = code_key[cat.entities.codes]
    ent_key[~vis] = -1
    by_entity = Groups.build(ent_key, names)

    short = cat.values.pool.lengths() <= MAX_VALUE_CHARS * 4  # bytes: a cheap first cut
    values = cat.values.pool.decoded()
    short &= np.fromiter((len(v) <= MAX_VALUE_CHARS for v in values), dtype=bool,
                         count=len(values))
    val_code_key, vnames = _norm_keys(cat.values, short)
    items = cat.item_ids
    item_ok = np.append(np.fromiter((bool(s) for s in items.pool.decoded()), dtype=bool,
                                    count=len(items.pool)), False)
    rows = vis & cat.kinds.isin(("cell",)) & cat.roles.isin(VALUE_ROLES)
    rows &= item_ok[items.codes]
    key = val_code_key[cat.values.codes]
    rows &= key >= 0
    pairs = np.unique(key[rows] * (len(items.pool) + 1) + items.codes[rows])
    pair_key, pair_item = pairs // (len(items.pool) + 1), pairs % (len(items.pool) + 1)
    groups = Groups.build(pair_key, vnames)
    groups.members = pair_item[groups.members]
    by_value = LabelledGroups(groups, items.pool)

    by_table: dict[str, str] = {}
    for t in sorted(cat.tables.distinct(vis)):
        if t:
            by_table[norm_phrase(t.replace("_", " "))] = t
    return by_entity, by_value, by_table
