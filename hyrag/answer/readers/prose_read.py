"""Questions answered from a report's prose: an amount a sentence states, or a simple
computation over two or three of them.

The table readers (`tableqa.py`, `tableops.py`) answer from cells; much of what a report says
lives only in its sentences ("Cloud infrastructure costs include $9.5 million of hosting related
costs ... in fiscal year 2018"). Ingestion already splits the prose into text claims, one per
number, with the sentence, the number's span, its displayed text, scale and unit
(`ingest/textclaims.py`). This reader starts from those claims, regrouped by sentence with
each amount's own period (`prose_amounts.py`), and reads a sentence the way an analyst does:

- the sentence must contain every content word of the question (light stemming; direction
  words "increase" / "rose" / "declined" read as one of two directions). A word the sentence
  lacks is a subject the sentence may not be about, so it is not guessed at;
- the period: each amount's own period (`prose_periods.py`: "respectively" lists, bracketed
  comparatives, the period next to the amount) must be the one the question names; a question
  that names none is not dated by the reader (the engine asks to clarify such a table
  question too);
- the kind: a question about a percentage takes a percentage, "how many" a count, anything
  else an amount that is not a percentage;
- the place: one question word within seven words of the amount and most within fifteen; two
  words the question writes together written together in the sentence; a word that only
  another amount's phrase carries rules the amount out ("China ... 53%; ... Taiwan ... 13%");
  a part ("of which $9,028", "due to a $1.9 million decrease in Y") answers only a question
  that names the part; a stated change answers only a change question, and a level only a
  level question;
- among the amounts left, the one whose sentence words sit nearest the question's words; two
  different values that read about equally well are an ambiguity and the reader abstains.
  A sum or average is not computed from a rounded restatement of a table figure.

Answers keep the sentence's own surface form ("$9.5 million", "19.0%", "1,620"; a duration
keeps its unit: "2.5 years"). A change, average, sum or percentage change over two or more
periods is computed from one stated amount per period with the engine's `Derivation`s, so the
ReverseVerifier re-computes it from the cited sentences. The result is a `link.reading.Resolved`:
drafting, verification, the decision and the audit record are those of every other answer.
Nothing here knows a benchmark: the same code reads any annual report's prose.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from hyrag.answer.execute.tools import Derivation, Operand, fmt
from hyrag.answer.link.commitment import CommitmentStore, Fact
from hyrag.answer.link.reading import Resolved
from hyrag.answer.link.warrant import Verdict
from hyrag.answer.parse.requirements import Requirement
from hyrag.answer.programs.lexicon import singular
from hyrag.answer.readers import prose_periods
from hyrag.answer.readers import tableqa_read as read
from hyrag.answer.readers.prose_amounts import Amount, sentences, table_restates
from ingest.units import MAGNITUDES, SCALE_WORDS

_STOP = {
    "what", "which", "who", "whom", "how", "much", "many", "was", "were", "is", "are", "be",
    "been", "being", "did", "does", "do", "the", "a", "an", "of", "in", "for", "and", "to", "on",
    "by", "at", "as", "from", "with", "its", "it", "their", "our", "we", "company", "companys",
    "group", "groups", "that", "this", "these", "those", "has", "have", "had", "amount",
    "amounts", "value", "values", "respective", "respectively", "both", "during", "year",
    "years", "fiscal", "fy", "ended", "ending", "end", "period", "there", "also", "reported",
    "figure", "approximately", "about", "between", "current", "s", "what's", "you",
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
    "sept", "oct", "nov", "dec", "date", "dates", "total", "entity", "entitys", "corporation",
    "number", "into", "onto", "money", "due", "million", "millions", "billion", "billions",
    "thousand", "thousands",
}
_OPS = {"average", "mean", "change", "difference", "sum", "combined", "altogether", "percentage",
        "percent", "increase", "decrease", "growth", "decline", "rise", "fall", "ratio"}
_UP = {"increas", "rose", "rise", "risen", "grew", "grow", "growth", "higher"}
_DOWN = {"decreas", "declin", "fell", "fall", "fallen", "drop", "lower", "reduc", "down"}
_DURATION = re.compile(r"\s+(years?|months?|weeks?|days?)\b", re.I)
_PCT_ASKED = re.compile(r"\bpercent|\bper cent\b|%|\brates?\b|\bproportion\b", re.I)
_PCT_OK = re.compile(r"\bmargin\b|\bportion\b|\bownership\b|\bstake\b|\bshare of\b|\binterest in\b", re.I)
_DURATION_ASKED = re.compile(r"\bhow long\b|\bhow many (?:years|months|weeks|days)\b|\bterm\b|"
                             r"\bduration\b|\bperiod\b|\blife\b|\bover what\b", re.I)
_COUNT_ASKED = re.compile(r"\bhow many\b(?!\s+(?:thousands?|millions?|billions?)\b)", re.I)
# a second value reads "about equally well" when its score is at least this share of the best
_TIE = 0.8
# the nearest question word must sit within this many words of the amount
_NEAR_WORDS = 7
# ... and most of its words within this many words: a long sentence holds several amounts
_WINDOW, _LOCAL = 15, 0.6
_MONTH = re.compile(r"\b(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|"
                    r"aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
                    r"\b", re.I)


def _norm_text(s: str) -> str:
    return s.replace("’", "'").replace("U.S.", "US").replace("U.S", "US")


def stem(w: str) -> str:
    """A word as a sentence and a question are matched on: possessive and plural
    (`lexicon.singular`) go, then -ed/-ing/-e, so "granted" meets "grant" and "expensed" meets
    "expenses"; direction words become one token each."""
    w = re.sub(r"is(e|ed|es|ing|ation|ations)$", r"iz\1", w.lower().replace("'", ""))
    if w in _UP or w in _DOWN:
        return "+up" if w in _UP else "+down"
    w = singular(w)
    for suf in ("ing", "ed", "e"):
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: -len(suf)]
            break
    if w in _UP or w.startswith("increas"):
        return "+up"
    if w in _DOWN or any(w.startswith(d) for d in ("decreas", "declin", "reduc")):
        return "+down"
    return w


def tokens(text: str) -> list[tuple[int, str]]:
    """(character position, stem) of each content word of a sentence: distances are counted
    in words that say something ("the", "for the year ended December" and "million" do not)."""
    t = _norm_text(text)
    return [(m.start(), stem(m.group(0))) for m in re.finditer(r"[A-Za-z][A-Za-z']*|\d+[a-z]*",
                                                                t)
            if not re.fullmatch(r"\d+", m.group(0))
            and (w := m.group(0).lower().replace("'", "")) not in _STOP and w not in SCALE_WORDS]


def _anchor(a: Amount, group: list[Amount]) -> int:
    """Where the words describing an amount are measured from: the first amount of the list it
    is part of ("$2.5 million, $2.6 million and $2.4 million"), or, for a bracketed
    comparative "(2018: £12.4 million)", the amount the brackets follow."""
    k = group.index(a)
    while k > 0:
        between = a.sentence[group[k - 1].end:group[k].start]
        if re.fullmatch(r"\s*(?:,\s*)?(?:and\s+|or\s+)?(?:approximately\s+)?", between) or \
                re.fullmatch(r"\s*\([^()]*", between) and ")" not in between:
            k -= 1
            continue
        break
    return group[k].start


def _question_words(question: str, keep_direction: bool) -> list[str]:
    out = []
    for m in re.finditer(r"[A-Za-z][A-Za-z']*|\d+[a-z]*", _norm_text(question)):
        w = m.group(0).lower().replace("'", "")
        if w in _STOP or re.fullmatch(r"\d+", w) or len(w) < 2:
            continue
        if w in _OPS and not keep_direction:
            continue
        s = stem(w)
        if s in ("+up", "+down") and not keep_direction:
            continue
        if w == "change" and keep_direction:
            s = "+change"
        elif w in _OPS - {"increase", "decrease", "growth", "decline", "rise", "fall"}:
            continue
        out.append(s)
    if "+up" in out and "+down" in out:  # "the increase / (decrease)": either direction
        out = [w for w in out if w not in ("+up", "+down")] + ["+change"]
    return list(dict.fromkeys(out))


# -- matching --------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Hit:
    amount: Amount
    score: float


def _kind_ok(question: str, a: Amount, ratio: bool = False) -> bool:
    if re.search(r"\bper (?:share|unit|ordinary share)\b", question, re.I) and a.scale in (
            "million", "billion"):
        return False  # an amount per share is not millions
    if _DURATION.match(" " + a.text.split(maxsplit=1)[-1]) and not _DURATION_ASKED.search(
            question):
        return False  # "30 days" answers "how long", not "what was the expense amount"
    if ratio:  # a percentage change is asked of two amounts, not of two percentages
        return not a.percent
    if _PCT_ASKED.search(question):
        return a.percent
    if a.percent:
        return bool(_PCT_OK.search(question))
    if _COUNT_ASKED.search(question):
        return not a.currency
    return True


_BOUNDARY = re.compile(r";|\brespectively\b,?|,\s+of which\b|,\s+(?:and|while|but|whereas)\b|"
                       r"\bwhereas\b|\bcompared (?:to|with)\b|\sand (?:a|an|the)\b|"
                       r"\b(?:due to|driven by|attributable to|as a result of|including|"
                       r"offset by)\b")
# an amount after one of these explains or breaks down the one before it
_COMPONENT = re.compile(r"\b(?:of which|due to|driven by|attributable to|as a result of|"
                        r"including|offset by|consist(?:ed|s|ing)? of)\b", re.I)


def _owners(group: list[Amount]) -> tuple[list[int], list[tuple[int, int, int]]]:
    """Which words of a sentence belong to which of its amount lists. Amounts joined by
    "," / "and" form one list; the text between two lists is split at the last clause boundary
    ("; ", "respectively,", ", of which", ", and") — before it the words describe the earlier
    list, after it the later one; with no boundary, or before the first amount (the subject),
    the words are shared. Returns each amount's list number and (start, end, list) zones."""
    lists: list[int] = []
    for k, a in enumerate(group):
        if k and _anchor(a, group) == _anchor(group[k - 1], group):
            lists.append(lists[-1])
        else:
            lists.append(lists[-1] + 1 if lists else 0)
    zones: list[tuple[int, int, int]] = []
    sent = group[0].sentence
    for k in range(len(group) - 1):
        if lists[k + 1] == lists[k]:
            continue
        gap_a, gap_b = group[k].end, group[k + 1].start
        cut = [m.end() for m in _BOUNDARY.finditer(sent[gap_a:gap_b])] or [
            m.end() for m in re.finditer(r"\sand\s", sent[gap_a:gap_b])]
        if cut:
            zones.append((gap_a, gap_a + cut[-1], lists[k]))
            zones.append((gap_a + cut[-1], gap_b, lists[k + 1]))
    zones.append((group[-1].end, len(sent), lists[-1]))
    return lists, zones


