"""Questions a sentence answers in words: "What does order intake represent?", "What do the
tax fees comprise of?", "How is EBITDA calculated?", "What did total lease liabilities as of
2020 exclude?".

The engine does not compose words (`guards.asks_for_explanation`), but quoting the words a
report's sentence states is no composing: the answer is a span of one sentence, cited as the
evidence, exactly traceable. Ingestion keeps every prose sentence as text claims
(`ingest/textclaims.py`, one claim with no value when the sentence states no number), so the
reader looks among them for the one sentence that answers, the way an analyst would:

- the question names a term X and a verb: "what does/do/did X represent / include / comprise
  (of) / consist of / refer to / reflect / exclude / mean", or "how is/are/was/were X
  calculated / determined / derived / measured / computed / defined / estimated";
- the sentence's subject — everything before the verb's first occurrence — is the term: the
  same content words (a determiner, "the Company's", a month and day may differ; a year the
  question does not name may be there, and a sentence for another year is then a rival);
  a sentence whose subject is something else ("... which represents ...") says nothing about
  X's definition;
- the answer is the clause after the verb, to the sentence's end, cut where another subject
  starts ("; ", ", while", ", whereas"), without the final period or a leading "our" (the
  report's own voice, not part of what X is);
- it abstains when two sentences qualify with different clauses, when the verb is qualified
  ("comprised primarily of": the clause is not all X is), or when the clause states two or
  more figures (a breakdown, which the amount readers and the user read figure by figure).

The result is a `link.reading.Resolved` whose one committed fact is the sentence's text claim
(value none, so the draft quotes the sentence itself); its answer is the quoted span.
Nothing here knows a benchmark: the same reading applies to any report's prose.
"""

from __future__ import annotations

import re

from hyrag.answer.link.commitment import CommitmentStore, Fact
from hyrag.answer.link.reading import Resolved
from hyrag.answer.link.warrant import Verdict
from hyrag.answer.parse.catalog import per_view
from hyrag.answer.parse.requirements import Requirement
from hyrag.answer.programs.lexicon import singular

# the question's verb -> how a sentence writes it
_VERBS = {
    "represent": r"represent(?:s|ed)?", "include": r"include[sd]?",
    "comprise": r"(?:(?:is|are|was|were) )?comprise[sd]?(?: of)?",
    "consist of": r"consist(?:s|ed)? of", "refer to": r"refer(?:s|red)? to",
    "reflect": r"reflect(?:s|ed)?", "exclude": r"exclude[sd]?", "mean": r"means?|meant",
}
_WHAT = re.compile(r"^\s*what (?:does|do|did) (.+?) (represent|include|comprise|consist of|"
                   r"refer to|reflect|exclude|mean)(?: of)?\s*\??\s*$", re.I)
_HOW = re.compile(r"^\s*how (?:is|are|was|were) (.+?) (calculated|determined|derived|measured|"
                  r"computed|defined|estimated)\s*\??\s*$", re.I)
