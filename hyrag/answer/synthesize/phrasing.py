"""An answer phrased as a person writes it: the question turned into the statement that
answers it ("How many registered nurses did Riverside Clinic employ in 2024?" + "412" ->
"Riverside Clinic employed 412 registered nurses in 2024").

English wh-questions are a few shapes of one syntax, so the rewrite is by shape, not by
question: a copula question ("What was the X ...?" -> "The X ... was A"), a quantity with an
auxiliary and a main verb ("How many N did S V ...?" -> "S V-ed A N ..."), a quantity with a
copula ("How many N were V-ed ...?" -> "A N were V-ed ..."), a question about when ("When did
S V ...?" -> "S V-ed ... on A", "In which year was S V-ed?" -> "S was V-ed in A"), and a
question about which thing or who ("Which R had the highest X?" -> "A had the highest X",
"Which event came first?" -> "A came first", "Who has the most students?" -> "A has the most
students"). The main
verb is inflected by lemminflect (irregular verbs, doubled consonants: "spend" -> "spent",
"occur" -> "occurred"), imported only when a verb needs it. A question of any other shape
returns None and the synthesizer keeps its template: a statement is never guessed.
"""

from __future__ import annotations

import re
from functools import cache

from hyrag.answer.programs.lexicon import DETERMINERS, PREPOSITIONS

_COPULA = frozenset(("is", "was", "are", "were"))
_AUX_TAG = {"did": "VBD", "does": "VBZ", "do": "VBP"}
# one answer takes the singular of a plural copula ("Opening was before 1969")
_SINGULAR = {"were": "was", "are": "is", "have": "has"}
# a verb after "which N" that is no main verb of its own ("which year was / did revenue ...")
_AUXILIARY = _COPULA | frozenset(_AUX_TAG) | {"had", "has", "have"}

_COPULA_Q = re.compile(r"(?:what|which)\s+(is|was|are|were)\s+(.+)", re.I)
_HOW_AUX_Q = re.compile(r"how\s+(many|much)\s+(?:(.+?)\s+)?(did|does|do)\s+(.+)", re.I)
_HOW_COPULA_Q = re.compile(r"how\s+(many|much)\s+(?:(.+?)\s+)?(is|was|are|were)\s+(.+)",
                           re.I)
# "When did S V ...", "In which year was S V-ed ...", "On what date was S ...": the answer is
# the time the clause happened, stated as its time adverbial at the clause's end
_WHEN_Q = re.compile(r"(?:when|(?:in|during)\s+(?:which|what)\s+(?:year|month)|"
                     r"on\s+(?:which|what)\s+(?:date|day)|what\s+(?:year|date|day))\s+"
                     r"(did|does|do|was|were|is|are)\s+(.+)", re.I)
# a day ("June 24, 1968", "24 June 1968", "1968-06-24") is stated "on" it; a year, a month or
# a quarter "in" it
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}|\b\d{1,2}(?:st|nd|rd|th)?\s+[A-Za-z]{3,}\.?\s+\d{4}|"
                  r"\b[A-Za-z]{3,}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}")
_WHICH_Q = re.compile(r"(?:which|what)\s+(\w+(?:\s+\w+)?)\s+(had|has|have|was|were|is|are)"
                      r"\s+(.+)", re.I)
# "Which team won the most medals", "Who has the most students": the answer is the subject of
# the verb that follows (a one-word noun after "which", so that "which year revenue grew" is
# not read as one)
_WHICH_VERB_Q = re.compile(r"(?:which|what)\s+(\w+)\s+([a-z]+)\s+(.+)", re.I)
_WHO_Q = re.compile(r"who\s+([a-z]+)\s+(.+)", re.I)


