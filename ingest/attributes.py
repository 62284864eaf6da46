"""Which property a number in a sentence measures: the attribute phrase of a text claim.

Split from `ingest.textclaims` (the extractor) because reading "412 registered nurses",
"revenue rose 12% to $4.4 billion" or "spent $2m on training" into an attribute is its own set
of rules, with its own vocabulary of linking verbs, change verbs and measure units.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ingest.numbers import ParsedNumber

LABEL_WORDS = {"tier", "level", "phase", "stage", "class", "grade", "type", "category",
                "scope", "route", "item", "article", "section", "chapter", "no", "number",
                "series", "gen", "generation", "version", "part", "unit", "block", "line"}
NEGATION_RE = re.compile(
    r"\b(?:(?:does|do|did|is|are|was|were|has|have|had|will|would|could|can)\s+not|"
    r"(?:does|do|did|is|are|was|were|has|have|had|wo|ca)n['\u2019]t|never|"
    r"not\s+(?:disclosed|reported|available|published|provided|stated|known)|undisclosed|"
    r"declined\s+to\s+(?:disclose|comment|report)|no\s+(?!\.)[a-z])",
    re.IGNORECASE,
)

_CHANGE_UP = {"rose", "rise", "rises", "increased", "increase", "increases", "grew", "grow",
              "grows", "up", "climbed", "gained", "jumped", "improved", "higher"}
_CHANGE_DOWN = {"fell", "fall", "falls", "decreased", "decrease", "decreases", "declined",
                "decline", "declines", "down", "dropped", "drops", "shrank", "lower", "slipped"}
_LINKS = {"was", "were", "is", "are", "of", "at", "to", "reached", "totaled", "totalled",
          "totals", "total", "amounted", "stood", "came", "hit", "be", "been", "remained",
          "stayed", "equalled", "equaled", "about", "approximately", "around", "nearly",
          "roughly", "some", "over", "almost", "by", "in", "reaching", "with"}
_STOP = {
    "the", "a", "an", "its", "their", "his", "her", "our", "this", "that", "these", "those",
    "and", "or", "but", "while", "whereas", "in", "on", "at", "for", "by", "to", "from", "with",
    "within", "across", "as", "during", "after", "before", "since", "than", "per", "up", "down",
    "was", "were", "is", "are", "be", "been", "has", "have", "had", "will", "would", "which",
    "who", "it", "they", "there", "including", "includes", "included", "compared",
    "versus", "vs", "each", "all", "both", "some", "also", "only", "about", "approximately",
    "nearly", "around", "over", "under", "more", "less", "new", "such", "whom", "whose",
    "into", "onto", "out", "of", "not", "no", "de", "reported", "recorded", "posted",
    "generated", "achieved", "delivered", "booked", "made", "earned", "paid", "spent",
    "invested", "raised", "announced", "expects", "expected", "reached", "received",
} | _CHANGE_UP | _CHANGE_DOWN
# Verbs that say nothing beyond "has N of": the attribute is the noun after the number alone.
_NEUTRAL_VERBS = {
    "had", "has", "have", "employed", "employs", "employ", "enrolled", "enrolls", "enrols",
    "recorded", "records", "reported", "reports", "counted", "offers", "offered", "offer",
    "operates", "operated", "holds", "held", "houses", "housed", "house", "included",
    "includes", "including", "totaled", "totalled", "was", "were", "is", "are", "covers",
    "covered", "with", "of", "reached", "registered", "received", "receives", "counts", "spans", "owns", "owned", "serves", "served", "comprises", "comprised", "about",
    "approximately", "nearly", "around", "some", "over", "almost", "roughly", "than", "and",
}
_MEASURE_UNITS = {"acres", "acre", "hectares", "hectare", "miles", "mile", "metres", "meters",
                  "sq", "square", "feet", "ft", "m2", "kilometres", "kilometers", "barrels",
                  "mw", "gw"}
_COUNT_UNITS = {"employees", "people", "FTE", "units", "pcs"}
BASE_MARKERS = re.compile(
    r"(?:\bfrom|\bthan|\bcompared\s+(?:with|to)|\bversus|\bvs\.?|\bover|\brelative\s+to|"
    r"\bagainst|\bsince)\s+(?:the\s+)?(?:end\s+of\s+)?$",
    re.IGNORECASE,
)


# --- attributes -----------------------------------------------------------------------------

def _norm_attr(words: Iterable[str]) -> str:
    s = " ".join(w.strip(".,;:()\"'") for w in words).strip().lower()
    s = re.sub(r"\s+", " ", s)
    s = re.sub(r"^(?:the|a|an|its|their|our|his|her|of)\s+", "", s)
    return s.strip()


def _strip_entity_refs(np: str, entities: Sequence[str]) -> str:
    for e in sorted(entities, key=len, reverse=True):
        np = re.sub(rf"\s+(?:of|at|for|on|in|from|by)\s+(?:the\s+)?{re.escape(e)}(?:\s+\w+)?\b",
                    "", np)
        np = re.sub(rf"^{re.escape(e)}(?:['\u2019]s)?\s+", "", np)
        np = np.replace(e, "")
    return np


def _trailing_np(text: str) -> str:
    """The noun phrase that ends `text` ("... the graduate employment rate" -> that phrase).

    Walks back over content words; "of" and a short prepositional phrase ("employment in the
    field of study") stay inside; determiners, verbs, numbers and punctuation end it.
    """
    words = re.findall(r"[\w'\u2019-]+|[,;:]", text)

    def content(w: str, i: int = -1) -> bool:
        if re.fullmatch(r"\d{1,2}", w) and i > 0 and words[i - 1].lower() in LABEL_WORDS:
            return True  # "tier 1 ratio"
        return (w not in ",;:" and w.lower() not in _STOP
                and not re.fullmatch(r"[\d.,%$-]+", w))

    kept: list[str] = []
    i = len(words) - 1
    while i >= 0:
        w = words[i]
        low = w.lower()
        if low.endswith(("'s", "\u2019s")):
            break  # "The college's operating budget": the owner is the entity, not the attribute
        if low == "of" and kept:
            kept.append(w)
            i -= 1
            continue
        if (kept and low in {"the", "a", "an"} and i >= 2
                and words[i - 1].lower() in {"in", "on", "at", "for"} and content(words[i - 2])):
            kept.extend([w, words[i - 1]])
            i -= 2
            continue
        if not content(w, i):
            break
        kept.append(w)
        i -= 1
    while kept and kept[-1].lower() in {"of", "in", "on", "at", "for", "the", "a", "an"}:
        kept.pop()
    return " ".join(reversed(kept))


def _noun_after(sentence: str, end: int) -> str:
    """Lowercase content words right after a number: '412 registered nurses' -> 'registered
    nurses'. Stops at prepositions, conjunctions and verbs; at most four words."""
    words: list[str] = []
    for m in re.finditer(r"\S+", sentence[end:]):
        w = m.group(0)
        core = w.strip(".,;:()\"'")
        if not core or not re.fullmatch(r"[a-z][a-z'\u2019-]*", core):
            break
        if core in _STOP or core in {"million", "billion", "thousand", "percent"}:
            break
        if core.endswith("ly"):
            break
        words.append(core)
        if w != core or len(words) == 4:
            break
    return " ".join(words)


def _verb_before(before: str) -> str:
    m = re.search(r"([a-z]+)\s+(?:about\s+|approximately\s+|nearly\s+|some\s+|over\s+|almost\s+|"
                  r"roughly\s+|more\s+than\s+|fewer\s+than\s+)?$", before)
    return m.group(1) if m else ""


# the text before an amount ends with another amount and a list joint ("$2.6 million and")
_LISTED_AFTER_AMOUNT = re.compile(
    r"[\d)](?:\s*(?:thousand|million|billion|bn|m|k|%|percent|per cent))?\s*(?:,\s*(?:and\s+)?|"
    r"\s+and\s+)(?:[$£€¥]|[A-Z]{3}\s?)?$", re.I)


def attribute_for(sentence: str, a: int, b: int, num: ParsedNumber,
                   prev_attr: str | None, entities: Sequence[str],
                   clause_start: int) -> tuple[str, str]:
    """(attribute, unit) for the number at sentence[a:b]."""
    unit = num.unit
    before = sentence[clause_start:a]
    if prev_attr and _LISTED_AFTER_AMOUNT.search(before):
        # "$2.5 million, $2.6 million and $2.4 million": the list's amounts measure one thing;
        # the words before a later one are the previous amount's scale, not an attribute
        return prev_attr, unit
    noun = _noun_after(sentence, b)
    if noun and noun.split()[-1] in _MEASURE_UNITS:
        unit = unit or noun.split()[-1]
        noun = ""
    verb = _verb_before(before)
    if noun and not num.is_percent:
        # "a Board of Trustees of 15 members" -> "board of trustees members"
        if verb == "of":
            owner = _norm_attr(_strip_entity_refs(_trailing_np(before[:-3].rstrip()), entities)
                               .split())
            if owner:
                return f"{owner} {noun}", unit
        if verb and verb not in _NEUTRAL_VERBS and verb not in _LINKS and verb not in _STOP:
            return f"{noun} {verb}", unit
        return noun, unit
    if num.is_percent:
        after = sentence[b:]
        m = re.match(r"\s+of\s+(?:its|the|their|all\s+)?\s*(?:[\d,]+\s+)?([a-z][a-z -]*?)"
                     r"(?:\s+(?:were|was|are|is)\s+([a-z]+)|\s+(?:in|for|during|\.|,|$))", after)
        if m:
            what = m.group(1).strip()
            act = m.group(2) or (verb if verb not in _LINKS | _NEUTRAL_VERBS else "")
            return (f"share of {what} {act}".strip(), unit)
    if unit in _COUNT_UNITS and not noun:
        noun = unit.lower()
    if not noun and verb in _SPEND_VERBS:
        # "spent $612 million on research and development": the object is the attribute
        m = re.match(r"\s+(?:on|in|for)\s+((?:[a-z][\w-]*)(?:\s+(?:and\s+)?[a-z][\w-]*){0,4}?)"
                     r"(?=\s+(?:in|during|for|at|by)\b|[.,;]|$)", sentence[b:])
        if m:
            return _norm_attr(m.group(1).split()), unit
    # A change: "rose 12%", "up 4.1%", "increased by 7.5%".
    words_before = re.findall(r"[A-Za-z]+", before)
    lastw = [w.lower() for w in words_before[-2:]]
    direction = None
    if lastw and (lastw[-1] in _CHANGE_UP or (lastw[-1] == "by" and len(lastw) > 1
                                                and lastw[0] in _CHANGE_UP)):
        direction = "growth"
    elif lastw and (lastw[-1] in _CHANGE_DOWN or (lastw[-1] == "by" and len(lastw) > 1
                                                   and lastw[0] in _CHANGE_DOWN)):
        direction = "decline"
    if direction and not re.search(r"\bto\s*$", before):
        appositive = re.search(r",\s*(?:up|down)(?:\s+by)?\s*$", before)
        base = (prev_attr if appositive and prev_attr else None) or subject_attribute(
            before, entities) or prev_attr or "value"
        return f"{base} {direction}", unit
    if noun:
        return noun, unit
    base = subject_attribute(before, entities) or prev_attr
    if base:
        return base, unit
    # A rule rather than a measurement ("Employees may work remotely for up to 2 days per
    # week"): the clause's own words before the number name what the number bounds.
    words = [w for w in re.findall(r"[A-Za-z][\w'-]*", _strip_entity_refs(before, entities))
             if w.lower() not in _STOP | _MODALS]
    if words:
        return _norm_attr(words[-4:]), unit
    return ("value", unit)


_SPEND_VERBS = {"spent", "spends", "spend", "invested", "invests", "allocated", "allocates"}
_MODALS = {"may", "must", "can", "shall", "should", "might", "could", "will", "would", "be",
           "up", "within", "least", "most", "every"}


def subject_attribute(before: str, entities: Sequence[str]) -> str:
    """The attribute named before a number: "The graduate employment rate of Crestwood College
    was" -> "graduate employment rate"; "Its operating revenue rose 6% to" -> "operating
    revenue" (the change clause "rose 6%" is skipped)."""
    s = before.rstrip()
    # skip "rose 6% to" / "fell to" / "was" links back to the noun phrase
    for _ in range(6):
        s2 = re.sub(r"(?:\s+|^)(?:[-+]?[$\u20ac\u00a3]?\d[\d,.]*\s*(?:%|percent|per cent|"
                    r"million|billion|thousand|bn|m|k)?|by)$", "", s)
        words = s2.split()
        if words and words[-1].lower().strip(",") in _LINKS | _CHANGE_UP | _CHANGE_DOWN:
            s2 = " ".join(words[:-1])
        if s2 == s:
            break
        s = s2
    s = _strip_entity_refs(s, entities)
    words = s.split()
    while words and words[-1].lower() in _NEUTRAL_VERBS:
        words.pop()
    return _norm_attr(_trailing_np(" ".join(words)).split())


_AUX = {"is", "was", "are", "were", "has", "have", "had", "been", "be", "will", "would"}


def attribute_without_number(sentence: str, entities: Sequence[str],
                                   negated: bool, subject_end: int) -> str:
    """For a sentence with no number: its predicate, read from the word after the subject.

    "Northgate does not disclose its headcount of adjunct instructors" -> "headcount of adjunct
    instructors" (the object of a negated verb); "It was founded in 1894" -> "founded";
    "Riverside Clinic is a subsidiary of Harbor Health Partners" -> "is subsidiary of harbor
    health partners". Determiners dropped; stops at prepositions other than "of".
    """
    s = sentence.rstrip(".!?")
    m = NEGATION_RE.search(s)
    if negated and m:
        rest = s[m.end():]
        if not m.group(0).lower().startswith(("not ", "no ")):
            rest = re.sub(r"^\s*[a-z]+\s+", " ", rest)
        elif m.group(0).lower().startswith("no "):
            rest = m.group(0)[-1] + rest
        words = [w for w in _strip_entity_refs(rest, entities).split()
                 if w.lower() not in {"its", "their", "the", "a", "an", "any"}]
        obj = _norm_attr(words[:6])
        obj = re.split(r"\s+(?:in|for|during|because|since|as|to)\s+", obj)[0]
        if obj:
            return obj
    rest = s[subject_end:]
    # skip a prepositional phrase on the subject ("Career Services at Northgate offers")
    rest = re.sub(r"^\s*(?:at|of|in|for|on)\s+(?:[A-Z][\w-]*\s*)+", " ", rest)
    words = [w.strip(",") for w in rest.split()]
    out: list[str] = []
    for k, w in enumerate(words):
        low = w.lower()
        if low in {"the", "a", "an", "its", "their"}:
            continue
        if k > 0 and (low in {"in", "on", "at", "for", "by", "to", "from", "with", "and",
                              "since", "during", "because", "after", "before", "as"}
                      or re.fullmatch(r"\d[\d,.]*", w)):
            break
        if k > 0 and words[k - 1].endswith(","):
            break
        out.append(w)
        if len(out) == 6:
            break
    if len(out) >= 2 and out[0].lower() in _AUX and re.fullmatch(r"[a-z]+ed", out[1]):
        out = out[1:]  # "was founded" -> "founded"
    return _norm_attr(out)
