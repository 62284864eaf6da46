"""The scale of a line-item cell, as `tableqa.py` reports it: thousand, million, billion,
percent, or none.

Split from `tableqa.py` (one idea per module): a cell's scale is read from its own display
("13.1%"), its row label (a rate, a per-share amount), the scale ingestion recorded, its
column header ("2019 €m") or the caption, in that order, because a caption's "in thousands"
does not reach a per-share line or a percentage column.
"""

from __future__ import annotations

import re

from ingest.captions import caption_scale

_HEADER_SCALE = [
    ("billion", re.compile(r"\bbillions?\b|\$\s?bn\b|\b(?:usd|eur|gbp)\s?bn\b|[$€£]bn\b", re.I)),
    ("million", re.compile(r"\bmillions?\b|\$\s?m\b|[$€£]m\b|\b(?:usd|eur|gbp|dkk|sek|nok)\s?m"
                           r"(?:illion)?\b|\bm[$€£]\b", re.I)),
    ("thousand", re.compile(r"\bthousands?\b|[$€£]\s?[’']?000\b|\b(?:usd|eur|gbp)\s?[’']?000\b|"
                            r"\b000s\b|\(000\)", re.I)),
]


def cell_scale(c: dict, label: str) -> str:
    """The cell's scale. A percentage ("13.1%", a "%" column or a rate line) is a percent and
    an amount per share or per unit has no scale, whatever the table's caption says ("in
    thousands, except per share data"); else the scale ingestion recorded, a scale the column
    header states ("2019 €m", "$'000", "($ in millions)"), or one the row's own label
    declares ("Net income - (in thousands)")."""
    lab = label.lower()
    # a percentage *value* beside the row ("Orders / 8 %": the "% change" column melted into
    # the label) says nothing about this cell's unit; only a percent the label or the column
    # header names does — a "%" column first ("Rate of price inflation" under "2019 %")
    col = _PCT_VALUE.sub(" ", c["attribute"] or "") if c["attribute"] != label else ""
    if "%" in (c["value_text"] or "") or c["unit"] == "%" or _PCT_LABEL.search(col):
        return "percent"
    if _PER_UNIT.search(lab):
        return ""
    named = _PCT_VALUE.sub(" ", f"{lab} {c['attribute'] or ''}")
    if _PCT_LABEL.search(named) or (
            _RATE.search(lab) and not re.search(r"exchange|conversion", lab)
            and abs(c["value_num"] or 0.0) < 100):
        return "percent"
    if c["scale"]:
        return c["scale"]
    head = f"{c['attribute'] or ''} {c['locator'] or ''}"
    for name, rx in _HEADER_SCALE:
        if rx.search(head):
            return name
    return caption_scale(label)


def per_unit(text: str) -> bool:
    """Whether a label or heading names an amount per share or per unit ("Net income per
    share:", "Diluted EPS")."""
    return bool(_PER_UNIT.search(text or ""))


_PER_UNIT = re.compile(r"\bper (?:(?:basic|diluted|common|ordinary|weighted|average|class \w|"
                       r"adr|ads)\s+)*(?:share|unit|stock|adr|ads)|\beps\b|\bearnings per\b|"
                       r"\bprice\b", re.I)
_PCT_LABEL = re.compile(r"%|\bpercent(?:age)?\b|\bper cent\b", re.I)
_RATE = re.compile(r"\brates?\b|\byield\b|\bmargin\b", re.I)
_PCT_VALUE = re.compile(r"[-−(]?\s*\d[\d,]*(?:\.\d+)?\s*\)?\s*%|\bnm\b")