def _elsewhere(words: list[str], toks: list[tuple[int, str]], own: int,
               zones: list[tuple[int, int, int]]) -> bool:
    """Whether a question word occurs in the sentence only where another amount list is
    described ("... China ... 53%; revenue from sales into Taiwan accounted for 13%": asked
    about Taiwan, the 53% is not the answer whatever its distance)."""
    for w in words:
        places = [p for p, s in toks if s == w]
        owners = {next((z for a, b, z in zones if a <= p < b), None) for p in places}
        if places and None not in owners and own not in owners:
            return True
    return False


def _phrase(words: list[str], toks: list[tuple[int, str]]) -> bool:
    """Whether two words the question writes together are written together in the sentence
    too ("income tax expense" is not "pre-tax acquisition expenses ..., income of"): words
    scattered over a sentence describe other things."""
    subject = [w for w in words if not w.startswith("+")]
    if len(subject) < 2:
        return True
    pairs = {frozenset(p) for p in zip(subject, subject[1:], strict=False)}
    stems = [s for _, s in toks]
    return any(frozenset(p) in pairs for p in zip(stems, stems[1:], strict=False))


def _component(a: Amount, group: list[Amount]) -> bool:
    """Whether the amount breaks down or explains an earlier one of its sentence."""
    k = group.index(a)
    start = group[k - 1].end if k else 0
    return k > 0 and bool(_COMPONENT.search(a.sentence[start:a.start]))