def statement(question: str, answer: str, cites: str = "", evidence: str | None = None
              ) -> str | None:
    """The sentence stating `answer` (a formatted value) in the question's own words, its
    citation markers `cites` at its end, or None when the question has none of the module's
    shapes — or, given the `evidence` (the text, names and locators of what the answer rests
    on), when it names someone the evidence does not: restating "did Riverside Clinic employ"
    over a figure of every clinic would claim a scope the evidence lacks; the synthesizer's
    template then says what the figure is of."""
    q = " ".join(question.strip().split()).rstrip("?").strip()
    if not q or not answer:
        return None
    if evidence is not None and not all(n.lower() in evidence.lower() for n in names(q)):
        return None
    for shape in (_how_aux, _how_copula, _when, _which, _which_verb, _who, _copula):
        out = shape(q, answer)
        if out:
            out = out.strip().rstrip(".")
            return out[:1].upper() + out[1:] + (f" {cites}" if cites else "") + "."
    return None


def names(question: str) -> tuple[str, ...]:
    """The names a question uses: runs of capitalised words after its first word ("Riverside
    Clinic", "North"), without figures or period codes (the verifier checks those)."""
    out, run = [], []
    for w in question.split()[1:] + [""]:
        w = w.strip("?,.;:'\"()").removesuffix("'s").removesuffix("’s")
        if w[:1].isupper() and not any(ch.isdigit() for ch in w):
            run.append(w)
            continue
        if run:
            out.append(" ".join(run))
        run = []
    return tuple(out)


def _copula(q: str, answer: str) -> str | None:
    m = _COPULA_Q.fullmatch(q)
    if not m:
        return None
    verb, rest = m.group(1).lower(), m.group(2)
    if rest.split()[0].lower() in _COPULA or len(rest.split()) < 2 and rest.islower():
        return None  # "what is it": nothing to state
    return f"{rest} {verb} {answer}"


def _how_aux(q: str, answer: str) -> str | None:
    m = _HOW_AUX_Q.fullmatch(q)
    if not m:
        return None
    noun, aux, clause = m.group(2) or "", m.group(3).lower(), m.group(4).split()
    at = _main_verb(clause)
    if at is None:
        return None
    verb = _inflect(clause[at], _AUX_TAG[aux])
    if verb is None:
        return None
    subject, rest = " ".join(clause[:at]), " ".join(clause[at + 1:])
    amount = f"{answer} {noun}".strip() if noun else answer
    return " ".join(x for x in (subject, verb, amount, rest) if x)


def _how_copula(q: str, answer: str) -> str | None:
    m = _HOW_COPULA_Q.fullmatch(q)
    if not m:
        return None
    noun, verb, rest = m.group(2) or "", m.group(3).lower(), m.group(4)
    if not noun:  # "How much was the revenue in 2019" -> "The revenue in 2019 was A"
        return f"{rest} {verb} {answer}"
    if rest.lower().startswith("there"):  # "How many N were there in T"
        return f"there {verb} {answer} {noun}{rest[5:]}"
    return f"{answer} {noun} {verb} {rest}"


def _which(q: str, answer: str) -> str | None:
    m = _WHICH_Q.fullmatch(q)
    if not m or m.group(1).split()[0].lower() in _COPULA | {"the", "a", "an"}:
        return None
    verb, rest = m.group(2).lower(), m.group(3)
    if verb in _COPULA and not rest.lower().startswith("the ") and \
            rest.split()[0].lower() not in PREPOSITIONS:
        # "Which year was revenue highest": the answer is not the subject ("Which event was
        # in Rome": it is)
        return None
    if "," not in answer and " and " not in answer:  # one answer: "Opening was", not "were"
        verb = _SINGULAR.get(verb, verb)
    return f"{answer} {verb} {rest}"


def _which_verb(q: str, answer: str) -> str | None:
    """"Which event came first?" -> "Opening came first": a verb in the past tense after a
    one-word noun."""
    m = _WHICH_VERB_Q.fullmatch(q)
    if not m or m.group(1).lower() in _COPULA | {"the", "a", "an", "of"}:
        return None
    verb = m.group(2)
    if verb.lower() in _AUXILIARY or not _inflected(verb, "VERB", ("VBD",)):
        return None
    return f"{answer} {verb} {m.group(3)}"


