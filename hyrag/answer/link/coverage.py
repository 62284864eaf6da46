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

Numbers are held to more than words (`unheld_numbers`): a number the question states ("more
than 2,000", "in 1890", "won 6 matches") is a condition or a key, and evidence that holds it
nowhere (not as a value, a period, a cell's text or the query that computed the figure)
answers the question without it — the column's total given for "how many townships have
populations over 2,000?", the sum of a year column for "who began their term in 1890?".

The word rule is deliberately narrow: it looks only at the words, not at how they are spelled in
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


def words(text: str | None) -> set[str]:
    """A text's words as `unexplained` compares them (`_stem`: case, possessive, plural)."""
    return {_stem(w) for w in re.findall(r"[A-Za-z][A-Za-z'’-]*|\d+", text or "")
            for w in re.split(r"[-]", w) if w}


def unexplained(residual: Iterable[str], evidence: Iterable[str]) -> list[str]:
    """The parser's residual words (in question order, once each) that no evidence text
    contains and that are not filler: what the committed figures do not speak to."""
    seen = set().union(*(words(t) for t in evidence)) if evidence else set()
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


# digits as any text writes them: what evidence holds of a number ("2019" in "2019-12-31")
_DIGITS = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")


def question_numbers(question: str) -> list[tuple[str, float]]:
    """The numbers `question` states, as written and as values: the ReverseVerifier's
    tokenizer (`verify.tokens.numbers`: no period code, "FY19" or "Q4", no ordinal, "1st"),
    without a number that starts a code ("10-K")."""
    from verify.tokens import numbers

    return [(t.text, abs(t.value)) for t in numbers(question)
            if not question[t.end:t.end + 2].lstrip("-")[:1].isalpha()]


def unheld_numbers(question: str, facts: Iterable) -> list[str]:  # commitment.Fact
    """The numbers the question states that no committed fact holds: not its value (as shown
    or in base units), not a number written in its entity, attribute, sentence, locator or
    period. Each is a condition the evidence did not apply."""
    asked = question_numbers(question)
    if not asked:
        return []
    held: set[float] = set()
    for f in facts:
        for v in (f.value, f.value_base):
            if v is not None:
                held.add(round(abs(float(v)), 9))
        for t in (f.entity, f.attribute, f.text, f.locator, f.time_key, f.value_text):
            for m in _DIGITS.finditer(str(t or "")):
                held.add(round(float(m.group(0).replace(",", "")), 9))
    return [text for text, v in asked if round(v, 9) not in held]