def _named(words: list[str], toks: list[tuple[int, str]], own: int,
           zones: list[tuple[int, int, int]]) -> bool:
    """Whether a subject word of the question (not a direction) is among the words that
    describe this amount list alone: a part answers only a question that names the part."""
    mine = [(a, b) for a, b, z in zones if z == own]
    return any(s in words and not s.startswith("+") and any(a <= p < b for a, b in mine)
               for p, s in toks)


def _score(words: list[str], toks: list[tuple[int, str]], a: Amount,
           anchor: int) -> float | None:
    """How well the sentence's words around the amount carry the question's words: None when a
    question word is missing from the sentence, none is near the amount or most are far from
    it; else the sum of 1 / (1 + distance in words)."""
    idx_a = next((i for i, (p, _) in enumerate(toks) if p >= anchor), len(toks))
    total, nearest = 0.0, 10 ** 6
    for w in words:
        if w == "+change":
            where = [i for i, (_, s) in enumerate(toks) if s in ("+up", "+down", "chang")]
        else:
            where = [i for i, (_, s) in enumerate(toks) if s == w]
        if not where:
            return None
        d = min(idx_a - i if i < idx_a else i - idx_a + 1 for i in where)
        nearest = min(nearest, d)
        total += 1.0 / (1.0 + d)
    if nearest > _NEAR_WORDS:
        return None  # no word of the question is near the amount: it measures something else
    local = sum(1 for w in words if any(
        abs(i - idx_a) <= _WINDOW for i, (_, s) in enumerate(toks)
        if s == w or (w == "+change" and s in ("+up", "+down"))))
    if local < _LOCAL * len(words):
        return None  # most of the question's words describe another amount of the sentence
    return total


