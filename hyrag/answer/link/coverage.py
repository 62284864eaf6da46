"""Does the committed evidence explain the question? The check before a direct answer leaves.

The schema parser maps a question onto the knowledge base's entities, measures and periods;
the words it cannot place are its `residual`. Most residual words are harmless: a measure that
lives only in prose ("graduate employment rate") is matched later by the Warrant gate, and then
the committed claim's own attribute names it. But when several of the question's words are
explained neither by the parse nor by any committed claim — "What was the Deferred income tax
assets *without the adoption of ASC 606*?" answered from the "as reported" column, "When has
IMFT *discontinued the production of NAND*?" answered from a sentence about something else —
the figure answers a different question than the one asked. An analyst would say "I have a
number for part of that", not give it as the answer; the engine abstains and names the words.

The rule is deliberately narrow: it looks only at the words, not at how they are spelled in
claims (stems, case and punctuation aside), and the default allowance (`Settings.
answer_max_unexplained`, 2) leaves a question its filler ("reported", "company's").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from hyrag.answer.programs.lexicon import singular

# Words that carry no subject of their own in a question about figures (question words,
# auxiliaries, the operations the parser reads, period and reporting filler).
_FILLER = frozenset(["a", "an", "the", "of", "in", "for", "and", "or", "to", "on", "by", "at", "as", "is", "was", "were", "be", "been", "being", "are", "what", "which", "who", "whom", "how", "much", "many", "did", "does", "do", "from", "between", "with", "its", "their", "his", "her", "our", "your", "company", "company's", "s", "this", "that", "these", "those", "there", "than", "when", "where", "why", "over", "under", "has", "have", "had", "also", "all", "both", "each", "per", "value", "amount", "total", "number", "figure", "figures", "reported", "report", "respectively", "during", "end", "year", "years", "period", "periods", "fiscal", "fy", "quarter", "month", "change", "difference", "increase", "decrease", "average", "mean", "sum", "ratio", "percentage", "percent", "proportion", "share", "growth", "rate", "compared", "compare", "versus", "vs", "against", "largest", "smallest", "highest", "lowest", "most", "least", "more", "less", "greater", "larger", "smaller", "higher", "lower", "top", "bottom", "first", "last", "latest", "current", "previous", "prior", "as_of", "net"])


def _stem(w: str) -> str:
    """A word without case, its possessive or its plural (`lexicon.singular`)."""
    return singular(w.lower().replace("’", "'").removesuffix("'s"))


def _words(text: str | None) -> set[str]:
    return {_stem(w) for w in re.findall(r"[A-Za-z][A-Za-z'’-]*|\d+", text or "")
            for w in re.split(r"[-]", w) if w}


def unexplained(residual: Iterable[str], evidence: Iterable[str]) -> list[str]:
    """The parser's residual words (in question order, once each) that no evidence text
    contains and that are not filler: what the committed figures do not speak to."""
    seen = set().union(*(_words(t) for t in evidence)) if evidence else set()
    out: list[str] = []
    for w in residual:
        s = _stem(w)
        if s and s not in _FILLER and s not in seen and not s.isdigit() and s not in out:
            out.append(s)
    return out


def evidence_texts(facts: Iterable) -> list[str]:  # commitment.Fact
    """What a committed claim says about itself: entity, attribute, table, its sentence."""
    out = []
    for f in facts:
        out.extend(str(x) for x in (f.entity, f.attribute, f.table, f.text, f.locator) if x)
    return out
