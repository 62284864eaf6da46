"""Displayed numbers -> the value a reader would quote, its scale and its unit."""

from __future__ import annotations

import math
from decimal import Decimal

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ingest.numbers import SCALES, ParsedNumber, find_numbers, parse_number, scale_hint

CELLS: list[tuple[object, float, str, str]] = [
    # plain, grouping and decimals
    ("412", 412.0, "", ""),
    ("1,234", 1234.0, "", ""),
    ("1,234,567", 1234567.0, "", ""),
    ("1,234.56", 1234.56, "", ""),
    ("1 234 567", 1234567.0, "", ""),
    ("1\u00a0234\u00a0567", 1234567.0, "", ""),
    ("1\u202f234", 1234.0, "", ""),
    ("1'234'567", 1234567.0, "", ""),
    ("0.5", 0.5, "", ""),
    (".75", 0.75, "", ""),
    ("1.234", 1.234, "", ""),
    ("  42  ", 42.0, "", ""),
    ("1e6", 1e6, "", ""),
    ("2024", 2024.0, "", ""),
    # unambiguous European forms
    ("1.234,56", 1234.56, "", ""),
    ("1 234,56", 1234.56, "", ""),
    ("12,5", 12.5, "", ""),
    ("1.234.567", 1234567.0, "", ""),
    # signs and negatives
    ("-5", -5.0, "", ""),
    ("+5", 5.0, "", ""),
    ("\u22123.2", -3.2, "", ""),
    ("(1,234)", -1234.0, "", ""),
    ("( 1,234 )", -1234.0, "", ""),
    ("1,234-", -1234.0, "", ""),
    ("-0", 0.0, "", ""),
    # percent
    ("12.5%", 12.5, "percent", "%"),
    ("12.5 %", 12.5, "percent", "%"),
    ("(12.5%)", -12.5, "percent", "%"),
    ("-3.2 percent", -3.2, "percent", "%"),
    ("+5.2%", 5.2, "percent", "%"),
    ("7 pct", 7.0, "percent", "%"),
    # currency before / after, symbols and codes
    ("$1,234", 1234.0, "", "USD"),
    ("($1,234)", -1234.0, "", "USD"),
    ("$(1,234)", -1234.0, "", "USD"),
    ("-$4.4bn", -4.4, "billion", "USD"),
    ("$4.4 billion", 4.4, "billion", "USD"),
    ("€12", 12.0, "", "EUR"),
    ("12 €", 12.0, "", "EUR"),
    ("£1.5m", 1.5, "million", "GBP"),
    ("¥100", 100.0, "", "JPY"),
    ("US$ 12", 12.0, "", "USD"),
    ("USD 1,250,000", 1250000.0, "", "USD"),
    ("1,250,000 USD", 1250000.0, "", "USD"),
    ("EUR 12m", 12.0, "million", "EUR"),
    ("NOK 1.2 bn", 1.2, "billion", "NOK"),
    ("nok 300", 300.0, "", "NOK"),
    ("100 kr", 100.0, "", "kr"),
    ("kr 1 000", 1000.0, "", "kr"),
    ("$5mm", 5.0, "million", "USD"),
    # scale suffixes
    ("1.2m", 1.2, "million", ""),
    ("1.2M", 1.2, "million", ""),
    ("3.4mn", 3.4, "million", ""),
    ("$3bn", 3.0, "billion", "USD"),
    ("2b", 2.0, "billion", ""),
    ("12k", 12.0, "thousand", ""),
    ("12K", 12.0, "thousand", ""),
    ("4.4 billion", 4.4, "billion", ""),
    ("3 million", 3.0, "million", ""),
    ("5 thousand", 5.0, "thousand", ""),
    # units
    ("12 days", 12.0, "", "days"),
    ("1 day", 1.0, "", "days"),
    ("3.5 kg", 3.5, "", "kg"),
    ("8 hrs", 8.0, "", "hours"),
    ("12k units", 12.0, "thousand", "units"),
    ("25 bps", 25.0, "", "bps"),
    # a negative change with its unit after the bracket, as statements print it
    ("(35)%", -35.0, "percent", "%"),
    ("(0.5) %", -0.5, "percent", "%"),
    ("(55) bps", -55.0, "", "bps"),
    ("3.2x", 3.2, "", "x"),
    ("5 mm", 5.0, "", "mm"),
    ("40 km/h", 40.0, "", "km/h"),
    # already typed
    (1234, 1234.0, "", ""),
    (-12.5, -12.5, "", ""),
    (np.int64(5), 5.0, "", ""),
    (np.float32(2.5), 2.5, "", ""),
    (Decimal("1.5"), 1.5, "", ""),
]


