"""Periods as files and people write them: one canonical key, one sortable order key."""

from __future__ import annotations

import datetime as dt
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ingest.errors import IngestError, TimeKeyError
from ingest.intervals import parse_interval
from ingest.timekeys import (
    TimeKey,
    find_time_expressions,
    looks_like_time_key,
    ltm_key,
    order_key_for,
    parse_time_key,
    parse_time_key_strict,
    quarter_key,
)

Y2024 = 20241231.366
Q1_2024 = 20240331.091
Q3_2024 = 20240930.092
H1_2024 = 20240630.182
H2_2024 = 20241231.184
MAR_2024 = 20240331.031
D_2024_03_31 = 20240331.001
LTM_Q3_2024 = 20240930.366

FORMS: list[tuple[object, str, str, float]] = [
    # years
    ("2024", "2024", "year", Y2024),
    (2024, "2024", "year", Y2024),
    (2024.0, "2024", "year", Y2024),
    (np.int64(2024), "2024", "year", Y2024),
    ("FY2024", "2024", "year", Y2024),
    ("FY24", "2024", "year", Y2024),
    ("FY 2024", "2024", "year", Y2024),
    ("fiscal 2024", "2024", "year", Y2024),
    ("Fiscal Year 2024", "2024", "year", Y2024),
    ("CY2024", "2024", "year", Y2024),
    ("FY'24", "2024", "year", Y2024),
    ("2023", "2023", "year", 20231231.365),
    ("2023*", "2023", "year", 20231231.365),
    ("FY99", "1999", "year", 19991231.365),
    # quarters
    ("2024Q1", "2024Q1", "quarter", Q1_2024),
    ("2024 Q1", "2024Q1", "quarter", Q1_2024),
    ("Q1 2024", "2024Q1", "quarter", Q1_2024),
    ("Q1-2024", "2024Q1", "quarter", Q1_2024),
    ("1Q24", "2024Q1", "quarter", Q1_2024),
    ("1Q2024", "2024Q1", "quarter", Q1_2024),
    ("Q1'24", "2024Q1", "quarter", Q1_2024),
    ("Q1\u201924", "2024Q1", "quarter", Q1_2024),
    ("Q1 FY24", "2024Q1", "quarter", Q1_2024),
    ("FY24 Q1", "2024Q1", "quarter", Q1_2024),
    ("2024-Q1", "2024Q1", "quarter", Q1_2024),
    ("Q1/2024", "2024Q1", "quarter", Q1_2024),
    ("q1 2024", "2024Q1", "quarter", Q1_2024),
    ("first quarter 2024", "2024Q1", "quarter", Q1_2024),
    ("the third quarter of 2024", "2024Q3", "quarter", Q3_2024),
    ("quarter ended September 30, 2024", "2024Q3", "quarter", Q3_2024),
    # halves
    ("2024H2", "2024H2", "half", H2_2024),
    ("H2 2024", "2024H2", "half", H2_2024),
    ("2H24", "2024H2", "half", H2_2024),
    ("H1'24", "2024H1", "half", H1_2024),
    ("1H 2024", "2024H1", "half", H1_2024),
    ("2024-H1", "2024H1", "half", H1_2024),
    ("first half of 2024", "2024H1", "half", H1_2024),
    ("six months ended June 30, 2024", "2024H1", "half", H1_2024),
    # months
    ("Mar 2024", "2024-03", "month", MAR_2024),
    ("March 2024", "2024-03", "month", MAR_2024),
    ("Jan 2024", "2024-01", "month", 20240131.031),
    ("January 2024", "2024-01", "month", 20240131.031),
    ("2024-03", "2024-03", "month", MAR_2024),
    ("03/2024", "2024-03", "month", MAR_2024),
    ("Mar-24", "2024-03", "month", MAR_2024),
    ("2024M03", "2024-03", "month", MAR_2024),
    ("2024/03", "2024-03", "month", MAR_2024),
    ("Sep. 2024", "2024-09", "month", 20240930.030),
    ("Feb 2024", "2024-02", "month", 20240229.029),
    # dates
    ("2024-03-31", "2024-03-31", "date", D_2024_03_31),
    ("31/03/2024", "2024-03-31", "date", D_2024_03_31),
    ("03/31/2024", "2024-03-31", "date", D_2024_03_31),
    ("March 31, 2024", "2024-03-31", "date", D_2024_03_31),
    ("31 March 2024", "2024-03-31", "date", D_2024_03_31),
    ("31-Mar-24", "2024-03-31", "date", D_2024_03_31),
    ("2024-03-31 00:00:00", "2024-03-31", "date", D_2024_03_31),
    (dt.date(2024, 3, 31), "2024-03-31", "date", D_2024_03_31),
    (dt.datetime(2024, 3, 31, 17, 30), "2024-03-31", "date", D_2024_03_31),
    (pd.Timestamp("2024-03-31"), "2024-03-31", "date", D_2024_03_31),
    (np.datetime64("2024-03-31"), "2024-03-31", "date", D_2024_03_31),
    # LTM / TTM anchored
    ("LTM Q3 2024", "LTM-2024Q3", "ltm", LTM_Q3_2024),
    ("TTM 2024Q3", "LTM-2024Q3", "ltm", LTM_Q3_2024),
    ("LTM Sep-24", "LTM-2024Q3", "ltm", LTM_Q3_2024),
    ("LTM-2024Q3", "LTM-2024Q3", "ltm", LTM_Q3_2024),
    ("2024Q3 LTM", "LTM-2024Q3", "ltm", LTM_Q3_2024),
    ("twelve months ended September 30, 2024", "LTM-2024Q3", "ltm", LTM_Q3_2024),
    ("LTM Aug-24", "LTM-2024-08", "ltm", 20240831.366),
]


