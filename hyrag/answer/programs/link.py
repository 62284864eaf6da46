"""Linking: how well each row and column of a table model is named by a question.

One row matcher and one column matcher, both over `lexicon` tokens weighted by their rarity in
the table (a word on every row names none of them). The matchers return *features*, not
decisions: the scorer (`score`) learns how much each is worth; only the recall-oriented cut of
candidates (`LINK_TOP_ROWS`, `LINK_TOP_COLUMNS`) is made here.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from dataclasses import dataclass, field, replace

from rapidfuzz import fuzz, process

from hyrag.answer.programs.figures import figure_of
from hyrag.answer.programs.lexicon import (
    STOP,
    bounds,
    content,
    tokens,
    year_of_period,
    year_of_text,
    years,
)
from ingest.tablemodel import TableModel, is_figure, without_footnote_mark

# rows and columns kept as candidates per table: enough that the right one is almost always
# among them (recall), few enough that the programs over them stay few
LINK_TOP_ROWS = 6
LINK_TOP_COLUMNS = 6


@dataclass(frozen=True)
class Question:
    """A question as the linker reads it: its text, content tokens and the years it names."""

    text: str
    lower: str
    words: frozenset[str]
    order: tuple[str, ...]
    years: tuple[int, ...]
    bounds: tuple[str, ...] = ()  # conditions on figures ("<150"), `lexicon.bounds`
    # its words and word pairs, numbers left out (they are operands, not cues): what the
    # ranker crosses with each operator (`score.operator_features`), read once per question
    grams: frozenset[str] = frozenset()

    @staticmethod
    def of(text: str) -> Question:
        toks = content(text)
        words = [t for t in tokens(text) if not t.replace(".", "").isdigit()]
        grams = frozenset(words) | {f"{a}_{b}" for a, b in zip(words, words[1:], strict=False)}
        return Question(text, text.lower(), frozenset(toks), toks, years(text), bounds(text),
                        grams)

    @property
    def points_at_table(self) -> bool:
        """Whether the question points at a table rather than naming it ("Which years does the
        table show?", "What items are listed in this table?"): asked of a knowledge base
        holding one table, it means that table, whatever words it names (`route.rank`)."""
        return _POINTS_AT_TABLE.search(self.lower) is not None

    def position(self, words: frozenset[str]) -> int:
        """Where the question first says one of `words` (its length when it says none)."""
        return next((i for i, t in enumerate(self.order) if t in words), len(self.order))


# "the table", "this table", "the above table": a question pointing at the table it is asked of
_POINTS_AT_TABLE = re.compile(r"\b(?:the|this|that|above|following)\s+(?:\w+\s+)?table\b")


@dataclass(frozen=True)
class RowLink:
    """How a question names one row: coverage of the row's label words (idf-weighted), share
    of the question's words the row explains, its section words, and a fuzzy match of the
    label against the question."""

    index: int
    label_cov: float
    question_cov: float
    section_cov: float
    fuzzy: float
    position: int  # where the question names it (for the order of operands)
    rank: int = 99  # its place among the linked rows (0: the best named)
    gap: float = 1.0  # how far its prior falls behind the best row's

    @property
    def prior(self) -> float:
        """The recall-oriented ranking used to cut candidates (not the final choice)."""
        return self.label_cov + self.question_cov + 0.5 * self.section_cov + 0.5 * self.fuzzy


@dataclass(frozen=True)
class ColumnLink:
    """How a question names one column: coverage of its non-period header words, and whether
    its period's year is one the question names."""

    index: int
    words_cov: float
    period_year: int | None
    period_named: bool
    position: int
    rank: int = 99  # its place among the linked columns (0: the best named)

    @property
    def prior(self) -> float:
        return self.words_cov + (1.0 if self.period_named else 0.0)


@dataclass(frozen=True)
class TableIndex:
    """A table model's words, computed once per model: per row its label and section words,
    per column its header words and year, and every word's idf over rows and columns."""

    model: TableModel
    row_label: tuple[frozenset[str], ...]
    row_section: tuple[frozenset[str], ...]
    row_labels: tuple[str, ...]  # what names each row (`row_label`)
    row_text: tuple[str, ...]  # the same, lower-cased
    col_words: tuple[frozenset[str], ...]
    col_year: tuple[int | None, ...]
    idf: dict[str, float]
    numeric_cols: frozenset[int]
    cell_pos: dict[tuple[int, int], int]  # (row, column) -> position in the cell arrays
    # the cell-value index (`link_cells`): each distinct cell text, lower-cased, -> where it
    # sits; and each of its words -> the texts that hold it
    values: dict[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    value_words: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # per column, the header level that names its period ("2019" above "Amount"; "" if none)
    col_period_label: tuple[str, ...] = ()
    # every word the table is named by, sorted: its name's, its rows' and sections', its
    # headers' and its cells' (`names_table`)
    vocabulary: tuple[str, ...] = ()
    # the cell words long enough to be misspelt (`_misspelt` matches a question word to them)
    spelling: tuple[str, ...] = ()
    # read as a list table (`lists`): its entity rows (`ENTITY_ROWS`), and per column how many
    # of them have a cell, show a figure (`figures.figure_of`) or name a year, and how its
    # figures run down them (`runs`) — facts of the table, not of a question
    entity_rows: tuple[int, ...] = ()
    col_filled: tuple[int, ...] = ()
    col_figures: tuple[int, ...] = ()
    col_dates: tuple[int, ...] = ()
    col_runs: tuple[str, ...] = ()

    def weight(self, words: frozenset[str]) -> float:
        return sum(self.idf.get(w, 1.0) for w in words)


def index(model: TableModel) -> TableIndex:
    """The table's words (built once per table by `tables.Tables`, which holds it)."""
    labels, sections, texts, names_of = [], [], [], []
    headings = {r.path[-1] for r in model.rows if r.kind == "heading" and r.path}
    for r in model.rows:
        # a row is named by its label's words, not by the footnote mark printed after it
        # ("Audit Fees (1)"); it is still quoted as written
        label = row_label(r.path, headings)
        names = [without_footnote_mark(lvl) for lvl in r.path
                 if lvl not in headings and not is_figure(lvl)]
        labels.append(frozenset(w for lvl in names for w in content(lvl)))
        sections.append(frozenset(w for lvl in r.path if lvl in headings for w in content(lvl)))
        texts.append(without_footnote_mark(label).lower())
        names_of.append(label)
    cols, cyears, cperiods = [], [], []
    for c in model.columns:
        cols.append(frozenset(w for lvl in c.path for w in content(lvl)))
        named = next((lvl for lvl in reversed(c.path) if year_of_text(lvl)), "")
        cperiods.append(named)
        y = year_of_period(c.period)
        cyears.append(y if y is not None else year_of_text(named) if named else None)
    df: dict[str, int] = {}
    docs = [a | b for a, b in zip(labels, sections, strict=True)] + cols
    for d in docs:
        for w in d:
            df[w] = df.get(w, 0) + 1
    n = max(len(docs), 1)
    idf = {w: math.log(1 + n / k) for w, k in df.items()}
    a = model.arrays
    numeric = frozenset(j for j, v in zip(a.column, a.value, strict=True) if v is not None)
    values: dict[str, list[tuple[int, int]]] = {}
    for i, j, text in zip(a.row, a.column, a.text, strict=True):
        t = " ".join(text.lower().split())
        if t:
            values.setdefault(t, []).append((i, j))
    value_words: dict[str, list[str]] = {}
    for t in values:
        for w in set(tokens(t)):
            if w not in STOP:
                value_words.setdefault(w, []).append(t)
    entity = tuple(i for i, r in enumerate(model.rows) if r.kind in ENTITY_ROWS)
    filled, figures, dates, runs = _columns(model, frozenset(entity))
    return TableIndex(model, tuple(labels), tuple(sections), tuple(names_of), tuple(texts),
                      tuple(cols),
                      tuple(cyears), idf, numeric,
                      {rc: k for k, rc in enumerate(zip(a.row, a.column, strict=True))},
                      {t: tuple(v) for t, v in values.items()},
                      {w: tuple(v) for w, v in value_words.items()}, tuple(cperiods),
                      tuple(sorted(set(idf) | set(value_words)
                                   | set(content(model.name.replace("_", " "))))),
                      tuple(w for w in value_words if len(w) >= MISSPELT_MIN_LENGTH),
                      entity, filled, figures, dates, runs)


# the rows of a list table that are entities (a player, a season): a row of texts alone is one
# too (a list of names), a heading or a total is not
ENTITY_ROWS = ("data", "notes", "metadata")
# the share of a column's steps that go one way for it to run up or down (`_columns`)
RUN_SHARE = 0.8


def _columns(model: TableModel, entity: frozenset[int]
             ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[str, ...]]:
    """Per column, over the entity rows: how many have a cell, show a figure (stored, or read
    by `figures.figure_of`), name a year; and how its figures (or the years its cells name)
    run down the rows — "up", "down" (at least `RUN_SHARE` of the steps between consecutive
    figures one way) or "mixed"."""
    a = model.arrays
    ncols = len(model.columns)
    filled, figures, dates = [0] * ncols, [0] * ncols, [0] * ncols
    seen: list[list[tuple[int, float]]] = [[] for _ in range(ncols)]
    for i, j, v, t in zip(a.row, a.column, a.value, a.text, strict=True):
        if i not in entity:
            continue
        filled[j] += 1
        if v is None:
            v = figure_of(t)
        if v is not None:
            figures[j] += 1
        y = year_of_text(t)
        if y is not None:
            dates[j] += 1
        if v is None and y is not None:
            v = float(y)
        if v is not None:
            seen[j].append((i, float(v)))
    runs = []
    for pairs in seen:
        vals = [v for _, v in sorted(pairs)]
        up = sum(y > x for x, y in zip(vals, vals[1:], strict=False))
        down = sum(y < x for x, y in zip(vals, vals[1:], strict=False))
        steps = up + down
        runs.append("up" if steps >= 2 and up >= RUN_SHARE * steps else
                    "down" if steps >= 2 and down >= RUN_SHARE * steps else "mixed")
    return tuple(filled), tuple(figures), tuple(dates), tuple(runs)


def row_label(path: tuple[str, ...], headings: set[str]) -> str:
    """What names a row: the first level of its path that is neither a section heading above
    it nor a figure; its last level when there is none."""
    return next((lvl for lvl in path if lvl not in headings and not is_figure(lvl)),
                path[-1] if path else "")


def link_rows(q: Question, ti: TableIndex) -> list[RowLink]:
    """Every row that shares a word with the question or fuzzily contains its label, best
    first (at most `LINK_TOP_ROWS`)."""
    q_weight = ti.weight(q.words) or 1.0
    out = []
    for i, (lab, sec) in enumerate(zip(ti.row_label, ti.row_section, strict=True)):
        if ti.model.rows[i].kind == "heading":
            continue
        hit = lab & q.words
        shit = sec & q.words
        text = ti.row_text[i]
        fz = fuzz.partial_ratio(text, q.lower) / 100.0 if text and len(text) > 2 else 0.0
        if not hit and not shit and fz < 0.8:
            continue
        lw = ti.weight(lab) or 1.0
        out.append(RowLink(i, ti.weight(hit) / lw, ti.weight(hit | shit) / q_weight,
                           (ti.weight(shit) / (ti.weight(sec) or 1.0)) if sec else 0.0,
                           fz, q.position(hit)))
    out.sort(key=lambda r: -r.prior)
    top = out[0].prior if out else 0.0
    return [replace(r, rank=k, gap=top - r.prior) for k, r in enumerate(out[:LINK_TOP_ROWS])]


def link_columns(q: Question, ti: TableIndex) -> list[ColumnLink]:
    """The numeric columns, best named first (at most `LINK_TOP_COLUMNS`)."""
    out = []
    for j in sorted(ti.numeric_cols):
        words = ti.col_words[j]
        hit = words & q.words
        y = ti.col_year[j]
        named = y is not None and y in q.years
        pos = q.years.index(y) if named else q.position(hit)
        out.append(ColumnLink(j, ti.weight(hit) / (ti.weight(words) or 1.0) if words else 0.0,
                              y, named, pos))
    out.sort(key=lambda c: (-c.prior, c.index))
    return [replace(c, rank=k) for k, c in enumerate(out[:LINK_TOP_COLUMNS])]


# cell texts kept as the values a question names (per table): the best few, by `CellLink.prior`
LINK_TOP_VALUES = 6


@dataclass(frozen=True)
class CellLink:
    """A cell value the question names ("Canada", "Lake Palas Tuzla", "2004"): the text, where
    it sits (rows and columns), and how well the question says it — the share of its words
    the question holds, whether the question holds it verbatim, a fuzzy match."""

    text: str
    cells: tuple[tuple[int, int], ...]  # (row, column) of every cell with this text
    cover: float
    exact: bool
    fuzzy: float
    position: int  # where the question names it (for the order of operands)
    rank: int = 99

    @property
    def prior(self) -> float:
        return self.cover + float(self.exact) + 0.5 * self.fuzzy + 0.02 * min(len(self.text), 20)


def names_table(q: Question, ti: TableIndex) -> bool:
    """Whether the question names anything in the table: one of its content words is a word of
    its name, of a row's label or section, of a column's header, or of a cell
    (`TableIndex.vocabulary`). A program over a table the question names nothing of is not
    about what was asked, however well its operator fits the question's shape ("How many
    registered nurses ...?" is no count of a sales table's orders in 2024): the relevance the
    Warrant gate requires of every route, before any candidate.

    The light stemmer leaves a word and its inflection apart ("weighs" / "Weight",
    "locomotive" / "locomotives"): one written as the start of the other names it too."""
    vocab = ti.vocabulary
    for w in q.words:
        i = bisect_left(vocab, w)
        if i < len(vocab) and (vocab[i] == w or (
                len(w) >= NAMES_PREFIX_MIN and vocab[i].startswith(w))):
            return True
        if any(_has(vocab, w[:k]) for k in range(NAMES_PREFIX_MIN, len(w))):
            return True
    return False


def _has(vocab: tuple[str, ...], w: str) -> bool:
    i = bisect_left(vocab, w)
    return i < len(vocab) and vocab[i] == w


# the shortest start of a word that `names_table` takes for the word ("weigh" for "weight")
NAMES_PREFIX_MIN = 4


def link_cells(q: Question, ti: TableIndex) -> list[CellLink]:
    """The cell values the question names, best first (at most `LINK_TOP_VALUES`): any cell,
    text or figure, whose words the question mostly holds."""
    said = tokens(q.text)
    have = set(said)
    for w, u in _misspelt(have, ti).items():
        # a word the table does not know, read as the cell word it misspells
        have.add(u)
        said = tuple(u if t == w else t for t in said)
    texts: set[str] = set()
    for w in have:
        texts.update(ti.value_words.get(w, ()))
    out = []
    for t in texts:
        words = [w for w in tokens(t) if w not in STOP] or list(tokens(t))
        cover = sum(w in have for w in words) / len(words)
        if cover < 0.5:
            continue
        exact = f" {t} " in f" {q.lower.rstrip('?.! ')} "
        fz = fuzz.partial_ratio(t, q.lower) / 100.0 if len(t) > 2 else float(exact)
        pos = next((i for i, w in enumerate(said) if w in words), len(said))
        out.append(CellLink(t, ti.values[t], cover, exact, fz, pos))
    out.sort(key=lambda c: (-c.prior, c.text))
    return [replace(c, rank=k) for k, c in enumerate(out[:LINK_TOP_VALUES])]


# a question word no word of the table spells is read as a cell word this close to it
# (rapidfuzz's ratio, 0-100: one letter left out or doubled in a long word), when it is this long
MISSPELT_RATIO = 85
MISSPELT_MIN_LENGTH = 5


def _misspelt(words: set[str], ti: TableIndex) -> dict[str, str]:
    """The question's words that no word of the table's vocabulary is (`names_table`'s) but
    that misspell a word of its cells ("Enginering" for "Engineering"): word -> cell word.
    A user types a value as they remember it; a table states it once, spelt right."""
    out: dict[str, str] = {}
    for w in sorted(words):
        if len(w) < MISSPELT_MIN_LENGTH or w in STOP or w.isdigit() or _has(ti.vocabulary, w):
            continue
        got = process.extractOne(w, ti.spelling, scorer=fuzz.ratio,
                                 score_cutoff=MISSPELT_RATIO)
        if got is not None:
            out[w] = got[0]
    return out