@pytest.mark.parametrize(("text", "value", "scale", "unit"), CELLS, ids=[repr(c[0]) for c in CELLS])
def test_cell_cleaning(text, value, scale, unit) -> None:
    p = parse_number(text)
    assert p is not None
    assert (p.value, p.scale, p.unit) == (pytest.approx(value), scale, unit)


def test_there_are_at_least_forty_cleaning_cases() -> None:
    assert len(CELLS) >= 40


def test_a_footnote_reference_after_an_amount_is_not_part_of_it() -> None:
    """"$130,000 (1)" is $130,000 with footnote 1: the amount a reader quotes, displayed
    without the mark. A year or a small figure before "(n)" is not read so: "2019 (1)" heads a
    footnoted column, and "12 (3)" may be two figures."""
    p = parse_number("$130,000 (1)")
    assert p is not None and (p.value, p.unit, p.text) == (130000.0, "USD", "$130,000")
    assert parse_number("6,320,000 (a)").value == 6320000.0
    assert parse_number("(1,234)*").value == -1234.0
    for text in ("2019 (1)", "12 (3)", "1,234 (12)", "1,234 (123)", "see (1)"):
        assert parse_number(text) is None, text


def test_text_is_kept_as_displayed() -> None:
    p = parse_number(" (1,234) ")
    assert p is not None and p.text == " (1,234) "


@pytest.mark.parametrize(
    ("text", "base"),
    [
        ("$4.4 billion", 4.4e9),
        ("EUR 12m", 12e6),
        ("12k", 12e3),
        ("(1,234)", -1234.0),
        ("12.5%", 12.5),
    ],
)
def test_base_multiplies_the_scale_out_but_keeps_percent(text, base) -> None:
    p = parse_number(text)
    assert p is not None and p.base == pytest.approx(base)


def test_scales_table_is_the_contract() -> None:
    assert SCALES == {"": 1.0, "thousand": 1e3, "million": 1e6, "billion": 1e9, "percent": 1.0}


NOT_NUMBERS: list[object] = [
    None,
    "",
    "   ",
    "-",
    "\u2014",
    "N/A",
    "n/a",
    "n.a.",
    "NA",
    "nm",
    "#DIV/0!",
    "abc",
    "Total",
    "2024-03-01",
    "03/2024",
    "31/03/2024",
    "2024M03",
    "2024Q1",
    "Q1 2024",
    "1Q24",
    "2H24",
    "FY2024",
    "31 March",
    "March 2024",
    "12 Main Street",
    "(2019) Note",
    "(12) abc",
    "12 to 15",
    "1.2.3",
    "((12))",
    "(12",
    "-(12)",
    "--12",
    "12 USD EUR",
    "$12 EUR",
    "5%m",
    True,
    False,
    np.bool_(True),
    float("nan"),
    float("inf"),
    np.float64("nan"),
    Decimal("NaN"),
    object(),
]


@pytest.mark.parametrize("value", NOT_NUMBERS, ids=[repr(v) for v in NOT_NUMBERS])
def test_non_numbers_are_none(value) -> None:
    assert parse_number(value) is None


def test_year_is_a_number_but_flagged() -> None:
    p = parse_number("2024")
    assert p is not None and p.value == 2024.0 and p.is_year
    for not_year in ("2,024", "2024.5", "$2024", "12", "3000"):
        q = parse_number(not_year)
        assert q is not None and not q.is_year, not_year