@pytest.mark.parametrize(("text", "key", "grain", "order"), FORMS, ids=[repr(f[0]) for f in FORMS])
def test_form_maps_to_canonical_key_and_order_key(text, key, grain, order) -> None:
    tk = parse_time_key(text)
    assert tk is not None
    assert (tk.key, tk.grain) == (key, grain)
    assert tk.order_key == pytest.approx(order, abs=1e-9)


def test_there_are_at_least_forty_forms() -> None:
    assert len(FORMS) >= 40


@pytest.mark.parametrize(("key", "_grain"), [(f[1], f[2]) for f in FORMS])
def test_canonical_keys_parse_back_to_themselves(key, _grain) -> None:
    tk = parse_time_key(key)
    assert tk is not None and tk.key == key


def test_period_bounds_are_the_interval_it_covers() -> None:
    q = parse_time_key("Q3 2024")
    assert q is not None and (q.start, q.end) == (dt.date(2024, 7, 1), dt.date(2024, 9, 30))
    ltm = parse_time_key("LTM Q3 2024")
    assert ltm is not None and (ltm.start, ltm.end) == (dt.date(2023, 10, 1), dt.date(2024, 9, 30))
    leap = parse_time_key("Feb 2024")
    assert leap is not None and leap.end == dt.date(2024, 2, 29)


def test_unanchored_ltm_has_no_dates_and_no_order_key() -> None:
    for text in ("LTM", "TTM", "ltm", "trailing twelve months"):
        tk = parse_time_key(text)
        assert tk == TimeKey("LTM", "ltm", None, None, None)
        assert not tk.anchored and tk.interval() is None


# ------------------------------------------------------------------------------ ordering


def _ok(text: str) -> float:
    tk = parse_time_key(text)
    assert tk is not None and tk.order_key is not None
    return tk.order_key


def test_order_keys_sort_periods_by_when_they_end() -> None:
    assert _ok("2023") < _ok("2024Q1") < _ok("2024Q2") < _ok("2024H2")
    assert _ok("Dec 2023") < _ok("2024-01-01") < _ok("Jan 2024") < _ok("2024Q1")
    assert sorted(["2024", "2022", "Q2 2023", "1H23"], key=_ok) == [
        "2022",
        "Q2 2023",
        "1H23",
        "2024",
    ]


def test_equal_ends_sort_the_longer_period_last() -> None:
    chain = ["2024-12-31", "Dec 2024", "2024Q4", "2024H2", "2024"]
    assert [_ok(t) for t in chain] == sorted(_ok(t) for t in chain)
    assert len({_ok(t) for t in chain}) == len(chain)


def test_order_key_formula_is_readable_end_date_plus_length() -> None:
    assert order_key_for(dt.date(2024, 1, 1), dt.date(2024, 12, 31)) == pytest.approx(
        20241231 + 366 / 1000
    )
    assert math.floor(_ok("Q1 2024")) == 20240331


def test_a_year_contains_its_quarters_months_and_dates() -> None:
    year = parse_time_key("2024")
    assert year is not None
    for inner in ("2024Q1", "2024H2", "2024-03", "2024-03-31", "2024-01-01", "2024", "Dec 2024"):
        tk = parse_time_key(inner)
        assert tk is not None and year.contains(tk), inner
    for outer in ("2023", "2025Q1", "2023-12-31", "2025-01-01"):
        tk = parse_time_key(outer)
        assert tk is not None and not year.contains(tk), outer


