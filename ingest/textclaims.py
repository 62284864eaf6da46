"""Prose passages -> atomic text claims (entity, attribute, value, period) and relations.

A retrieved sentence can only commit a fact when its entity and attribute match the question
(the Warrant's Result Relevance Rule), so every claim carries both, and a sentence that states
two facts ("Riverside Clinic employed 412 registered nurses and 57 physicians in 2024") gives two
claims, each with its own attribute, value, period and span. Sentences that state a fact without
a number ("Northgate does not disclose its headcount") still give one claim with no value, and a
negation is recorded, because "the source says it is not disclosed" differs from "no source".

Rule-based and deterministic on purpose: the same file gives the same claims and claim ids, and
each rule can be read and tested. It is tuned for report prose (subject - verb - number - noun);
its limits are listed in the module tests and the ingest report.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ingest.attributes import (
    BASE_MARKERS,
    LABEL_WORDS,
    NEGATION_RE,
    attribute_for,
    attribute_without_number,
    subject_attribute,
)
from ingest.numbers import CURRENCY_CODES, ParsedNumber, find_numbers
from ingest.relations import extract_relations
from ingest.respectively import pair_respectively
from ingest.text import is_heading, split_sentences
from ingest.timekeys import TimeKey, find_time_expressions
from ingest.types import ClaimRecord, Locator, Passage, RelationRecord

# A text claim is weaker evidence than a table cell (0.95): its entity, attribute and period are
# read by rules. A claim whose entity or period comes from context (pronoun, heading) is weaker
# still, by this much.
CONTEXT_PENALTY = 0.05
NEGATED_PREFIX = "[negated] "

_ENTITY_SUFFIXES = (
    r"Inc\.?|Ltd\.?|Corp\.?|Co\.|LLC|plc|PLC|AS|ASA|AB|AG|GmbH|SA|S\.A\.|N\.V\.|NV|LLP|LP|Group"
)
_CAP = r"(?:[A-Z][\w'\u2019&.-]*[\w&]|[A-Z])"
_ENTITY_RE = re.compile(
    rf"{_CAP}(?:(?:\s+(?:of|and|&|for|de|du|la|the|on)){{0,2}}\s+{_CAP})*"
    rf"(?:,?\s+(?:{_ENTITY_SUFFIXES}))?"
)
# Capitalised words that open sentences or name periods, never entities on their own.
_NOT_ENTITY = {
    "the", "a", "an", "in", "on", "at", "as", "for", "by", "during", "its", "it", "this", "that",
    "these", "those", "their", "they", "he", "she", "we", "our", "his", "her", "there", "after",
    "before", "since", "from", "with", "while", "although", "however", "meanwhile", "also",
    "overall", "both", "each", "all", "total", "net", "group", "revenue", "revenues", "sales",
    "average", "median", "admissions", "employment", "route", "table", "page", "figure", "note",
    "q1", "q2", "q3", "q4", "h1", "h2", "fy", "ltm", "ttm", "fiscal", "january", "february",
    "march", "april", "may", "june", "july", "august", "september", "october", "november",
    "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    "fall", "spring", "summer", "winter", "autumn", "if", "when", "but", "and", "or", "not",
    "no", "yes", "what", "which", "who", "how", "why", "where", "operating", "first", "second",
    "third", "fourth", "costs", "cost", "profit", "margins", "margin", "headcount", "growth",
    "so", "then", "thus", "because", "due", "according", "including", "about", "approximately",
    "around", "nearly", "over", "under", "some", "most", "many", "several", "one", "two",
    # metric and role acronyms: capitalised, but attributes, not names
    "ebitda", "ebit", "eps", "roe", "roa", "roi", "roce", "capex", "opex", "ceo", "cfo", "coo",
    "gdp", "kpi", "arr", "mrr", "nps", "fte", "yoy", "ytd", "gaap", "ifrs", "cagr", "r&d",
}
_PRONOUN_START = re.compile(
    r"^(?:it|its|they|their|he|she|his|her|this|these)\b|"
    r"^the\s+(?:company|group|firm|clinic|college|university|hospital|bank|business|school|"
    r"organisation|organization|institution|subsidiary|centre|center|campus|board|fund)\b",
    re.IGNORECASE,
)
@dataclass(frozen=True)
class _Fact:
    start: int
    end: int
    number: ParsedNumber | None
    attribute: str
    entity: str | None
    unit: str = ""


# --- entities -------------------------------------------------------------------------------

def find_entities(sentence: str, known: Sequence[str] = ()) -> list[tuple[int, int, str]]:
    """Proper-noun phrases of a sentence: (start, end, name) in reading order.

    Capitalised multiword spans ("Riverside Clinic", "Bank of the West", "Fjordline Logistics
    AS"); a single capitalised word counts when it is not a sentence opener or a period word,
    and a word that starts a `known` entity ("Northgate" for "Northgate University") is resolved
    to it, so one document's mentions share one name.
    """
    out: list[tuple[int, int, str]] = []
    spans: list[tuple[int, int]] = []
    for m in _ENTITY_RE.finditer(sentence):
        # "Crestwood College and Fjordline Logistics AS" are two names; "Arts and Humanities"
        # is one: split at "and"/"&" only when both sides have two capitalised words or more.
        parts = re.split(r"\s+(?:and|&)\s+", m.group(0))
        caps = [sum(w[:1].isupper() for w in p.split()) for p in parts]
        if len(parts) == 2 and min(caps) >= 2:
            cut = m.group(0).index(parts[1], len(parts[0]))
            spans += [(m.start(), m.start() + len(parts[0])), (m.start() + cut, m.end())]
        else:
            spans.append((m.start(), m.end()))
    for a, b in spans:
        # A possessive ends the name: "Delta Bank's net margin", "Lambda Health's EBITDA".
        pm = re.search(r"['\u2019]s?(?=\s|$)", sentence[a:b])
        if pm and sentence[a:a + pm.start()].strip():
            b = a + pm.start()
        text = sentence[a:b]
        words = text.split()
        # Drop leading opener words ("The Hale Library" -> "Hale Library", "In Bergen" -> ...).
        while words and words[0].lower().strip(".,") in _NOT_ENTITY:
            drop = words.pop(0)
            a = sentence.index(drop, a) + len(drop)
            while a < b and sentence[a].isspace():
                a += 1
            # connectors left at the front after dropping an opener
            while words and words[0] in {"of", "and", "&", "for", "de", "du", "la", "the", "on"}:
                drop = words.pop(0)
                a = sentence.index(drop, a) + len(drop)
                while a < b and sentence[a].isspace():
                    a += 1
        if not words:
            continue
        # One canonical spelling per name: "Acme Inc." and "Acme Inc" are the same company.
        name = " ".join(words).rstrip(".,")
        b = a + len(name) if sentence[a:a + len(name)] == name else b
        if all(w.strip(".,").upper() in CURRENCY_CODES or w in {"FTE", "USD"} for w in words):
            continue  # "NOK 1,412.6 million": a currency, not a name
        if len(words) == 1:
            w = words[0].strip(".,")
            if w.lower() in _NOT_ENTITY or w.isdigit() or len(w) < 2:
                continue
            if re.fullmatch(r"[A-Z]{1,2}\d.*|\d.*", w):
                continue
            alias = next((k for k in known if k != w and k.split()[0] == w), None)
            if alias:
                out.append((a, b, alias))
                continue
            if a == _first_word_start(sentence) and w not in known:
                continue  # a lone capitalised opener ("Revenue", "Admissions") is not a name
            name = w
        out.append((a, b, name))
    return out


# Words that name the document, not the entity: "Riverside Clinic Annual Report 2024".
_DOC_WORDS = re.compile(
    r"(?:\s+(?:Annual|Quarterly|Interim|Segment|Staffing|Activity|Sustainability|Financial|"
    r"Report|Reports|Overview|Review|Outlook|Statement|Statements|Notes|Summary|Factbook|"
    r"Profile|Update|Presentation|Highlights|Fact|Sheet|and|at|a|Glance))+$"
)


def _heading_entity(text: str, known: Sequence[str],
                    body_names: Sequence[str] = ()) -> str | None:
    """The subject a heading names. A heading runs the name into the topic ("Harbor Health
    Partners Expense and Remote Work Policy 2024"), so when the document's prose names an entity
    the heading's name starts with ("Harbor Health Partners"), that shorter name is the one."""
    for _, _, e in find_entities(text, known):
        e = _DOC_WORDS.sub("", e).strip()
        if e and e.lower() not in _NOT_ENTITY:
            prefixes = [b for b in body_names if e.startswith(b + " ")]
            return max(prefixes, key=len) if prefixes else e
    return None


def _body_names(passages: Sequence[Passage], source: str) -> list[str]:
    """Multiword names the prose (not the headings) of one document mentions."""
    names: list[str] = []
    for p in passages:
        if p.source != source or is_heading(p.text):
            continue
        for _, _, e in find_entities(p.text):
            if len(e.split()) > 1 and e not in names:
                names.append(e)
    return names


def _first_word_start(sentence: str) -> int:
    m = re.search(r"[A-Za-z]", sentence)
    return m.start() if m else 0


# --- periods --------------------------------------------------------------------------------

def _main_periods(sentence: str, fiscal: int) -> list[tuple[int, int, TimeKey]]:
    """Periods the sentence's facts are *for*: "from fiscal 2023" / "than in 2022" name the
    comparison base and are left out."""
    out = []
    for s, e, tk in find_time_expressions(sentence, fiscal_year_start_month=fiscal):
        if tk.start is None and tk.order_key is None:
            continue
        head = sentence[:s]
        head = re.sub(r"(?:\bin|\bthe|\bof|\bend)\s+$", "", head, flags=re.I)
        head = re.sub(r"(?:\bin|\bthe)\s+$", "", head, flags=re.I)
        if BASE_MARKERS.search(head):
            continue
        out.append((s, e, tk))
    return out


def _clauses(sentence: str) -> list[tuple[int, int]]:
    cuts = [0]
    for m in re.finditer(r";|:\s|,\s+(?:and|while|but|whereas)\s+|\s+while\s+|\s+whereas\s+",
                         sentence):
        cuts.append(m.start())
    cuts.append(len(sentence))
    return [(cuts[i], cuts[i + 1]) for i in range(len(cuts) - 1)]


def _period_for(pos: int, periods: list[tuple[int, int, TimeKey]],
                clauses: list[tuple[int, int]]) -> TimeKey | None:
    if not periods:
        return None
    if len({p[2].key for p in periods}) == 1:
        return periods[0][2]
    clause = next(((a, b) for a, b in clauses if a <= pos < b), (0, 10**9))
    local = [p for p in periods if clause[0] <= p[0] < clause[1]] or periods
    if len({p[2].key for p in local}) == 1:
        return local[0][2]
    following = [p for p in local if p[0] >= pos]
    if following:
        return following[0][2]
    return local[-1][2]


def _respective_periods(sentence: str, facts: list[_Fact],
                        periods: list[tuple[int, int, TimeKey]]
                        ) -> tuple[dict[int, TimeKey], set[int]]:
    """(fact index -> its period, the facts inside a "..., respectively" segment): the n-th
    amount of such a list is for the n-th period (`ingest.respectively`); a fact inside a
    segment whose counts do not pair has no period the sentence states — it inherits none."""
    if "respective" not in sentence:
        return {}, set()
    idx = [k for k, f in enumerate(facts) if f.number is not None]
    spans = [(facts[k].start, facts[k].end) for k in idx]
    mentions = [(s, tk.key) for s, _e, tk in periods
                if not any(a <= s < b for a, b in spans)]
    by_key = {tk.key: tk for _s, _e, tk in periods}
    paired, inside = pair_respectively(sentence, spans, mentions)
    return ({idx[i]: by_key[key] for i, key in paired.items()}, {idx[i] for i in inside})


# --- the extractor --------------------------------------------------------------------------

def _is_negated(sentence: str) -> bool:
    return NEGATION_RE.search(sentence) is not None


def is_negated(claim: ClaimRecord) -> bool:
    """Whether a text claim states that something is not the case / not disclosed."""
    return claim.text.startswith(NEGATED_PREFIX)


# "X represents / includes / comprises / consists of / refers to / reflects / excludes / means
# ...", "X is calculated / determined / derived / measured / computed / defined / estimated ...":
# a sentence that says what a term is, with the term (a short subject) before the verb
_DEFINES = re.compile(
    r"^[^;:]{2,160}?\s(?:represent(?:s|ed)?|include[sd]?|(?:(?:is|are|was|were) )?comprise[sd]?|"
    r"consist(?:s|ed)? of|refer(?:s|red)? to|reflect(?:s|ed)?|exclude[sd]?|means|"
    r"(?:is|are|was|were|has been|have been) (?:calculated|determined|derived|measured|computed|"
    r"defined|estimated))\s", re.I)
_DEFINES_SUBJECT = 14  # words: a longer subject is a clause, not a term


def defines(sentence: str) -> bool:
    """Whether a sentence says what a term is, represents, includes or how it is calculated
    (`_DEFINES`): such a sentence answers "what does X represent" even with no number in it."""
    m = _DEFINES.match(sentence.strip())
    return bool(m) and not sentence.rstrip().endswith("?") and len(
        m.group(0).split()) - 1 <= _DEFINES_SUBJECT


# a sentence kept as a `sentence` claim has at least this many words: shorter lines ("Notes",
# "Continued", a lone label) state nothing a question could be answered with
SENTENCE_MIN_WORDS = 4


def keeps_sentence(sentence: str) -> bool:
    """Whether a sentence that gives no fact claim is kept as a `sentence` claim: every prose
    sentence of a few words or more that is not a question. A report's "why" and "how" are
    told in sentences with no figure in them, and an answer quoting one must be able to cite
    it, so ingestion keeps them all (not only definitions, `defines`)."""
    s = sentence.strip()
    return not s.endswith("?") and (defines(s) or len(re.findall(r"\w+", s))
                                    >= SENTENCE_MIN_WORDS)


def _states_fact(sentence: str, entity: str | None) -> bool:
    if sentence.rstrip().endswith("?") or entity is None:
        return False
    return len(sentence.split()) >= 3


def extract_claims(
    passages: Sequence[Passage], *, conf_text: float = 0.75, fiscal_year_start_month: int = 1
) -> tuple[list[ClaimRecord], list[RelationRecord]]:
    """Text claims and relations of passages (in document order).

    Context flows down a document: a heading ("Riverside Clinic Annual Report 2024") sets the
    subject and period for the passages below it; a paragraph's first entity is its subject.
    A sentence without an entity ("Its revenue ...", "The clinic ...") takes the subject and its
    claim text is prefixed with it in brackets ("[Riverside Clinic] Its revenue ..."); a sentence
    without a period takes the paragraph's, then the heading's, then the document's period.
    """
    claims: list[ClaimRecord] = []
    relations: list[RelationRecord] = []
    fiscal = fiscal_year_start_month
    doc_state: dict[str, dict[str, object]] = {}
    for passage in passages:
        st = doc_state.setdefault(passage.source, {"known": [], "doc_subject": None,
                                                   "doc_period": None, "head_subject": None,
                                                   "head_period": None})
        known: list[str] = st["known"]  # type: ignore[assignment]
        text = passage.text
        if is_heading(text):
            if "body_names" not in st:
                st["body_names"] = _body_names(passages, passage.source)
            subj = _heading_entity(text, known, st["body_names"])  # type: ignore[arg-type]
            periods = _main_periods(text, fiscal)
            if subj and subj not in known:
                known.append(subj)
            period = periods[0][2] if periods else None
            if st["doc_subject"] is None and subj:
                st["doc_subject"] = subj
            if st["doc_period"] is None and period:
                st["doc_period"] = period
            st["head_subject"] = subj or st["doc_subject"]
            st["head_period"] = period or st["doc_period"]
            continue
        para_subject: str | None = None
        para_period: TimeKey | None = None
        for s_idx, (_s0, _s1, sentence) in enumerate(split_sentences(text)):
            found = find_entities(sentence, known)
            for _, _, e in found:
                if e not in known and len(e.split()) > 1:
                    known.append(e)
            ents = [e for _, _, e in found]
            context_subject = (para_subject or st["head_subject"] or st["doc_subject"])
            pronoun = _PRONOUN_START.match(sentence) is not None
            subject = ents[0] if ents and not (pronoun and context_subject) else None
            if pronoun and context_subject:
                subject = None
            resolved = subject or context_subject  # type: ignore[assignment]
            if para_subject is None and subject:
                para_subject = subject
            periods = _main_periods(sentence, fiscal)
            inherited = para_period or st["head_period"] or st["doc_period"]
            clauses = _clauses(sentence)
            negated = _is_negated(sentence)
            base_loc = Locator(file=passage.source, page=passage.page,
                               paragraph=passage.paragraph, sentence=s_idx)
            # Relations: entities of the sentence, then the subject for "It"/"The company".
            rel_ents = list(dict.fromkeys(ents + ([resolved] if resolved else [])))
            relations.extend(extract_relations(sentence, rel_ents, base_loc))

            facts = _facts(sentence, found, resolved, clauses, pronoun)
            if not facts and _states_fact(sentence, resolved) and (
                    ents or pronoun or negated):
                subj_end = next((b for a, b, e in found if e == resolved), 0)
                if not subj_end and pronoun:
                    pm = _PRONOUN_START.match(sentence)
                    subj_end = pm.end() if pm else 0
                attr = attribute_without_number(sentence, ents, negated, subj_end)
                facts = [_Fact(0, 0, None, attr, resolved)] if attr else []
            if not facts and keeps_sentence(sentence):
                # a sentence that states no figure and no fact the rules read ("Order intake
                # represents commitments from customers ...", "The decrease was due to lower
                # volumes."): kept whole as a sentence claim, so a text question can quote it
                # and cite it (the span programs, the span reader)
                claims.append(ClaimRecord(
                    kind="sentence", text=sentence, locator=base_loc, entity=None,
                    attribute=None, value_text=None, value_num=None, scale="", unit="",
                    value_base=None, time_key=None, period_start=None, period_end=None,
                    order_key=None, conf_base=conf_text))
            listed, unwritten = _respective_periods(sentence, facts, periods)
            for k, f in enumerate(facts):
                tk = _period_for(f.start, periods, clauses) if f.number is not None else (
                    periods[0][2] if periods else None)
                if k in unwritten:
                    tk = listed.get(k)  # "..., respectively": the n-th amount, the n-th period
                from_context = False
                if tk is None and f.number is not None and k not in unwritten:
                    tk = inherited  # type: ignore[assignment]
                    from_context = tk is not None
                entity = f.entity
                prefix_bits = []
                if entity and entity not in sentence:
                    prefix_bits.append(entity)
                    from_context = True
                if from_context and tk is not None and not periods:
                    prefix_bits.append(tk.key)
                prefix = f"[{', '.join(prefix_bits)}] " if prefix_bits else ""
                claim_text = (NEGATED_PREFIX if negated else "") + prefix + sentence
                n = f.number
                claims.append(ClaimRecord(
                    kind="text",
                    text=claim_text,
                    locator=Locator(file=passage.source, page=passage.page,
                                    paragraph=passage.paragraph, sentence=s_idx,
                                    span=(f.start, f.end) if n is not None else None),
                    entity=entity,
                    attribute=f.attribute or None,
                    value_text=n.text if n else None,
                    value_num=n.value if n else None,
                    scale=n.scale if n else "",
                    unit=f.unit,
                    value_base=n.base if n else None,
                    time_key=tk.key if tk else None,
                    period_start=tk.start if tk else None,
                    period_end=tk.end if tk else None,
                    order_key=tk.order_key if tk else None,
                    conf_base=round(conf_text - (CONTEXT_PENALTY if from_context else 0.0), 4),
                ))
            coarse = [p for p in periods if p[2].grain in ("year", "half", "quarter", "ltm")]
            if coarse:
                para_period = coarse[-1][2]
    return claims, relations


def _facts(sentence: str, found: list[tuple[int, int, str]], resolved: str | None,
           clauses: list[tuple[int, int]], pronoun: bool) -> list[_Fact]:
    """One fact per number of the sentence (years, ratio denominators and numbers inside names
    excluded), each with the entity nearest before it in its clause and its attribute."""
    numbers = []
    for a, b, n in find_numbers(sentence, include_years=False):
        if n.is_year or (not n.unit and not n.scale and re.fullmatch(r"1[5-9]\d\d", n.text)):
            continue  # "founded in 1894": a year, not a measurement
        if any(ea <= a < eb for ea, eb, _ in found):
            continue  # digits inside a name ("Route 66 Diner")
        if _is_label_number(sentence, a, n):
            continue  # "tier 1 ratio", "Phase 3 trial": a label, not a measurement
        numbers.append((a, b, n))
    numbers = _ranges(sentence, numbers)
    out: list[_Fact] = []
    prev_attr: str | None = None
    skip: set[int] = set()
    ent_names = [e for _, _, e in found]
    for k, (a, b, n) in enumerate(numbers):
        if k in skip:
            continue
        # "13 to 1" ratios: one value, the second number is the denominator.
        if k + 1 < len(numbers) and re.fullmatch(r"\s*(?:to|:)\s*", sentence[b:numbers[k + 1][0]]) \
                and numbers[k + 1][2].value == 1:
            skip.add(k + 1)
            clause_start = next((c0 for c0, c1 in clauses if c0 <= a < c1), 0)
            attr = subject_attribute(sentence[clause_start:a], ent_names) or "ratio"
            out.append(_Fact(a, numbers[k + 1][1], n, attr,
                             _entity_for(a, found, clauses, resolved, pronoun), "ratio"))
            prev_attr = attr
            continue
        clause_start = next((c0 for c0, c1 in clauses if c0 <= a < c1), 0)
        attr, unit = attribute_for(sentence, a, b, n, prev_attr, ent_names, clause_start)
        out.append(_Fact(a, b, n, attr, _entity_for(a, found, clauses, resolved, pronoun), unit))
        if not attr.endswith((" growth", " decline")):
            prev_attr = attr
    return out




def _is_label_number(sentence: str, a: int, n: ParsedNumber) -> bool:
    prev = re.search(r"([A-Za-z]+)\.?\s+$", sentence[:a])
    return (prev is not None and prev.group(1).lower() in LABEL_WORDS and not n.scale
            and not n.unit and re.fullmatch(r"\d{1,2}", n.text) is not None)


def _ranges(sentence: str, numbers: list) -> list:
    """A range "$1.1-1.3 billion" / "6% to 8%" prints the currency on the first number and the
    scale on the second: each end gets what the other shows."""
    from dataclasses import replace

    out = list(numbers)
    for k in range(len(out) - 1):
        a0, b0, n0 = out[k]
        a1, b1, n1 = out[k + 1]
        if not re.fullmatch(r"\s*(?:-|\u2013|\u2014|to)\s*", sentence[b0:a1]):
            continue
        if not n0.scale and n1.scale:
            n0 = replace(n0, scale=n1.scale)
        if n0.unit and not n1.unit:
            n1 = replace(n1, unit=n0.unit)
        elif n1.unit and not n0.unit:
            n0 = replace(n0, unit=n1.unit)
        out[k], out[k + 1] = (a0, b0, n0), (a1, b1, n1)
    return out


def _entity_for(pos: int, found: list[tuple[int, int, str]], clauses: list[tuple[int, int]],
                resolved: str | None, pronoun: bool) -> str | None:
    """The entity nearest before the number in its clause; else the sentence's subject."""
    if pronoun:
        # "Its revenue ... and Acme's ..." is rare; a pronoun sentence is about the subject.
        clause = next(((a, b) for a, b in clauses if a <= pos < b), (0, 10**9))
        local = [e for a, b, e in found if clause[0] <= a and b <= pos and a > 0]
        return local[-1] if local and clause[0] > 0 else resolved
    clause = next(((a, b) for a, b in clauses if a <= pos < b), (0, 10**9))
    local = [e for a, b, e in found if clause[0] <= a and b <= pos]
    if local:
        return _prefer_org(local, found, pos)
    before = [e for a, b, e in found if b <= pos]
    if before:
        return before[0]
    return resolved


def _prefer_org(local: list[str], found: list[tuple[int, int, str]], pos: int) -> str:
    """Among entities before the number, the subject: the first one, unless a later one sits
    in a possessive/'of' phrase of the attribute ("The rate of Crestwood College was")."""
    return local[0] if len(local) > 1 else local[-1]