# ------------------------------------------------------------------------------ hints


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("Revenue (USD m)", ("million", "USD")),
        ("NOK thousands", ("thousand", "NOK")),
        ("in $ millions", ("million", "USD")),
        ("Amount ('000)", ("thousand", "")),
        ("Margin %", ("percent", "%")),
        ("Growth (pct)", ("percent", "%")),
        ("Lead time (days)", ("", "days")),
        ("Remaining term (years)", ("", "years")),
        # a maturity bucket: the span its amounts fall due in, not their unit
        ("1 to 3 years", ("", "")),
        ("More than 5 years", ("", "")),
        ("Weight (kg)", ("", "kg")),
        ("USD'000", ("thousand", "USD")),
        ("Revenue, NOK 000", ("thousand", "NOK")),
        ("$000", ("thousand", "USD")),
        ("$m", ("million", "USD")),
        ("£bn", ("billion", "GBP")),
        ("(€ million)", ("million", "EUR")),
        ("US$ millions", ("million", "USD")),
        ("kNOK", ("thousand", "NOK")),
        ("MNOK", ("million", "NOK")),
        ("TNOK", ("thousand", "NOK")),
        ("NOKm", ("million", "NOK")),
        ("EURbn", ("billion", "EUR")),
        ("(in thousands of U.S. dollars)", ("thousand", "USD")),
        ("in millions, except per share data", ("million", "")),
        ("Sales (k)", ("thousand", "")),
        ("Revenue (USD)", ("", "USD")),
        ("Height (m)", ("", "m")),
        ("Headcount", ("", "")),
        ("HR", ("", "")),  # a batting table's home runs, not hours
        ("Hours", ("", "hours")),
        ("Duration (hrs)", ("", "hours")),
        ("Mars revenue", ("", "")),
        ("Revenue Q1 2024", ("", "")),
        ("", ("", "")),
        (None, ("", "")),
    ],
)
def test_scale_hint(header, expected) -> None:
    assert scale_hint(header) == expected


def test_hint_fills_what_the_cell_leaves_out() -> None:
    cell = parse_number("1,410.2")
    assert cell is not None
    hinted = cell.with_hint(*scale_hint("Revenue (NOK m)"))
    assert (hinted.value, hinted.scale, hinted.unit) == (1410.2, "million", "NOK")
    assert hinted.base == pytest.approx(1_410_200_000.0)


def test_cell_wins_over_the_hint() -> None:
    pct = parse_number("13.1%")
    assert pct is not None
    assert pct.with_hint("million", "USD") == pct
    eur = parse_number("EUR 5")
    assert eur is not None and eur.with_hint("thousand", "USD").unit == "EUR"


def test_percent_hint_makes_bare_cells_percentages() -> None:
    cell = parse_number("13.1")
    assert cell is not None
    assert cell.with_hint(*scale_hint("Margin %")) == ParsedNumber(13.1, "percent", "%", "13.1")


# ------------------------------------------------------------------------------ prose


def _found(text: str, **kw) -> list[tuple[str, float, str, str]]:
    return [(text[s:e], n.value, n.scale, n.unit) for s, e, n in find_numbers(text, **kw)]


def test_numbers_in_prose_with_spans() -> None:
    text = (
        "Revenue was $4.4 billion, up 12.5% from (1,234); we paid 1,250,000 USD, "
        "hired 412 nurses, saw -3.2 percent churn and raised EUR 12m."
    )
    assert _found(text) == [
        ("$4.4 billion", 4.4, "billion", "USD"),
        ("12.5%", 12.5, "percent", "%"),
        ("(1,234)", -1234.0, "", ""),
        ("1,250,000 USD", 1250000.0, "", "USD"),
        ("412", 412.0, "", ""),
        ("-3.2 percent", -3.2, "percent", "%"),
        ("EUR 12m", 12.0, "million", "EUR"),
    ]