def _who(q: str, answer: str) -> str | None:
    """"Who has the most students?" -> "Cornell University has the most students"; "Who was
    the director of Alpha?" -> "Ann Lee was the director of Alpha"."""
    m = _WHO_Q.fullmatch(q)
    if not m:
        return None
    verb = m.group(1)
    if verb.lower() in _AUX_TAG or verb.lower() not in _COPULA | {"has", "had", "have"} \
            and not _inflected(verb, "VERB", ("VBD", "VBZ")):
        return None  # "who did ...": an auxiliary, whose clause is not the answer's
    return f"{answer} {verb} {m.group(2)}"


def _when(q: str, answer: str) -> str | None:
    """"When did Cy Diaz join the club?" -> "Cy Diaz joined the club on May 9, 2005"; "In
    which year was Beta released?" -> "Beta was released in 1985"; "When was the Final?" ->
    "The Final was on July 2, 1970"."""
    m = _WHEN_Q.fullmatch(q)
    if not m:
        return None
    aux, clause = m.group(1).lower(), m.group(2).split()
    if re.fullmatch(r"[12],\d{3}", answer):
        answer = answer.replace(",", "")  # a year from a column of figures: "1795", not "1,795"
    when = f"{'on' if _DAY.search(answer) else 'in'} {answer}"
    at = _main_verb(clause)
    if aux in _AUX_TAG:
        verb = _inflect(clause[at], _AUX_TAG[aux]) if at is not None else None
        if verb is None:
            return None
        return " ".join(x for x in (" ".join(clause[:at]), verb, " ".join(clause[at + 1:]),
                                    when) if x)
    if clause[0].lower() in _COPULA or len(clause) < 2 and clause[0].islower():
        return None  # "when is it": nothing to state
    at = next((i for i in range(1, len(clause)) if _participle(clause[i])), None)
    if at is None:  # "When was the Final" -> "the Final was on ..."
        if any(_compares(w) for w in clause):
            return None  # "in which year was revenue larger": the year is not the subject's
        return f"{' '.join(clause)} {aux} {when}"
    return " ".join((" ".join(clause[:at]), aux, " ".join(clause[at:]), when))


def _main_verb(words: list[str]) -> int | None:
    """Where the main verb of "S V ..." is: the first word after the subject's first word
    that is lower case, no determiner, can be a verb, and is followed by the end of the
    clause, a preposition, a determiner, a number or a name (what follows a verb, not a
    noun inside the subject)."""
    for i in range(1, len(words)):
        w = words[i]
        if not w.isalpha() or not w.islower() or w in DETERMINERS or w in PREPOSITIONS:
            continue
        nxt = words[i + 1] if i + 1 < len(words) else ""
        follows = (not nxt or nxt.lower() in PREPOSITIONS or nxt.lower() in DETERMINERS
                   or nxt[:1].isdigit() or nxt[:1].isupper() or nxt[:1] == "$")
        if follows and _is_verb(w):
            return i
    return None


@cache
def _is_verb(word: str) -> bool:
    from lemminflect import getAllInflections

    return bool(getAllInflections(word, upos="VERB"))


def _participle(word: str) -> bool:
    """A past participle after the subject of "was S V-ed" ("released", "born", "built")."""
    return _inflected(word, "VERB", ("VBN",))


def _compares(word: str) -> bool:
    """A comparative or superlative adjective ("larger", "highest")."""
    return _inflected(word, "ADJ", ("JJR", "JJS"))


@cache
def _inflected(word: str, upos: str, tags: tuple[str, ...]) -> bool:
    """Is the (lower-case) word one of the Penn `tags` forms of a lemma of part of speech
    `upos`, by lemminflect?"""
    if not word.isalpha() or not word.islower():
        return False
    from lemminflect import getInflection, getLemma

    return any(word in getInflection(lemma, tag=tag) for lemma in getLemma(word, upos=upos)
               for tag in tags)


@cache
def _inflect(word: str, tag: str) -> str | None:
    from lemminflect import getInflection

    out = getInflection(word, tag=tag)
    return out[0] if out else None
