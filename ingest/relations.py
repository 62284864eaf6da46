"""(head, relation, tail) triples from one sentence, by verb patterns.

Relations feed the graph strategy of retrieval and its one-hop expansion ("who owns the clinic
whose beds are asked about?"). Patterns, not a model: a relation is only worth traversing when it
is reproducible and can be cited, and every triple keeps the locator of its sentence.

Relation names are lowercase snake: acquires, owns, impacts, caused_by, located_in,
subsidiary_of, partners_with, increased_by, decreased_by. Direction is always the natural reading
of the name: (buyer, acquires, target), (effect, caused_by, cause), (child, subsidiary_of,
parent), (measure, increased_by, amount).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ingest.types import Locator, RelationRecord

_PRONOUN_SUBJECTS = re.compile(
    r"^(?:it|its|they|their|he|she|the (?:company|group|firm|clinic|college|university|hospital|"
    r"bank|business|school|organisation|organization|institution|subsidiary|parent|buyer))\b",
    re.IGNORECASE,
)
_AMOUNT = (
    r"(?:(?:USD|NOK|EUR|GBP|SEK|DKK|US\$|[$\u20ac\u00a3])\s?)?[-+]?\(?\d[\d,]*(?:\.\d+)?\)?"
    r"(?:\s?(?:%|percent|per cent|percentage points?|pp|bps|basis points|billion|million|"
    r"thousand|bn|m|k)\b)?(?:\s?(?:%|USD|NOK|EUR|GBP|SEK|DKK))?"
)

# (relation, regex, passive): passive patterns read "<tail> was acquired by <head>" and swap.
_PATTERNS: list[tuple[str, re.Pattern[str], bool]] = [
    ("acquires", re.compile(
        r"\b(?:was|were|is|has been|had been)\s+(?:acquired|bought|purchased|taken over)\s+by\b",
        re.I), True),
    ("acquires", re.compile(
        r"\b(?:(?:has|had|have)\s+)?(?:agreed to acquire|completed (?:the|its) acquisition of|"
        r"acquired|acquires|acquire|bought|buys|purchased|took over)\b", re.I), False),
    ("subsidiary_of", re.compile(
        r"\b(?:(?:is|was|became|remains)\s+)?(?:a|an|the)\s+(?:wholly[- ]owned\s+|majority[- ]"
        r"owned\s+)?subsidiary\s+of\b", re.I), False),
    ("owns", re.compile(r"\b(?:is|was|are|were)\s+(?:wholly\s+|majority[- ]|fully\s+)?owned\s+by\b",
                        re.I), True),
    ("owns", re.compile(r"\b(?:owns|owned|holds a (?:\w+ )?stake in|controls)\b", re.I), False),
    ("impacts", re.compile(
        r"\b(?:was|were|is|are|has been|have been)\s+(?:adversely\s+|negatively\s+|positively\s+)?"
        r"(?:impacted|affected|hit|hurt)\s+by\b", re.I), True),
    ("impacts", re.compile(
        r"\b(?:impacts|impacted|affects|affected|weighed on|had an? (?:\w+ )?(?:impact|effect) "
        r"on)\b", re.I), False),
    ("caused_by", re.compile(
        r"\b(?:caused by|due to|because of|driven by|owing to|as a result of|attributable to|"
        r"resulting from)\b", re.I), False),
    ("caused_by", re.compile(r"\b(?:caused|led to|resulted in)\b(?!\s+by)", re.I), True),
    ("located_in", re.compile(
        r"\b(?:(?:is|are|was|were)\s+)?(?:located|headquartered|based|situated)\s+in\b|"
        r"\bhas its (?:headquarters|head office) in\b", re.I), False),
    ("partners_with", re.compile(
        r"\b(?:partners|partnered|partnering|collaborates|collaborated|teamed up)\s+with\b|"
        r"\b(?:partnership|alliance|joint venture)\s+with\b", re.I), False),
    ("increased_by", re.compile(
        r"\b(?:increased|increases|increase|rose|rises|grew|grows|climbed|gained|jumped|was up|"
        r"were up|is up|up)\s+(?:by\s+)?(?=" + _AMOUNT + r")", re.I), False),
    ("decreased_by", re.compile(
        r"\b(?:decreased|decreases|decrease|declined|declines|fell|falls|dropped|drops|shrank|"
        r"was down|were down|is down|down|lower)\s+(?:by\s+)?(?=" + _AMOUNT + r")", re.I), False),
]
_AMOUNT_RE = re.compile(_AMOUNT, re.I)
_STOP_TAIL = re.compile(
    r"\s*(?:[;:(]|,\s(?!(?:[A-Z][a-z]+)(?:\W|$))|\s(?:in|on|for|during|from|since|after|before|"
    r"with|while|which|who|that|and|but|as|at|to|by|under|through|following)\s|\.$|$)"
)
# The effect of "X rose 7% in 2024 due to Y" is X: cut the clause at its verb.
_VERB_CUT = re.compile(
    r"\s+(?:increased|decreased|rose|fell|grew|declined|dropped|climbed|jumped|was|were|is|are|"
    r"has|have|had|remained|stayed|reached|came|went)\b", re.IGNORECASE,
)
_LEADING_CLAUSE = re.compile(
    r"^(?:(?:in|during|as of|at|by|on|for|since|after|before|between)\b[^,]*,\s*|"
    r"(?:however|meanwhile|overall|also|separately|in addition|additionally),\s*)",
    re.IGNORECASE,
)


def _find_entities(sentence: str, entities: Sequence[str]) -> list[tuple[int, int, str]]:
    found: list[tuple[int, int, str]] = []
    for e in sorted({e for e in entities if e}, key=len, reverse=True):
        for m in re.finditer(re.escape(e), sentence):
            if not any(a <= m.start() < b for a, b, _ in found):
                found.append((m.start(), m.end(), e))
    return sorted(found)


def _context_entity(sentence: str, entities: Sequence[str]) -> str | None:
    """An entity given by the caller that the sentence does not name: the passage subject."""
    for e in entities:
        if e and e not in sentence:
            return e
    return entities[0] if entities else None


def _subject_phrase(before: str, cut_verb: bool = False) -> str:
    s = before.strip().rstrip(",")
    prev = None
    while prev != s:
        prev = s
        s = _LEADING_CLAUSE.sub("", s).strip()
    # last clause only: "X grew and Y fell" / "..., while Y fell"
    s = re.split(r",\s+(?:and|while|but|whereas)\s+|;\s*|\s+(?:while|whereas|but)\s+", s)[-1]
    s = re.sub(r"\s+(?:has|have|had|also|both|which|that)$", "", s.strip(), flags=re.I)
    if cut_verb:
        s = _VERB_CUT.split(s, maxsplit=1)[0]
    words = s.split()
    return " ".join(words[-8:]).strip(" ,")


def _tail_phrase(after: str) -> str:
    s = after.strip()
    s = re.sub(r"^(?:the|a|an)\s+(?=[A-Z])", "", s)
    m = _STOP_TAIL.search(s, 1)
    out = s[: m.start()] if m else s
    return out.strip(" ,.;")


def _nearest(found: list[tuple[int, int, str]], lo: int, hi: int, last: bool) -> str | None:
    inside = [e for a, b, e in found if a >= lo and b <= hi]
    if not inside:
        return None
    return inside[-1] if last else inside[0]


def extract_relations(
    sentence: str, entities: Sequence[str], locator: Locator
) -> list[RelationRecord]:
    """Triples stated by `sentence`.

    `entities`: names the caller knows for this sentence (in order of appearance), optionally
    followed by the passage subject, which resolves "It"/"The company" heads. A head or tail that
    is a known entity is returned by its name; otherwise the noun phrase next to the verb.
    """
    found = _find_entities(sentence, entities)
    out: list[RelationRecord] = []
    seen: set[tuple[str, str, str]] = set()
    taken: list[tuple[int, int]] = []
    for relation, rx, passive in _PATTERNS:
        for m in rx.finditer(sentence):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue  # an active reading inside an already matched passive one
            before, after = sentence[: m.start()], sentence[m.end():]
            left = _nearest(found, 0, m.start(), last=True)
            # Only an entity right before the verb's clause counts as its subject.
            measure = relation in {"caused_by", "increased_by", "decreased_by"} and not passive
            subj = _subject_phrase(before, cut_verb=measure).strip(" ,")
            if measure and subj and not \
                    _PRONOUN_SUBJECTS.match(subj):
                left = None  # the head of a change is the measure, not the company
            if left and left not in subj:
                left = None
            if left is None:
                if _PRONOUN_SUBJECTS.match(subj) or not subj:
                    left = _context_entity(sentence, entities)
                    if left and relation in {"increased_by", "decreased_by"} and subj:
                        rest = re.sub(_PRONOUN_SUBJECTS, "", subj, count=1).strip()
                        rest = re.sub(r"^['\u2019]s\s+", "", rest)
                        left = f"{left} {rest}".strip() if rest else left
                else:
                    left = subj
            if relation in {"increased_by", "decreased_by"}:
                am = _AMOUNT_RE.match(after) or _AMOUNT_RE.match(sentence, m.end())
                right = am.group(0).strip() if am else None
            else:
                tail_text = _tail_phrase(after)
                ent = _nearest(found, m.end(), len(sentence), last=False)
                if relation == "located_in" and tail_text:
                    right = tail_text  # "Bergen, Norway": keep the comma-separated place
                elif ent and ent in tail_text:
                    right = ent
                elif relation == "located_in":
                    right = tail_text  # "Bergen, Norway": keep the comma-separated place
                else:
                    right = ent if ent and after.strip().startswith(ent) else tail_text
            if not left or not right:
                continue
            # "owns Riverside Clinic and Lakeview Clinic": one triple per named entity
            rights = [right]
            if relation not in {"increased_by", "decreased_by", "located_in"}:
                tail_ents = [e for a, b, e in found if a >= m.end()
                             and e in after.split(".")[0]]
                listed = re.fullmatch(
                    r"\s*(?:the\s+)?" + r"(?:,\s*|\s+and\s+|,\s*and\s+)(?:the\s+)?".join(
                        re.escape(e) for e in tail_ents[:4]) + r"\b.*", after, re.S)
                if len(tail_ents) > 1 and listed:
                    rights = tail_ents[:4]
            taken.append((m.start(), m.end()))
            for r in rights:
                head, tail = (r, left) if passive else (left, r)
                key = (head, relation, tail)
                if key in seen or head == tail:
                    continue
                seen.add(key)
                out.append(RelationRecord(head=head, relation=relation, tail=tail,
                                          locator=locator, text=sentence))
    return out
