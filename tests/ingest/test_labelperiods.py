"""The period a table label names, pinned by a fixture file (label; expected period key)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.labelperiods import period_key, period_of_path, without_declarations

FIXTURES = Path(__file__).parent / "fixtures" / "label_periods.tsv"


def _cases() -> list[tuple[str, str | None]]:
    out = []
    for line in FIXTURES.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        label, expected = line.split("\t")
        out.append((label, expected or None))
    return out


@pytest.mark.parametrize(("label", "expected"), _cases())
def test_a_label_names_the_period_a_reader_sees_in_it(label: str, expected: str | None) -> None:
    assert period_key(label) == expected


def test_what_a_header_prints_after_its_period_is_stripped_not_what_precedes_it() -> None:
    assert without_declarations("2018 $'000 Restated") == "2018"
    assert without_declarations("Dec 31, 2019 (in millions)") == "Dec 31, 2019"
    assert without_declarations("Notes due 2025") == "Notes due 2025"


def test_a_path_is_dated_by_its_innermost_period() -> None:
    assert period_of_path(("2018", "International", "September 30, 2019")) == "2019-09-30"
    assert period_of_path(("Revenue", "Americas")) is None