@given(st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2100, 12, 31)))
def test_every_day_month_and_quarter_sits_inside_its_year(day: dt.date) -> None:
    year = parse_time_key(str(day.year))
    month = parse_time_key(f"{day.year}-{day.month:02d}")
    quarter = parse_time_key(f"{day.year}Q{(day.month - 1) // 3 + 1}")
    date = parse_time_key(day)
    assert year and month and quarter and date
    assert year.contains(quarter) and year.contains(month) and year.contains(date)
    assert quarter.contains(month) and month.contains(date)
    assert date.order_key < month.order_key or date.end < month.end


@given(
    st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2100, 12, 31)),
    st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2100, 12, 31)),
)
def test_order_keys_follow_calendar_order_of_dates(a: dt.date, b: dt.date) -> None:
    ka, kb = parse_time_key(a), parse_time_key(b)
    assert ka and kb
    assert (ka.order_key < kb.order_key) == (a < b)


# ------------------------------------------------------------------------------ fiscal years


def test_fiscal_year_is_the_twelve_months_ending_in_its_year() -> None:
    fy = parse_time_key("FY2024", fiscal_year_start_month=7)
    assert fy is not None and fy.key == "2024"
    assert (fy.start, fy.end) == (dt.date(2023, 7, 1), dt.date(2024, 6, 30))


def test_fiscal_quarters_and_halves_count_from_the_fiscal_start() -> None:
    q1 = parse_time_key("Q1 FY24", fiscal_year_start_month=7)
    assert q1 is not None and q1.key == "2024Q1"
    assert (q1.start, q1.end) == (dt.date(2023, 7, 1), dt.date(2023, 9, 30))
    h2 = parse_time_key("H2 2024", fiscal_year_start_month=4)
    assert h2 is not None and (h2.start, h2.end) == (dt.date(2023, 10, 1), dt.date(2024, 3, 31))
    year = parse_time_key("2024", fiscal_year_start_month=7)
    assert year is not None and year.contains(q1)


def test_months_dates_and_calendar_years_ignore_the_fiscal_calendar() -> None:
    month = parse_time_key("Mar 2024", fiscal_year_start_month=7)
    assert month is not None and month.key == "2024-03" and month.start == dt.date(2024, 3, 1)
    cy = parse_time_key("CY2024", fiscal_year_start_month=7)
    assert cy is not None and cy.key == "CY2024"
    assert (cy.start, cy.end) == (dt.date(2024, 1, 1), dt.date(2024, 12, 31))


def test_year_ended_off_the_fiscal_calendar_is_the_same_twelve_months_as_ltm() -> None:
    tk = parse_time_key("fiscal year ended June 30, 2024")
    assert tk is not None and tk.key == "LTM-2024Q2"
    aligned = parse_time_key("fiscal year ended June 30, 2024", fiscal_year_start_month=7)
    assert aligned is not None and aligned.key == "2024"
    assert (tk.start, tk.end) == (aligned.start, aligned.end)


def test_a_hyphenated_year_ended_and_a_retailers_52_weeks_are_twelve_months() -> None:
    assert parse_time_key("Year-ended 31 March 2019") == parse_time_key("Year ended 31 March 2019")
    tk = parse_time_key("52 weeks ended 30 Mar 2019")
    assert tk is not None and tk.grain == "ltm" and tk.end == dt.date(2019, 3, 30)
    assert tk.start == dt.date(2018, 3, 31)


def test_bad_fiscal_month_is_refused() -> None:
    with pytest.raises(TimeKeyError):
        parse_time_key("2024", fiscal_year_start_month=13)


def test_ltm_key_names_the_end_by_quarter_month_or_date() -> None:
    assert ltm_key(quarter_key(2024, 3)).key == "LTM-2024Q3"
    assert ltm_key(parse_time_key("2024-08-15")).key == "LTM-2024-08-15"  # type: ignore[arg-type]
    with pytest.raises(TimeKeyError):
        ltm_key(TimeKey("LTM", "ltm", None, None, None))


# ------------------------------------------------------------------------------ rejections