def find(question: str, amounts: list[list[Amount]], period: str | None, *,
         keep_direction: bool = True, any_period: bool = False,
         ratio: bool = False) -> list[_Hit] | None:
    """The amounts the question's words and `period` select, best first; None when the words
    select nothing or two different values read about equally well."""
    words = _question_words(question, keep_direction)
    if not words:
        return None
    wants_change = any(w.startswith("+") for w in words)
    quoted = {re.sub(r"[^\d.]", "", m) for m in re.findall(r"\d[\d,.]*", question)}
    hits: list[_Hit] = []
    for group in amounts:
        toks = tokens(group[0].sentence)
        if not _phrase(words, toks):
            continue
        lists, zones = _owners(group)
        for k, a in enumerate(group):
            if not _kind_ok(question, a, ratio) or a.label or a.change != wants_change:
                continue
            if re.sub(r"[^\d.]", "", a.text) in quoted:
                continue  # the question quotes this number: it asks about something else
            if period is not None and a.period != period:
                continue
            if period is None and not any_period and a.period is not None and any(
                    b.period not in (None, a.period) and b.value != a.value for b in group):
                continue  # the sentence gives other periods' amounts: which one is unsaid
            s = _score(words, toks, a, _anchor(a, group))
            if s is not None and _component(a, group) and not _named(words, toks, lists[k],
                                                                     zones):
                continue  # "of which $9,028", "due to a $1.9 million decrease in Y": a part
            if s is not None and not _elsewhere(words, toks, lists[k], zones):
                hits.append(_Hit(a, s))
    months = {m.group(1)[:3].lower() for m in _MONTH.finditer(question)}
    if months:  # "granted in December 2019": a sentence naming that month comes first
        named = [h for h in hits if months & {m.group(1)[:3].lower()
                                              for m in _MONTH.finditer(h.amount.sentence)}]
        hits = named or hits
    if not hits:
        return None
    hits.sort(key=lambda h: -h.score)
    best = hits[0]
    rival = next((h for h in hits[1:] if not _same(h.amount, best.amount)), None)
    if rival is not None and rival.score >= _TIE * best.score:
        return None
    if period is None and any(h.amount.period not in (None, best.amount.period)
                              and not _same(h.amount, best.amount) for h in hits):
        return None  # the question names no period and the prose has two
    return hits


def _same(a: Amount, b: Amount) -> bool:
    return a.value == b.value and a.scale == b.scale and a.percent == b.percent


def surface(a: Amount, question: str) -> str:
    """The answer as the sentence writes it: "$9.5 million", "19.0%", "1,620" — a count's
    noun ("employees") is the question's, a duration's unit ("2.5 years") is part of it."""
    t = a.text.strip()
    m = re.match(r"^(.*?\d(?:[\d,.]*\d)?)(\s+[A-Za-z][A-Za-z ]*)$", t)
    if m and a.unit and a.unit not in ("USD", "EUR", "GBP") and not a.percent and not a.scale:
        tail = m.group(2)
        t = m.group(1) + (tail if _DURATION.fullmatch(tail) else "")
    if not _DURATION.search(t):
        d = _DURATION.match(a.sentence[a.end:])
        if d and not a.currency and not a.percent:
            t += d.group(0)
    return t


