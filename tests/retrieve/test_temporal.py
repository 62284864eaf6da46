"""Temporal phrases -> order-key intervals (seed 003 section 4.2), a table of 36 phrases."""

from __future__ import annotations

import datetime as dt
import math

import pytest

from hyrag.retrieve.temporal import latest_key, question_interval

TODAY = dt.date(2024, 11, 15)
INF = math.inf
# (phrase, latest period in the data or None, expected (lo, hi) as YYYYMMDD, or None)
TABLE = [
    ("revenue in 2024", None, (20240101, 20241231)),
    ("2024Q1 revenue", None, (20240101, 20240331)),
    ("revenue Q3 2023", None, (20230701, 20230930)),
    ("revenue in 3Q23", None, (20230701, 20230930)),
    ("the first quarter of 2022", None, (20220101, 20220331)),
    ("since 2022", None, (20220101, INF)),
    ("from 2023 onwards", None, (20230101, INF)),
    ("before 2023", None, (-INF, 20221231)),
    ("until 2023", None, (-INF, 20231231)),
    ("after 2022", None, (20230101, INF)),
    ("between 2021 and 2023", None, (20210101, 20231231)),
    ("2023 vs 2024", None, (20230101, 20241231)),
    ("FY24 budget", None, (20240101, 20241231)),
    ("FY2023 results", None, (20230101, 20231231)),
    ("H1 2024", None, (20240101, 20240630)),
    ("2024H2", None, (20240701, 20241231)),
    ("in March 2024", None, (20240301, 20240331)),
    ("2024-03", None, (20240301, 20240331)),
    ("on 2024-03-15", None, (20240315, 20240315)),
    ("last 3 quarters", None, (20240101, 20240930)),
    ("last year", None, (20230101, 20231231)),
    ("this year", None, (20240101, 20241231)),
    ("YTD", None, (20240101, 20241115)),
    ("last 2 years", None, (20220101, 20231231)),
    ("last quarter", None, (20240701, 20240930)),
    ("last 3 quarters", "2024Q4", (20240401, 20241231)),
    ("last quarter", "2024Q4", (20241001, 20241231)),
    ("latest revenue", "2024Q4", (20241001, 20241231)),
    ("most recent figures", "2024Q2", (20240401, 20240630)),
    ("the latest quarter", "2024Q4", (20241001, 20241231)),
    ("this year", "2023Q4", (20230101, 20231231)),
    ("last 6 months", "2024-06", (20240101, 20240630)),
    ("total revenue by region", None, None),
    ("latest revenue", None, None),
    ("order SO-10042", None, None),
    ("how many beds does the clinic have", None, None),
]


@pytest.mark.parametrize(("phrase", "latest", "expected"), TABLE)
def test_phrase_to_interval(phrase: str, latest: str | None, expected) -> None:
    iv = question_interval(phrase, latest=latest_key(latest), today=TODAY)
    if expected is None:
        assert iv is None
        return
    assert iv is not None, phrase
    lo, hi = expected
    assert iv.lo == lo if math.isinf(lo) else int(iv.lo) == lo
    assert iv.hi == hi if math.isinf(hi) else int(iv.hi) == hi


def test_table_is_large_enough() -> None:
    assert len(TABLE) >= 30


def test_interval_contains_sub_periods() -> None:
    iv = question_interval("in 2024", today=TODAY)
    assert iv is not None
    assert iv.contains(20240331.091) and iv.contains(20241231.366) and not iv.contains(20231231.0)
    assert not iv.contains(None) and not iv.contains(math.nan)
