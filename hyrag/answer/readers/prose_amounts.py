"""The amounts of a report's sentences, as the prose reader (`prose_read.py`) reads them.

Ingestion stores one text claim per number of a sentence: the sentence, the number's span, its
displayed text, scale and unit (`ingest/textclaims.py`). This module regroups those claims by
sentence and adds what the reader needs beyond them: each amount's own period
(`prose_periods.py`), whether it is a stated change ("increased $224 million") or a label
("ASC 606"), and whether a table of the knowledge base states it more precisely. It reads the
store and nothing else; matching a question is `prose_read.py`'s job.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from hyrag.answer.parse.catalog import per_view
from hyrag.answer.readers import prose_periods
from ingest.attributes import LABEL_WORDS
from ingest.units import MAGNITUDES, SCALES


@dataclass(frozen=True)
class Amount:
    """One number of a sentence: the claim it came from and the reader's own period."""
    claim: dict
    sentence: str
    start: int
    end: int
    text: str  # as displayed in the sentence
    value: float
    scale: str
    unit: str
    period: str | None
    inherited: bool  # the period is the paragraph's (the sentence names none)
    change: bool = False  # a stated change: "increased $224 million", "a $539 million decrease"
    label: bool = False  # a number that names, not measures: "ASC 606", "Scope 2"

    @property
    def percent(self) -> bool:
        if re.search(r"basis points?|bps\b", self.text, re.I):
            return False
        return self.scale == "percent" or self.unit == "%" or "%" in self.text

    @property
    def currency(self) -> bool:
        return bool(re.search(r"[$€£¥]|\b[A-Z]{3}\b", self.text)) or self.unit in (
            "USD", "EUR", "GBP", "JPY", "CNY", "RMB", "INR", "AUD", "SGD", "CAD", "CHF")


_SENTENCES: dict[tuple, list[list[Amount]]] = {}


def sentences(con) -> list[list[Amount]]:
    """The amounts of every prose sentence, grouped by sentence; cached per database
    generation and reader view (as the table readers cache their cells)."""
    return per_view(_SENTENCES, con, _read)


def _read(con) -> list[list[Amount]]:
    cur = con.cursor().execute(
        "SELECT claim_id, text, locator, value_text, value_num, coalesce(scale, '') AS scale, "
        "coalesce(unit, '') AS unit, time_key, conf_base, value_base, coalesce(file, '') AS "
        "file FROM claims WHERE NOT superseded AND kind = 'text' AND value_num IS NOT NULL")
    names = [d[0] for d in cur.description]
    groups: dict[str, list[dict]] = {}
    for r in cur.fetchall():
        c = dict(zip(names, r, strict=True))
        c["sentence"] = re.sub(r"^(?:\[negated\] )?(?:\[[^\]]*\] )?", "", c["text"] or "")
        groups.setdefault(c["sentence"], []).append(c)  # a repeated sentence reads once
    out = []
    for sent, claims in groups.items():
        spans: list[tuple[int, int]] = []
        kept: list[dict] = []
        for c in claims:
            sp = _span(sent, c)
            if sp is None or sp in spans:
                continue
            spans.append(sp)
            kept.append(c)
        order = sorted(range(len(spans)), key=lambda i: spans[i][0])
        spans = [spans[i] for i in order]
        kept = [kept[i] for i in order]
        kinds = ["%" if (c["scale"] == "percent" or c["unit"] == "%") else "amount"
                 for c in kept]
        periods = prose_periods.assign(sent, spans, kinds)
        named = bool(prose_periods.period_mentions(sent))
        changes = [_is_change(sent, spans, i) for i in range(len(spans))]
        for i in range(len(spans) - 1):
            # "increased $9.6 million to $24.4 million for 2019": the change is 2019's too
            if changes[i] and re.fullmatch(r"\s+to\s+", sent[spans[i][1]:spans[i + 1][0]]):
                periods[i] = periods[i] or periods[i + 1]
                periods[i + 1] = periods[i + 1] or periods[i]
        amounts = []
        for i, (c, (a, b), p) in enumerate(zip(kept, spans, periods, strict=True)):
            inherited = p is None and not named and bool(c["time_key"])
            amounts.append(Amount(c, sent, a, b, sent[a:b], float(c["value_num"]), c["scale"],
                                  c["unit"], _year_of(c["time_key"]) if inherited else p,
                                  inherited, changes[i], _is_label(sent, a, b, c)))
        out.append(amounts)
    return out


