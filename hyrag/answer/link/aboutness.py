"""Does the evidence hold what the question names? The Knowledge-Gap check of an answer.

A question asked of a table that holds nothing it names still finds cells: a program reads
some column, a reader some row, and "What is the salary of Dan Ng?" over a staff list with no
Dan Ng was answered with the total salary. The mission says what the data does not contain
is a Knowledge Gap, so every drafted answer is checked (`check`):

1. a name the question uses (`unnamed`: a capitalised run with a word no English lexicon
   knows) must be held by some table or sentence of the knowledge base;
2. an answer resting on table cells alone must come from tables (with the knowledge base's
   prose) that are about what is asked (`unheld`): the question's terms (`content_terms`:
   the tokenizer's stems, stop words and figures aside) are weighed by how rarely questions
   use them (idf over the training questions), and the tables must hold at least
   `min_cover` of that weight (exactly, or a misspelling of a word of five letters or more,
   `held`) — or else no term they lack may *name* something: a word that, in the training
   questions, is usually found in the table asked ("attendance", "album"), or a word those
   questions never used that no English lexicon knows (a name: "Telmex"; lemminflect's,
   `english`). A word questions use for what no table spells out ("how many", "listed",
   "first", "country" of a "Nation" column) names nothing here, nor does an unseen common
   word ("highlighted"): a question about a table's shape ("what is the last name on the
   list?") shares no word with any table and stays answered.

How often each term is held is fitted, not listed: `hyrag bench fit-terms --wtq DIR [--tatqa
FILE]` counts, over WikiTableQuestions' `random-split-1-train.tsv` (and TAT-QA's questions
with their reports), the questions using each term and those whose own table holds it, and
writes `terms.json` beside this module. A table's words are read from its stored model
(`table_words`), the prose only when the tables alone do not hold the question: the check
runs after answers no program read. Measured by asking held-out questions of tables they
were not written for (`hyrag bench wtq --mismatched`; README).
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Iterable, Sequence, Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from hyrag.answer.programs.lexicon import STOP, tokens

if TYPE_CHECKING:
    from hyrag.settings import Settings

TERMS_FILE = Path(__file__).with_name("terms.json")
# words shorter than this are matched exactly: a misspelling of "cap" is another word
FUZZY_MIN_LENGTH = 5
# rapidfuzz ratio (0-100) at which a question word is a misspelling of a table's word
FUZZY_MIN_RATIO = 85


@dataclass(frozen=True)
class TermStats:
    """Per term: the training questions using it (`asked`) and those whose table holds it
    (`held`), over `questions` questions in all."""

    asked: dict[str, int]
    held: dict[str, int]
    questions: int
    meta: dict = field(default_factory=dict)

    def weight(self, term: str) -> float:
        """How much a term says about what is asked: its idf over the training questions."""
        return math.log((self.questions + 1) / (self.asked.get(term, 0) + 1))

    def names(self, term: str, min_seen: int, min_held: float, word: str = "") -> bool:
        """Does the term name something a table asked about would hold? Seen in at least
        `min_seen` training questions: when its held share (smoothed, (held + 0.5) / (asked +
        1)) is at least `min_held`. Unseen: when the question's `word` for it is no English
        word (a name)."""
        n = self.asked.get(term, 0)
        if n < min_seen:
            return not english(word or term)
        return (self.held.get(term, 0) + 0.5) / (n + 1) >= min_held

    def save(self, path: Path) -> None:
        path.write_text(json.dumps({"meta": self.meta, "questions": self.questions,
                                    "asked": dict(sorted(self.asked.items())),
                                    "held": dict(sorted(self.held.items()))},
                                   ensure_ascii=False, separators=(",", ":")) + "\n",
                        encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> TermStats:
        d = json.loads(path.read_text(encoding="utf-8"))
        return cls(d["asked"], d["held"], d["questions"], d.get("meta", {}))


@functools.cache
def stats_of(path: str = "") -> TermStats:
    """The fitted statistics at `path`, or those shipped in the package (`terms.json`)."""
    return TermStats.load(Path(path) if path else TERMS_FILE)


@functools.lru_cache(maxsize=1 << 14)
def english(word: str) -> bool:
    """Is the word one the English lexicon knows (any part of speech)? Place and person
    names are not ("europe", "telmex"); "highlighted" and "financial" are."""
    from lemminflect import getAllLemmas

    return bool(getAllLemmas(word.lower()))


def spelled(question: str) -> dict[str, str]:
    """Each of the question's stems with the word it was written as (the first one)."""
    out: dict[str, str] = {}
    for w in re.findall(r"[^\W_]+", question):
        for t in tokens(w):
            out.setdefault(t, w)
    return out