NOT_PERIODS: list[object] = [
    "",
    "   ",
    None,
    True,
    7,
    24,
    12345,
    3000,
    1899,
    "12345",
    "3000",
    "abc",
    "Revenue",
    "Total",
    "Q1",
    "H1",
    "Q5 2024",
    "H3 2024",
    "March",
    "FY",
    "2024-13",
    "2024-02-30",
    "03/04/2024",  # day and month ambiguous
    "Mar 24",  # March 24th or March 2024?
    "2024E",  # an estimate is not the actual year
    "2024.5",
    2024.5,
    float("nan"),
    pd.NaT,
    "LTM LTM",
    "12.5%",
    "$2024",
    "2024-25",
]


@pytest.mark.parametrize("value", NOT_PERIODS, ids=[repr(v) for v in NOT_PERIODS])
def test_non_periods_are_none_and_strict_raises_naming_the_value(value) -> None:
    assert parse_time_key(value) is None
    assert not looks_like_time_key(value)
    with pytest.raises(TimeKeyError) as err:
        parse_time_key_strict(value, source="sales.xlsx")
    assert repr(value) in str(err.value)
    assert "sales.xlsx" in str(err.value)
    assert isinstance(err.value, IngestError)


def test_strict_explains_an_ambiguous_date() -> None:
    with pytest.raises(TimeKeyError, match="ambiguous"):
        parse_time_key_strict("03/04/2024")


def test_strict_returns_the_same_key_as_the_lenient_form() -> None:
    assert parse_time_key_strict("1Q24") == parse_time_key("Q1 2024")


@pytest.mark.parametrize("header", ["2022", "Q1 2024", "FY24", "LTM", "Mar-24", 2023, "2024H1"])
def test_period_headers_look_like_time_keys(header) -> None:
    assert looks_like_time_key(header)


@pytest.mark.parametrize("header", ["Region", "Revenue 2024", "Customer ID", "Amount (USD m)", 12])
def test_other_headers_do_not(header) -> None:
    assert not looks_like_time_key(header)


# ------------------------------------------------------------------------------ prose


def _found(text: str, **kw) -> list[tuple[str, str]]:
    return [(text[s:e], tk.key) for s, e, tk in find_time_expressions(text, **kw)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Revenue grew in fiscal 2023.", [("fiscal 2023", "2023")]),
        ("Margins fell in the third quarter of 2024.", [("third quarter of 2024", "2024Q3")]),
        ("Q3 2024 sales rose", [("Q3 2024", "2024Q3")]),
        ("as of December 31, 2019 the debt was", [("December 31, 2019", "2019-12-31")]),
        ("The clinic employed 412 nurses in 2024.", [("2024", "2024")]),
        (
            "H1 2024 beat first half of 2023",
            [("H1 2024", "2024H1"), ("first half of 2023", "2023H1")],
        ),
        ("FY24 guidance", [("FY24", "2024")]),
        ("In March 2024 we opened", [("March 2024", "2024-03")]),
        (
            "For the year ended December 31, 2024, revenue",
            [("year ended December 31, 2024", "2024")],
        ),
        (
            "TTM Q3 2024 EBITDA and 1Q24 and 2H24",
            [("TTM Q3 2024", "LTM-2024Q3"), ("1Q24", "2024Q1"), ("2H24", "2024H2")],
        ),
        ("between 2022-2024", [("2022", "2022"), ("2024", "2024")]),
        ("on 2024-03-31 and in 2024-03", [("2024-03-31", "2024-03-31"), ("2024-03", "2024-03")]),
        ("sales may 2024 fall; May 2024 was good", [("2024", "2024"), ("May 2024", "2024-05")]),
    ],
)
def test_periods_in_prose_are_found_with_spans(text, expected) -> None:
    assert _found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Revenue was $2024 and 1,2024 units; version 2024.5",
        "We sold 12345 units and 3000 boxes",
        "No periods here at all.",
        "Decision 2024-ish",
    ],
)
def test_numbers_that_are_not_periods_are_not_found(text) -> None:
    assert [k for _, _, k in find_time_expressions(text) if k.key != "2024"] == []
    assert "$2024" not in [text[s:e] for s, e, _ in find_time_expressions(text)]


def test_prose_honours_the_fiscal_calendar() -> None:
    [(_, _, tk)] = find_time_expressions("in fiscal 2024", fiscal_year_start_month=7)
    assert tk.start == dt.date(2023, 7, 1)


# ------------------------------------------------------------------------------ questions

TODAY = dt.date(2024, 11, 15)


def _interval(text: str, **kw) -> tuple[float, float] | None:
    kw.setdefault("today", TODAY)
    return parse_interval(text, **kw)


def _inside(text: str, period: str, **kw) -> bool:
    span = _interval(text, **kw)
    assert span is not None
    return span[0] <= _ok(period) <= span[1]


