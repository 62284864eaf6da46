"""Tables of year-on-year changes (`tableqa_changes`): the change over a span is the sum of
the steps that chain across it, the average annual change their mean, and the difference of
two steps the later less the earlier — nothing when the steps do not chain over the years
named or the question asks another operation."""

from __future__ import annotations

import pytest

import hyrag
from hyrag.answer.readers import tableqa_changes as changes
from hyrag.settings import Settings
from tests.grids import ingest_grid

GRID = [
    ["", "Change between Fiscal increase (decrease)", ""],
    ["(In thousands)", "2019 and 2018", "2018 and 2017"],
    ["Payroll", "$4,089", "$22,908"],
    ["Travel and communication", "794", "80"],
    ["Total change in general and administrative expenses", "$2,682", "$34,874"],
]


@pytest.fixture(scope="module")
def con(tmp_path_factory: pytest.TempPathFactory):
    k = hyrag.open(tmp_path_factory.mktemp("changes") / "kb", settings=Settings(
        answer_use_search=False))
    ingest_grid(k, GRID, "report_table")
    yield k.store.con
    k.close()


def test_span_sum_mean_and_difference(con) -> None:
    r = changes.resolve("What is the total change in general and administrative expenses "
                        "from fiscal year 2017 to 2019?", con)
    assert r is not None and r.answer == 37556 and r.scale == "thousand"
    r = changes.resolve("What is the average annual total change in general and "
                        "administrative expenses for fiscal year 2017 to 2019?", con)
    assert r is not None and r.answer == 18778
    r = changes.resolve("What is the difference in the increase of travel and communication "
                        "expense in 2019 and 2018 as compared to 2018 and 2017?", con)
    assert r is not None and r.answer == 714


def test_no_guess(con) -> None:
    # one step only: the line-item reader's (or nobody's), not a span
    assert changes.resolve("What was the change in payroll from 2018 to 2019?", con) is None
    # the steps do not reach 2016
    assert changes.resolve("What was the total change in payroll from 2016 to 2019?",
                           con) is None
    # another operation over the steps
    assert changes.resolve("What was the percentage change in payroll from 2017 to 2019?",
                           con) is None