# words that do not tell one subject from another
_STOP = frozenset({
    "the", "a", "an", "our", "its", "their", "this", "these", "those", "company", "companys",
    "group", "groups", "of", "in", "for", "as", "at", "on", "to", "and", "s", "entity",
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december"})
# a subject longer than this is a clause, not a term
_MAX_SUBJECT = 14
# a clause ends where another subject starts
_CUT = re.compile(r";\s|,\s+(?:while|whereas)\b")
_QUALIFIED = re.compile(r"^(?:primarily|mainly|principally|largely|generally|partly|"
                        r"partially|substantially|predominantly)\b", re.I)
_FIGURE = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?![\w.])")
_YEAR = re.compile(r"(?:19|20)\d{2}")


def _norm(s: str) -> str:
    return s.replace("’", "'").replace("‘", "'")


def _words(s: str) -> set[str]:
    """The content words of a subject (lower case, a plural's "s" dropped) and its years."""
    out = set()
    for w in re.findall(r"[a-z][a-z'\-]*|\d{4}", _norm(s).lower()):
        w = w.replace("'", "")
        if w in _STOP:
            continue
        out.add(singular(w))
    return out


def asks_span(question: str) -> tuple[str, str] | None:
    """(the term, the verb pattern a sentence writes) of a question this reader reads."""
    q = _norm(question)
    m = _WHAT.match(q)
    if m:
        return m.group(1), _VERBS[m.group(2).lower()]
    m = _HOW.match(q)
    if m:
        return m.group(1), r"(?:is|are|was|were|has been|have been) " + m.group(2).lower()
    return None


def clause(sentence: str, term: str, verb: str) -> str | None:
    """The clause after the verb when the sentence's subject is the term, else None; "" when
    the clause is one the reader does not quote (qualified, or a breakdown of figures)."""
    want = _words(term)
    if not want:
        return None
    s = sentence.strip()
    m = re.search(r"(?:\s*\([^)]*\))?,?\s+(?:" + verb + r")\b\s*", _norm(s), re.I)
    if m is None or len(s[:m.start()].split()) > _MAX_SUBJECT:
        return None
    have = _words(s[:m.start()])
    if not (want <= have and all(_YEAR.fullmatch(w) for w in have - want)):
        return None
    out = _CUT.split(s[m.end():], maxsplit=1)[0].strip()
    out = re.sub(r"^our\s+", "", out.rstrip(" .")).strip()
    if not out or _QUALIFIED.match(out):
        return ""
    if len([f for f in _FIGURE.findall(out) if not _YEAR.fullmatch(f)]) >= 2:
        return ""
    return out


_SENTENCES: dict[tuple, list[dict]] = {}


def sentences(con) -> list[dict]:
    """One text claim per prose sentence (the first of a sentence's claims), in store order,
    its `text` as stored and its `sentence` without the negation and carried-subject marks;
    cached per database generation and reader view — the prose every reader scans."""
    def build(c) -> list[dict]:
        cur = c.cursor().execute(
            "SELECT claim_id, text, locator, coalesce(file, '') AS file, conf_base, value_base "
            "FROM claims WHERE NOT superseded AND kind IN ('text', 'sentence') ORDER BY order_key, claim_id")
        names = [d[0] for d in cur.description]
        seen: dict[str, dict] = {}
        for r in cur.fetchall():
            row = dict(zip(names, r, strict=True))
            # a negation is quoted with the clause ("... for which we have not received the
            # goods"); "X does not include Y" has no subject X before the verb, so it is no match
            row["sentence"] = re.sub(r"^(?:\[negated\] )?(?:\[[^\]]*\] )?", "", row["text"] or "")
            seen.setdefault(row["sentence"], row)
        return list(seen.values())
    return per_view(_SENTENCES, con, build)


def resolve(question: str, con) -> Resolved | None:
    """The quoted span, or None when no single sentence states it."""
    asked = asks_span(question)
    if asked is None:
        return None
    term, verb = asked
    found: dict[str, dict] = {}
    for row in sentences(con):
        span = clause(row["sentence"], term, verb)
        if span is not None:
            found.setdefault(span, row)
    if len(found) != 1:
        return None  # none, or two sentences say different things
    span, row = next(iter(found.items()))
    if not span:
        return None
    label = " ".join(term.split())
    req = Requirement("R1", None, label)
    store = CommitmentStore()
    store.commit(Fact(
        claim_id=row["claim_id"], requirement="R1", source=row["file"], locator=row["locator"],
        text=row["sentence"], entity=None, attribute=label, value=None, value_text="",
        value_base=row["value_base"], unit="", scale="", time_key=None, kind="text",
        table=None, score=1.0, warrant_query=f"prose sentence defining {label!r}",
        confidence=float(row["conf_base"] or 0.0)))
    return Resolved([req], [Verdict(req, "direct", (row["claim_id"],))], store, [],
                    "prose_span", span, "", 1.0, 0)