def content_terms(question: str) -> tuple[str, ...]:
    """A question's terms, once each in order: stems of three letters or more, no stop word,
    no figure (a figure the question bounds by is no name the table must hold)."""
    return tuple(t for t in dict.fromkeys(tokens(question))
                 if len(t) > 2 and not t[0].isdigit() and t not in STOP)


def held(term: str, vocabulary: frozenset[str]) -> bool:
    """Does the table's vocabulary hold the term, exactly or misspelt ("bosie" for "boise")?"""
    if term in vocabulary:
        return True
    if len(term) < FUZZY_MIN_LENGTH:
        return False
    from rapidfuzz import fuzz, process

    return process.extractOne(term, vocabulary, scorer=fuzz.ratio,
                              score_cutoff=FUZZY_MIN_RATIO) is not None


def unheld(question: str, vocabulary: Iterable[str], stats: TermStats, *, min_cover: float,
           min_seen: int, min_held: float) -> tuple[str, ...]:
    """The naming terms of the question the tables do not hold (as the question writes them),
    when the tables hold less than `min_cover` of the question's term weight and some unheld
    term names something (module docstring); () when the tables are about what is asked."""
    terms = content_terms(question)
    if not terms:
        return ()
    vocab = frozenset(vocabulary)
    missing = [t for t in terms if not held(t, vocab)]
    if not missing:
        return ()
    total = sum(stats.weight(t) for t in terms)
    cover = 1.0 - sum(stats.weight(t) for t in missing) / total if total > 0 else 1.0
    if cover >= min_cover:
        return ()
    words = spelled(question)
    return tuple(words.get(t, t) for t in missing
                 if stats.names(t, min_seen, min_held, words.get(t, "")))


def fit(pairs: Iterable[tuple[str, Iterable[str]]], meta: dict | None = None) -> TermStats:
    """Count, over (question, its table's words) pairs, each term's questions and those whose
    table holds it exactly (no misspelling: the count is of how questions word what tables
    hold)."""
    asked: dict[str, int] = {}
    kept: dict[str, int] = {}
    n = 0
    for question, words in pairs:
        n += 1
        vocab = frozenset(words)
        for t in content_terms(question):
            asked[t] = asked.get(t, 0) + 1
            if t in vocab:
                kept[t] = kept.get(t, 0) + 1
    return TermStats(asked, kept, n, meta or {})


def unnamed(question: str, vocabulary: Iterable[str]) -> tuple[str, ...]:
    """The names the question uses ("Dan Ng", "Europe": runs of capitalised words after its
    first word, `synthesize.phrasing.names`, one of whose words no English lexicon knows and
    names no month — "Components of income tax expense" is a title, "February" a period) of
    which the knowledge base's words hold none: whatever cells or sentences an answer found,
    they are not about that name. A name is held when any of its words is (exactly, or
    misspelt, `held`): "Teekay LNG" is held by "Teekay"."""
    from hyrag.answer.synthesize.phrasing import names
    from ingest.timekeys import month_number

    vocab = frozenset(vocabulary)
    out = []
    for name in names(question):
        words = [t for t in tokens(name) if t not in STOP]
        if not words or any(held(t, vocab) for t in words):
            continue
        # asked only of a name nothing holds (the lexicon costs an import on a cold start)
        if all(english(w) or month_number(w) for w in re.findall(r"[^\W\d_]+", name)):
            continue  # a title of common words, or a period ("February": the Warrant's)
        out.append(name)
    return tuple(out)