_CHANGE_BEFORE = re.compile(r"\b(?:increas|decreas|declin|rose|grew|fell|drop|reduc|rise|"
                            r"risen|fallen|grow|improv)\w*\s+(?:by\s+|of\s+)?(?:approximately\s+|"
                            r"about\s+|nearly\s+|almost\s+)?$", re.I)
_CHANGE_AFTER = re.compile(r"^\s+(?:net\s+)?(?:increase|decrease|decline|reduction|rise|growth|"
                           r"improvement|drop)\b", re.I)


def _is_change(sent: str, spans: list[tuple[int, int]], i: int) -> bool:
    """Whether the amount is a stated change ("increased $224 million", "an increase of
    $53.1 million", "a $539 million decrease") rather than a level ("increased to $299.3
    million")."""
    a, b = spans[i]
    start = spans[i - 1][1] if i else 0
    return bool(_CHANGE_BEFORE.search(sent[max(start, a - 40):a])
                or _CHANGE_AFTER.match(sent[b:b + 30]))


def _is_label(sent: str, a: int, b: int, c: dict) -> bool:
    """A bare number right after a capitalised word names something ("ASC 606", "Scope 2",
    "Section 106", "401(k)"): it measures nothing a question could ask for."""
    if c["scale"] or c["unit"] or re.search(r"[$€£¥%]", sent[a:b]):
        return False
    prev = re.search(r"\b([A-Za-z]+)\.?\s+$", sent[max(0, a - 20):a])
    return bool(prev and (re.fullmatch(r"[A-Z]{2,}", prev.group(1))
                          or prev.group(1).lower() in LABEL_WORDS | {"note", "topic", "form"})
                or re.match(r"\(\w\)", sent[b:b + 3]))


def _span(sent: str, c: dict) -> tuple[int, int] | None:
    try:
        sp = json.loads(c["locator"] or "{}").get("span")
    except ValueError:
        sp = None
    vt = c["value_text"] or ""
    if sp and sent[sp[0]:sp[1]] == vt:
        return sp[0], sp[1]
    k = sent.find(vt) if vt else -1
    return (k, k + len(vt)) if k >= 0 else None


def _year_of(key: str | None) -> str | None:
    m = re.match(r"((?:19|20)\d{2})", key or "")
    return m.group(1) if m else None



def table_restates(con, a: Amount) -> bool:
    """Whether a table cell gives this amount more precisely ("$14.7 million" in the prose,
    14,740 in a table "in thousands"). A sum or average of the prose's rounded figures would
    differ from the one over the table's exact figures, which the table readers declined to
    read for this question: the prose reader does not compute from a rounded restatement
    (a stated figure it still quotes — the sentence says exactly that)."""
    if a.percent or a.scale not in MAGNITUDES:
        return False
    m = re.search(r"\d(?:[\d,]*)(?:\.(\d+))?", a.text)
    decimals = len(m.group(1)) if m and m.group(1) else 0
    base = a.value * SCALES[a.scale]
    tol = 0.5 * 10 ** -decimals * SCALES[a.scale]
    row = con.cursor().execute(
        "SELECT count(*) FROM claims WHERE NOT superseded AND kind = 'cell' AND value_base "
        "BETWEEN ? AND ? AND abs(value_base - ?) > ?", [base - tol, base + tol, base,
                                                          1e-9 * abs(base) + 1e-9]).fetchone()
    return bool(row and row[0])
