"""The canonical period model: `TimeKey`, its constructors and the order-key arithmetic.

Split from `ingest.timekeys` (which parses text into these keys and re-exports every name here)
so the model and its formula live in one short module; see `ingest.timekeys` for the order-key
formula, fiscal-year convention and two-digit-year pivot this module implements.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ingest.errors import TimeKeyError

GRAINS = ("year", "half", "quarter", "month", "date", "ltm")
MIN_YEAR = 1900
MAX_YEAR = 2100
# The order-key fraction for one day's periods goes up to this; periods last at most 366 days.
_DAY_TOP = 0.999
_ONE_DAY = dt.timedelta(days=1)


# --------------------------------------------------------------------------------------------
# The record and the order key


@dataclass(frozen=True)
class TimeKey:
    """One period placed on the calendar.

    `start`/`end` are inclusive; both are None only for an unanchored "LTM"/"TTM", which names a
    kind of period but not which one, so it has no order key either.
    """

    key: str
    grain: str
    start: dt.date | None
    end: dt.date | None
    order_key: float | None

    @property
    def anchored(self) -> bool:
        """Whether the period can be placed on the calendar (all but a bare "LTM")."""
        return self.start is not None and self.end is not None

    def interval(self) -> tuple[float, float] | None:
        """Order-key range of the periods that end inside this one (None when unanchored)."""
        if self.start is None or self.end is None:
            return None
        return (float(ymd(self.start)), ymd(self.end) + _DAY_TOP)

    def contains(self, other: TimeKey) -> bool:
        """Whether `other` ends inside this period: "2024" contains "2024Q1" and "2024-03-31"."""
        span = self.interval()
        if span is None or other.order_key is None:
            return False
        return span[0] <= other.order_key <= span[1]


def ymd(d: dt.date) -> int:
    """The date as the integer YYYYMMDD: the integer part of every order key."""
    return d.year * 10000 + d.month * 100 + d.day


def order_key_for(start: dt.date, end: dt.date) -> float:
    """``YYYYMMDD(end) + days_covered / 1000`` (see the module docstring for why)."""
    days = (end - start).days + 1
    if days < 1:
        raise TimeKeyError(f"period ends ({end}) before it starts ({start})")
    if days > 366:
        raise TimeKeyError(f"a period of {days} days is longer than a year")
    return ymd(end) + days / 1000.0


def _add_months(d: dt.date, n: int) -> dt.date:
    """First day of the month `n` months after `d`'s month."""
    total = d.year * 12 + (d.month - 1) + n
    return dt.date(total // 12, total % 12 + 1, 1)


def _fy_start(label: int, fiscal: int) -> dt.date:
    return dt.date(label, 1, 1) if fiscal == 1 else dt.date(label - 1, fiscal, 1)


def _make(key: str, grain: str, start: dt.date, end: dt.date) -> TimeKey:
    return TimeKey(key, grain, start, end, order_key_for(start, end))


def _span(start: dt.date, months: int) -> tuple[dt.date, dt.date]:
    return start, _add_months(start, months) - _ONE_DAY


def _check_fiscal(fiscal: int) -> int:
    if isinstance(fiscal, bool) or not isinstance(fiscal, int) or not 1 <= fiscal <= 12:
        raise TimeKeyError(f"fiscal_year_start_month must be 1..12, got {fiscal!r}")
    return fiscal


def _label_ok(year: int) -> bool:
    return MIN_YEAR <= year <= MAX_YEAR


def year_key(year: int, *, fiscal_year_start_month: int = 1, calendar: bool = False) -> TimeKey:
    """The (fiscal) year named `year`; `calendar=True` is "CY2024"."""
    fiscal = 1 if calendar else _check_fiscal(fiscal_year_start_month)
    prefix = "CY" if calendar and fiscal_year_start_month != 1 else ""
    start, end = _span(_fy_start(year, fiscal), 12)
    return _make(f"{prefix}{year}", "year", start, end)


def half_key(
    year: int, half: int, *, fiscal_year_start_month: int = 1, calendar: bool = False
) -> TimeKey:
    """Half `half` (1 or 2) of the (fiscal) year `year`."""
    fiscal = 1 if calendar else _check_fiscal(fiscal_year_start_month)
    prefix = "CY" if calendar and fiscal_year_start_month != 1 else ""
    start, end = _span(_add_months(_fy_start(year, fiscal), 6 * (half - 1)), 6)
    return _make(f"{prefix}{year}H{half}", "half", start, end)


def quarter_key(
    year: int, quarter: int, *, fiscal_year_start_month: int = 1, calendar: bool = False
) -> TimeKey:
    """Quarter `quarter` (1..4) of the (fiscal) year `year`."""
    fiscal = 1 if calendar else _check_fiscal(fiscal_year_start_month)
    prefix = "CY" if calendar and fiscal_year_start_month != 1 else ""
    start, end = _span(_add_months(_fy_start(year, fiscal), 3 * (quarter - 1)), 3)
    return _make(f"{prefix}{year}Q{quarter}", "quarter", start, end)


def month_key(year: int, month: int) -> TimeKey:
    """A calendar month (fiscal settings never shift months)."""
    start, end = _span(dt.date(year, month, 1), 1)
    return _make(f"{year:04d}-{month:02d}", "month", start, end)


def date_key(day: dt.date) -> TimeKey:
    """A single day (a balance "as of" that date)."""
    return _make(day.isoformat(), "date", day, day)


def ltm_key(anchor: TimeKey, *, fiscal_year_start_month: int = 1) -> TimeKey:
    """The twelve months ending where `anchor` ends: "LTM-2024Q3" is 2023-10-01 .. 2024-09-30.

    The key names the end, not the way it was written: "LTM Sep-24", "TTM 2024Q3" and "twelve
    months ended September 30, 2024" are one period, so they get one key. The end is named by
    its (fiscal) quarter when it closes one, else by its month when it closes one, else by date.
    """
    if anchor.end is None or anchor.grain == "ltm":
        raise TimeKeyError(f"LTM needs a period to end at, got {anchor.key!r}")
    end = anchor.end
    fiscal = _check_fiscal(fiscal_year_start_month)
    quarter = _unit_containing(end, 3, fiscal)
    if quarter.end == end:
        label = quarter.key
    elif (end + _ONE_DAY).day == 1:
        label = f"{end.year:04d}-{end.month:02d}"
    else:
        label = end.isoformat()
    nxt = end + _ONE_DAY
    try:
        start = nxt.replace(year=nxt.year - 1)
    except ValueError:  # Feb 29 -> the year before has none; the period starts on Mar 1
        start = dt.date(nxt.year - 1, 3, 1)
    return _make(f"LTM-{label}", "ltm", start, end)


_UNANCHORED_LTM = TimeKey("LTM", "ltm", None, None, None)


def _unit_containing(d: dt.date, months: int, fiscal: int) -> TimeKey:
    """The year / half / quarter / month (`months` = 12/6/3/1) that contains day `d`."""
    if months == 1:
        return month_key(d.year, d.month)
    fs_year = d.year if d.month >= fiscal else d.year - 1
    fs = dt.date(fs_year, fiscal, 1)
    offset = (d.year * 12 + d.month) - (fs.year * 12 + fs.month)
    idx = offset // months + 1
    label = fs_year if fiscal == 1 else fs_year + 1
    if months == 12:
        return year_key(label, fiscal_year_start_month=fiscal)
    if months == 6:
        return half_key(label, idx, fiscal_year_start_month=fiscal)
    return quarter_key(label, idx, fiscal_year_start_month=fiscal)