def test_in_2024_contains_every_period_inside_the_year() -> None:
    for p in ("2024", "2024Q1", "2024-03", "2024-03-31", "H2 2024", "Jan 2024"):
        assert _inside("What was revenue in 2024?", p), p
    for p in ("2023", "2025Q1", "2023-12-31", "2025-01-01"):
        assert not _inside("What was revenue in 2024?", p), p


@pytest.mark.parametrize(
    ("question", "inside", "outside"),
    [
        ("revenue in 2024Q1", ["2024-03", "2024-01-15"], ["2024Q2", "2024"]),
        ("FY24 revenue", ["2024Q4", "2024"], ["2023"]),
        ("H1 2024 margin", ["2024Q2", "2024-06-30"], ["2024Q3"]),
        ("between 2022 and 2024", ["2022", "2023Q2", "2024"], ["2021", "2025Q1"]),
        ("from Q1 2023 to Q2 2024", ["2023Q1", "2024-06"], ["2022Q4", "2024Q3"]),
        ("since 2022", ["2022", "2022Q1", "2030"], ["2021"]),
        ("2022 onwards", ["2022", "2031"], ["2021Q4"]),
        ("after 2022", ["2023-01-01", "2023"], ["2022", "2022-12-31"]),
        ("before 2023", ["2022", "1990"], ["2023Q1", "2023-01-01"]),
        ("up to 2023", ["2023", "2001"], ["2024Q1"]),
        ("as of March 31, 2024", ["2024-03-31", "2024Q1"], ["2024-03-30", "2024"]),
    ],
)
def test_question_intervals(question, inside, outside) -> None:
    for p in inside:
        assert _inside(question, p), p
    for p in outside:
        assert not _inside(question, p), p


def test_open_ended_intervals_use_infinity() -> None:
    assert _interval("since 2022") == (20220101.0, math.inf)
    lo, _ = _interval("before 2023")  # type: ignore[misc]
    assert lo == -math.inf


def test_last_quarters_count_back_from_the_latest_period() -> None:
    latest = parse_time_key("2024Q3")
    span = parse_interval("revenue over the last 3 quarters", latest=latest)
    assert span == (20240101.0, 20240930.999)


def test_last_quarters_count_complete_quarters_before_today() -> None:
    # 2024-11-15 is inside Q4, which is not over: the last three are Q1..Q3
    assert _interval("last 3 quarters") == (20240101.0, 20240930.999)
    assert _interval("last three quarters") == _interval("last 3 quarters")
    assert _interval("last 3 quarters", today=dt.date(2024, 12, 31)) == (20240401.0, 20241231.999)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("last year", (20230101.0, 20231231.999)),
        ("this year", (20240101.0, 20241231.999)),
        ("last two years", (20220101.0, 20231231.999)),
        ("YTD revenue", (20240101.0, 20241115.999)),
        ("LTM revenue", (20231101.0, 20241031.999)),
        ("revenue in the last 12 months", (20231101.0, 20241031.999)),
        ("last month", (20241001.0, 20241031.999)),
    ],
)
def test_relative_phrases_relative_to_today(question, expected) -> None:
    assert _interval(question) == expected


def test_relative_phrases_follow_the_fiscal_calendar() -> None:
    span = _interval("last year", fiscal_year_start_month=7)
    assert span == (20230701.0, 20240630.999)


def test_fiscal_question_interval_contains_fiscal_quarters() -> None:
    q1 = parse_time_key("2024Q1", fiscal_year_start_month=7)
    span = _interval("in FY2024", fiscal_year_start_month=7)
    assert q1 is not None and span is not None
    assert span[0] <= q1.order_key <= span[1]  # type: ignore[operator]


@pytest.mark.parametrize(
    "question",
    ["What was revenue by region?", "Top 5 customers", "Which clinic has 412 nurses?", ""],
)
def test_questions_without_a_period_have_no_interval(question) -> None:
    assert _interval(question) is None


@pytest.mark.parametrize("text", ["2006–07", "2019/20", "2006-2007", "FY2006/07", "2017/2018"])
def test_a_year_across_two_calendar_years_is_no_period_key(text: str) -> None:
    """Neither year (a question naming 2019 may mean either end of 2018/19) and no month
    ("2006–07" is not July 2006)."""
    assert parse_time_key(text) is None


def test_a_hyphen_with_two_digits_stays_the_iso_month() -> None:
    assert parse_time_key("2006-07").key == "2006-07"
    assert parse_time_key("2019-05").key == "2019-05"