# -- the answer ------------------------------------------------------------------------------
_NOT_AMOUNT = re.compile(
    r"^\s*(?:when|who|whom|whose|where|why|which|what (?:do|does|did)\b|"
    r"how (?:is|are|was|were|does|do|did|has|have) (?!much\b|many\b)|"
    r"what (?:is|are|was|were) (?:the )?(?:\w+ )?(?:type|kind|method|approach|result|reason|"
    r"purpose|basis|objective|definition|nature|role|policy|name|symbol|scope)s?\b)|"
    r"\b(?:recogni[sz]ed|classified|recorded|presented|defined|described) as\??\s*$", re.I)
_QUANTITY = re.compile(r"\bhow (?:much|many|long)\b|\bwhat (?:percentage|proportion|portion|"
                       r"share)\b|\bby how\b", re.I)
_MEASURE = re.compile(
    r"\b(?:amount|value|cost|expense|revenue|income|sales|price|loss|gain|charge|tax|debt|cash|"
    r"asset|liabilit|payment|fee|allowance|reserve|provision|compensation|depreciation|"
    r"amorti[sz]ation|impairment|dividend|interest|rate|margin|balance|borrowing|proceeds|"
    r"investment|capital|profit|earnings|spend|fund|contribution|obligation|backlog|"
    r"carryforward|benefit|bookings|outflow|inflow|percentage|number|total|ownership|term|"
    r"duration|life)", re.I)


def asks_amount(question: str) -> bool:
    """Whether the question asks for a figure: "how much / how many", or "what was X" where X
    is a measure or a period is named — not "when", "who", "what does X include", "what is
    Deltenna?" (a description: the prose reader does not compose one)."""
    if _NOT_AMOUNT.search(question):
        return False
    if _QUANTITY.search(question):
        return True
    return bool(read.years(question)) or bool(_MEASURE.search(question))


def resolve(question: str, con) -> Resolved | None:
    """A prose answer, or None when no sentence states it unambiguously."""
    if not asks_amount(question):
        return None
    amounts = sentences(con)
    if not amounts:
        return None
    ys = [str(y) for y in read.years(question)]
    ys += [m.key for m in prose_periods.period_mentions(question) if "/" in m.key]
    ys = list(dict.fromkeys(ys))
    # "the weighted-average term" names a measure, it does not ask for a mean
    op = read.operation(question, "weighted average" if re.search(
        r"weighted[- ]average", question, re.I) else "", 1)
    if op in ("argmax", "argmin", "years_where", "count_years", "ratio", "percent_of"):
        return None
    if op == "difference" and re.search(r"\bpercent(?:age)? difference\b", question, re.I):
        op = "change_ratio"
    directed = any(w.startswith("+") for w in _question_words(question, True))
    if op in ("difference", "change_ratio") and 1 <= len(ys) <= 2 and directed:
        # "the increase in X in 2019" / "from 2018 to 2019": a change the sentence states
        stated = _lookup(con, question, [g for g in amounts if all(y in g[0].sentence
                                                                   for y in ys)],
                         ys[-1] if ys else None, "lookup")
        if stated is not None or len(ys) < 2:
            return stated
    if op in ("difference", "change_ratio") and len(ys) < 2:
        return None  # "the difference between A and B": two line items, not a stated change
    if op == "lookup":
        if len(ys) != 1:
            # no period named: as the engine asks to clarify a table question without one,
            # the reader does not pick an amount the question does not date
            return None
        return _lookup(con, question, amounts, ys[0], op)
    full = read.span(question)
    if full and op in ("average", "sum", "each"):
        ys = [str(y) for y in full]
    if len(ys) < 2:
        return None
    if op == "each":
        return _each(con, question, amounts, ys)
    return _compute(con, question, amounts, ys, op)


def _lookup(con, question: str, amounts: list[list[Amount]], year: str | None,
            op: str) -> Resolved | None:
    hits = find(question, amounts, year)
    if not hits:
        return None
    a = hits[0].amount
    b = _Builder(question)
    b.commit(a, hits[0].score)
    text = surface(a, question)
    if "+change" in _question_words(question, True):
        # "how much did X change by": the sentence's own direction is part of the answer
        verb = re.search(r"\b(increased|decreased|declined|rose|fell|grew)\s+(?:by\s+)?$",
                         a.sentence[max(0, a.start - 25):a.start], re.I)
        text = f"{verb.group(1).lower()} {text}" if verb else text
    return b.done([], text, "", "prose_" + op)


