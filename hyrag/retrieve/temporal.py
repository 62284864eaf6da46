"""Temporal intelligence (seed 003, section 4.2): a question's period becomes an order-key
interval (tau_min, tau_max) that hard-filters candidates inside every strategy.

The phrase grammar lives in `ingest.intervals.parse_interval` ("in 2024", "Q3 2023", "last 3
quarters", "since 2022", "between 2021 and 2023", "FY24", "H1 2024", ...). This module adds what
needs the data: relative phrases count back from the latest period the knowledge base holds (so
"last 3 quarters" means the data's last three, not the calendar's), and "latest" / "most recent"
without a unit mean that latest period itself. A claim passes when its order key (the period's
end date plus its length in days / 1000) lies inside the interval, so "in 2024" admits 2024,
2024H1, 2024Q3 and 2024-03-31 alike.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass

from ingest.intervals import parse_interval
from ingest.timekeys import TimeKey, find_time_expressions, parse_time_key

_LATEST = re.compile(
    r"\b(latest|most\s+recent|newest|current)\b(?!\s+(?:\d+\s+)?"
    r"(?:years?|quarters?|months?|halves|half|weeks?|days?)\b)",
    re.I,
)


@dataclass(frozen=True)
class Interval:
    lo: float
    hi: float
    phrase: str = ""
    keys: tuple[str, ...] = ()  # canonical time keys named in the question ("2024Q1")

    def contains(self, order_key: float | None) -> bool:
        return (
            order_key is not None and not math.isnan(order_key) and self.lo <= order_key <= self.hi
        )

    def as_tuple(self) -> tuple[float, float]:
        return (self.lo, self.hi)

    def exact(self, start_ymd: float | None, end_ymd: float | None) -> bool:
        """Whether a period [start, end] is exactly the asked one (not just inside it)."""
        if start_ymd is None or end_ymd is None:
            return False
        return float(start_ymd) == self.lo and int(end_ymd) == int(self.hi)


def question_interval(
    question: str,
    *,
    latest: TimeKey | None = None,
    today: dt.date | None = None,
    fiscal_year_start_month: int = 1,
) -> Interval | None:
    """The interval a question constrains to, or None when it names no period."""
    keys = tuple(
        k.key
        for _s, _e, k in find_time_expressions(
            question, fiscal_year_start_month=fiscal_year_start_month
        )
        if k.anchored
    )
    span = parse_interval(
        question, today=today, latest=latest, fiscal_year_start_month=fiscal_year_start_month
    )
    if span is not None:
        return Interval(span[0], span[1], question, keys)
    if latest is not None and _LATEST.search(question):
        iv = latest.interval()
        if iv is not None:
            return Interval(iv[0], iv[1], "latest", (latest.key,))
    return None


def latest_key(time_key: str | None, *, fiscal_year_start_month: int = 1) -> TimeKey | None:
    if not time_key:
        return None
    return parse_time_key(time_key, fiscal_year_start_month=fiscal_year_start_month)
