"""The period a table's label names: a header level or a row label, read as a report prints it.

A label is not a bare date. A header prints the period with what the figures beneath it are in
("2019 €m", "2018 $'000 Restated", "Dec 31, 2019 (in millions)", "April 27, 2019 (1)"); a
balance column or heading names the day it stands at ("As at 31 December 2019", "Balances,
January 31, 2018"); a section heading ends with a colon ("2019:"). `label_period` strips those
and hands what is left to the one period grammar (`ingest.timekeys.parse_time_key`); the table
model (`ingest.tablemodel`) reads every column's and row's period through it, and the model's
claims (`ingest.modelclaims`) use it to tell a period heading from a section's name.

Pure and cached: labels repeat down a table and across a report's tables.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from ingest.timekeys import parse_time_key

# the words a heading puts before the date it is "as at": "As at 31 December 2019", "As of
# December 31, 2018", "At June 30, 2019"
_AS_AT = re.compile(r"^\s*(?:as\s+)?(?:at|of)\s+(?=\S*\d|[a-z]+\.?\s+\d)", re.I)
# a label, then the day its figures stand at: "Balances, January 31, 2018", "Estimated at June
# 30, 2019", "Final as of December 31, 2019", "Balance on 1 April 2019"
_DATED_LABEL = re.compile(r"^[a-z][\w\s'’&-]*?(?:,|\s+(?:as\s+)?(?:at|of|on))\s+(?P<day>"
                          r"(?:\d{1,2}\s+[a-z]{3,9}\.?,?\s+|[a-z]{3,9}\.?\s+\d{1,2},?\s+)\d{4})$",
                          re.I)


@functools.lru_cache(maxsize=1 << 16)
def label_period(text: str) -> str | None:
    """The period key a label names, None when none (labels repeat: cached). A balance date
    "as at" a day is that day."""
    if not text:
        return None
    try:
        tk = parse_time_key(text)
        if tk is None and _AS_AT.match(text):
            tk = parse_time_key(_AS_AT.sub("", text).strip(" :"))
        if tk is None and text.endswith(":"):
            tk = parse_time_key(text.rstrip(" :"))  # a heading's colon: "2019:", "Fiscal 2019:"
        bare = without_declarations(text) if tk is None else text
        if tk is None and bare != text:
            tk = parse_time_key(bare)  # "2019 €m", "2018 $'000 Restated"
        if tk is None and (dated := _DATED_LABEL.match(bare)):
            # "Balances, January 31, 2018", "Final as of December 31, 2019": a balance on a
            # day (a full date only: "Notes due 2025" names no period)
            day = parse_time_key(dated.group("day"))
            tk = day if day is not None and day.grain == "date" else None
    except ValueError:
        return None
    return tk.key if tk is not None else None


# what a header prints after its period: the unit and scale of the figures beneath ("2019 €m",
# "2019 $'000", "2019 RMB'000", "2019 US$ million", "(in millions)"; the scale itself is read by
# `numbers.scale_hint`), a restatement note ("Restated", "Restated3", "(Restated)", "See note
# 2") and a footnote mark ("April 27, 2019 (1)", "2019*")
_DECLARATION = re.compile(
    r"\s*(?:\(?\s*(?:re-?stated|unaudited|audited)\d*\s*\)?|see\s+note\s*\d+|"
    r"\(\d{1,2}\)|[`*†‡]+|"
    r"\(?\s*in\s+(?:[a-z]{0,3}[$€£¥]\s*)?(?:millions?|thousands?|billions?)\s*\)?|"
    r"\(?\s*(?:[a-z]{0,3}[$€£¥]|[a-z]{3}\s*(?=['’]|m\b|mn\b|bn\b|million|billion|thousand))"
    r"\s*(?:['’]?000|m|mn|bn|k|million|billion|thousands?)?\s*\)?)$", re.I)


def without_declarations(text: str) -> str:
    """A header level without the unit, scale and restatement notes printed after its period
    (`_DECLARATION`), stripped from the end a few at a time."""
    for _ in range(3):
        bare = _DECLARATION.sub("", text).strip()
        if bare == text or not bare:
            break
        text = bare
    return text


def period_key(text: str) -> str | None:
    """The canonical period a label names ("As at 31 December 2019": 2019-12-31), None when it
    names none."""
    return label_period(text.strip())


def period_of_path(path: Sequence[str]) -> str | None:
    """The innermost level of a path that is a period ("International" over "September 30,
    2018": 2018-09-30)."""
    for level in reversed(path):
        p = label_period(level)
        if p is not None:
            return p
    return None