def test_currency_codes_glued_and_bracketed_amounts_in_prose() -> None:
    # reports print a code glued to its amount, and a negative in brackets after the currency
    assert _found("Revenue rose to INR19 billion and profit to RMB77 million.") == [
        ("INR19 billion", 19.0, "billion", "INR"),
        ("RMB77 million", 77.0, "million", "CNY"),
    ]
    assert _found("an operating loss of £(8.1m) and a charge of $(1.2) million") == [
        ("£(8.1m)", -8.1, "million", "GBP"),
        ("$(1.2) million", -1.2, "million", "USD"),
    ]
    assert _found("in (3) cases") == [("3", 3.0, "", "")]  # a marker, not a negative


def test_years_in_prose_are_flagged_or_excluded() -> None:
    text = "Riverside Clinic employed 412 registered nurses and 57 physicians in 2024."
    found = find_numbers(text)
    assert [(text[s:e], n.is_year) for s, e, n in found] == [
        ("412", False),
        ("57", False),
        ("2024", True),
    ]
    assert [text[s:e] for s, e, _ in find_numbers(text, include_years=False)] == ["412", "57"]


def test_digits_inside_periods_are_not_numbers() -> None:
    text = "In Q3 2024 and fiscal 2023, as of December 31, 2019, FY24 and 1Q24 sales were 9.1m."
    assert _found(text) == [("9.1m", 9.1, "million", "")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "lead time of 12 days and 3.5 kg",
            [("12 days", 12.0, "", "days"), ("3.5 kg", 3.5, "", "kg")],
        ),
        ("a range of 10-15%", [("10", 10.0, "", ""), ("15%", 15.0, "percent", "%")]),
        ("see note (3) for details", [("3", 3.0, "", "")]),
        ("a loss of (2.5)", [("(2.5)", -2.5, "", "")]),
        ("fell \u22124 percent", [("\u22124 percent", -4.0, "percent", "%")]),
        ("COVID-19 and the A320 in version 3.2.1", []),
        (
            "1.2m units and $3bn",
            [("1.2m units", 1.2, "million", "units"), ("$3bn", 3.0, "billion", "USD")],
        ),
        ("costs of 1\u00a0234 NOK", [("1\u00a0234 NOK", 1234.0, "", "NOK")]),
        ("", []),
    ],
)
def test_prose_cases(text, expected) -> None:
    assert _found(text) == expected


# ------------------------------------------------------------------------------ properties


def _grouped(x: float, decimals: int) -> str:
    return f"{abs(x):,.{decimals}f}"


@given(
    st.floats(min_value=-1e12, max_value=1e12, allow_nan=False, allow_infinity=False),
    st.integers(min_value=0, max_value=3),
    st.sampled_from(["", "$", "EUR "]),
)
def test_accounting_format_round_trips(x: float, decimals: int, prefix: str) -> None:
    """Whatever a spreadsheet displays as "(1,234.5)" / "$1,234.5" reads back as its value."""
    shown = round(x, decimals)
    body = prefix + _grouped(shown, decimals)
    text = f"({body})" if shown < 0 else body
    p = parse_number(text)
    assert p is not None
    assert p.value == pytest.approx(shown, rel=1e-12, abs=10.0 ** -(decimals + 1))
    assert p.unit == {"": "", "$": "USD", "EUR ": "EUR"}[prefix]


@given(st.floats(min_value=-1e9, max_value=1e9, allow_nan=False), st.sampled_from(["k", "m", "bn"]))
def test_scaled_values_multiply_out(x: float, suffix: str) -> None:
    text = f"{x:.2f}{suffix}"
    p = parse_number(text)
    assert p is not None
    factor = {"k": 1e3, "m": 1e6, "bn": 1e9}[suffix]
    assert p.base == pytest.approx(float(f"{x:.2f}") * factor)


@given(st.integers(min_value=-(10**15), max_value=10**15))
def test_typed_integers_and_their_display_agree(n: int) -> None:
    typed = parse_number(n)
    shown = parse_number(f"{n:,}")
    assert typed is not None and shown is not None
    assert typed.value == shown.value == float(n)
    assert not math.isnan(typed.base)