def table_words(con, name: str) -> frozenset[str] | None:
    """A stored table's words — its name's, title's, row and column labels' and cells' — read
    from its model's rows in the store (cached per view, `programs.tables.per_view`), without
    building the model: the check runs after answers no program read. None for a table with
    no model, or more cells than a program reads (`tables.PROGRAM_MAX_CELLS`: its words are
    the SQL route's to know)."""
    from hyrag.answer.programs.tables import per_view

    return per_view(con, f"words:{name}", lambda c: _table_words(c, name))


def _table_words(con, name: str) -> frozenset[str] | None:
    from hyrag.answer.programs.lexicon import content
    from hyrag.answer.programs.tables import PROGRAM_MAX_CELLS

    n = con.execute("SELECT count(*) FROM table_cells WHERE table_name = ?", [name]).fetchone()
    if not n or not n[0] or n[0] > PROGRAM_MAX_CELLS:
        return None
    texts = [r[0] for r in con.execute(
        "SELECT DISTINCT text FROM table_cells WHERE table_name = ? AND text IS NOT NULL",
        [name]).fetchall()]
    labels = [lvl for r in con.execute(
        "SELECT row_path FROM table_rows WHERE table_name = ? UNION ALL "
        "SELECT col_path FROM table_columns WHERE table_name = ?", [name, name]).fetchall()
        for lvl in (r[0] or [])]
    title = con.execute("SELECT title FROM kb_tables WHERE table_name = ?", [name]).fetchone()
    labels += [name.replace("_", " "), (title or [""])[0] or ""]
    return frozenset(t for x in texts for t in tokens(x) if t not in STOP) | frozenset(
        w for x in labels for w in content(x))


def kb_words(con) -> frozenset[str] | None:
    """Every word of the knowledge base the subject may see: each table's (`table_words`) and
    each prose sentence's (cached per view); None when a table's words are not known."""
    from hyrag.answer.programs.tables import per_view

    return per_view(con, "words", _kb_words)


def _kb_words(con) -> frozenset[str] | None:
    words: set[str] = set(prose_words(con))
    for (name,) in con.execute("SELECT table_name FROM kb_tables").fetchall():
        got = table_words(con, name)
        if got is None:
            return None
        words |= got
    return frozenset(words)


def prose_words(con) -> Set[str]:
    """The words of the knowledge base's prose sentences (`programs.spans.prose`, per view)."""
    from hyrag.answer.programs.spans import prose

    return prose(con).idf.keys()


def check(question: str, facts: Sequence, con, settings: Settings, known: Iterable[str] = ()
          ) -> tuple[tuple[str, ...], str] | None:
    """What the question names that the answer's evidence (`facts`, commitment.Fact) does not
    hold, and why, or None: a name nothing in the knowledge base holds
    (`settings.answer_check_names`), or, for an answer resting on table cells alone, tables
    (with the knowledge base's prose) not about what the question names
    (`answer_min_table_cover`, `answer_term_min_seen`, `answer_term_min_held`, the statistics
    `answer_terms_file`). `known`: the parse catalog's vocabulary, read first — a name it
    holds needs no look at every table and sentence, which the first question of a process
    would otherwise load."""
    if settings.answer_check_names and unnamed(question, known):
        vocab = kb_words(con)
        missing = unnamed(question, vocab) if vocab is not None else ()
        if missing:
            return missing, f"nothing in the knowledge base names {', '.join(missing)}"
    cover = settings.answer_min_table_cover
    if cover <= 0 or not facts or any(f.kind == "text" or not f.table for f in facts):
        return None  # an answer citing prose: its sentences are the verifier's to check
    words: set[str] = set()
    for name in {f.table for f in facts}:
        got = table_words(con, name)
        if got is None:
            return None
        words |= got
    stats = stats_of(settings.answer_terms_file)
    kw = {"min_cover": cover, "min_seen": settings.answer_term_min_seen,
          "min_held": settings.answer_term_min_held}
    # the knowledge base's prose says what its tables are about ("the charges excluded from
    # operating income"), read only when the tables alone would not do
    off = unheld(question, words, stats, **kw) and unheld(
        question, words | prose_words(con), stats, **kw)
    if off:
        return off, (f"neither the tables read nor the knowledge base's text hold what the "
                     f"question names ({', '.join(off)}): the cells found are about something "
                     "else")
    return None