def _each(con, question: str, amounts: list[list[Amount]], ys: list[str]) -> Resolved | None:
    b = _Builder(question)
    vals = []
    for y in ys:
        hits = find(question, amounts, y)
        if not hits:
            return None
        b.commit(hits[0].amount, hits[0].score)
        vals.append(surface(hits[0].amount, question))
    return b.done([], vals, "", "prose_each")


def _compute(con, question: str, amounts: list[list[Amount]], ys: list[str],
             op: str) -> Resolved | None:
    b = _Builder(question)
    picked: list[Amount] = []
    for y in ys:
        hits = find(question, amounts, y, keep_direction=False, ratio=op == "change_ratio")
        if not hits or table_restates(con, hits[0].amount):
            return None
        picked.append(hits[0].amount)
    if len({(a.scale, a.percent, a.currency) for a in picked}) != 1:
        return None  # "$5 million" and "7%" do not add up
    ops = [b.commit(a, 1.0) for a in picked]
    first = picked[0]
    scale = "percent" if first.percent else (first.scale if first.scale in MAGNITUDES else "")
    by_year = dict(zip(ys, ops, strict=True))
    if op in ("difference", "change_ratio"):
        if len(ys) != 2:
            return None
        old, new = by_year[min(ys)], by_year[max(ys)]
        if op == "difference":
            if _PCT_ASKED.search(question) and not first.percent:
                return None  # a percentage asked of two amounts: which one is unsaid
            if read.distance(question) and new.value < old.value:
                new, old = old, new
            r = round(new.value - old.value, 2)
            d = Derivation("difference", f"{fmt(new.value)} - {fmt(old.value)}", (new, old), r)
            return b.done([d], r, scale, "prose_difference")
        if old.value <= 0 or first.percent:
            return None
        r = round((new.value - old.value) / old.value * 100, 2)
        d = Derivation("growth", f"({fmt(new.value)} - {fmt(old.value)}) / "
                       f"{fmt(abs(old.value))} x 100", (old, new), r, "%")
        return b.done([d], r, "percent", "prose_change_ratio")
    if op == "average":
        r = round(math.fsum(o.value for o in ops) / len(ops), 2)
        d = Derivation("mean", f"({' + '.join(fmt(o.value) for o in ops)}) / {len(ops)}",
                       tuple(ops), r)
        return b.done([d], r, scale, "prose_average")
    if op == "sum":
        r = round(math.fsum(o.value for o in ops), 2)
        d = Derivation("sum", " + ".join(fmt(o.value) for o in ops), tuple(ops), r)
        return b.done([d], r, scale, "prose_sum")
    return None


class _Builder:
    """Requirements, verdicts and committed facts in the engine's own types."""

    def __init__(self, question: str) -> None:
        self.question = question
        self.label = " ".join(w for w in re.findall(r"[A-Za-z][A-Za-z'-]*", question)
                              if w.lower() not in _STOP | _OPS) or "amount"
        self.store = CommitmentStore()
        self.reqs: list[Requirement] = []
        self.verdicts: list[Verdict] = []

    def commit(self, a: Amount, score: float) -> Operand:
        c = a.claim
        rid = f"R{len(self.reqs) + 1}"
        req = Requirement(rid, None, self.label, period=a.period)
        fact = Fact(
            claim_id=c["claim_id"], requirement=rid, source=c["file"], locator=c["locator"],
            text=a.sentence, entity=None, attribute=self.label, value=a.value,
            value_text=a.text, value_base=c["value_base"], unit=a.unit, scale=a.scale,
            time_key=a.period, kind="text", table=None, score=min(1.0, score),
            warrant_query=f"prose sentence for {self.label!r} period {a.period}",
            confidence=float(c["conf_base"] or 0.0))
        self.store.commit(fact)
        self.reqs.append(req)
        self.verdicts.append(Verdict(req, "direct", (c["claim_id"],)))
        return Operand(c["claim_id"], a.value, f"{self.label} {a.period or ''}".strip(),
                       len(self.reqs))

    def done(self, derivs: list[Derivation], answer: object, scale: str,
             name: str) -> Resolved:
        return Resolved(self.reqs, self.verdicts, self.store, derivs, name, answer, scale,
                        1.0, 0)
