"""Every committed sample file reads, and the deliberately broken ones fail as documented
(sample_data/README.md). Skipped where sample_data/ is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.errors import RaggedRowError, UnreadableFileError
from ingest.readers import read_path

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
TABULAR = (".csv", ".tsv", ".xlsx", ".xlsm")
BROKEN = {"orders_broken.csv": RaggedRowError, "corrupt.xlsx": UnreadableFileError}

files = sorted(p for p in SAMPLES.rglob("*") if p.suffix.lower() in TABULAR)
pytestmark = pytest.mark.skipif(not files, reason="sample_data/ not present")


@pytest.mark.parametrize("path", files, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_sample_file_reads_or_fails_as_documented(path):
    if path.name in BROKEN:
        with pytest.raises(BROKEN[path.name]) as ei:
            read_path(path)
        assert path.name in str(ei.value)
        return
    tables = read_path(path)
    assert tables and all(t.rows for t in tables)
    for t in tables:
        assert all(t.header) and len(set(t.header)) == len(t.header)


def _sample(rel):
    p = SAMPLES / rel
    assert p.exists(), f"committed sample file missing: {rel}"
    return p


def test_orders_broken_names_line_9():
    with pytest.raises(RaggedRowError) as ei:
        read_path(_sample("broken/orders_broken.csv"))
    assert ei.value.row == 9 and ei.value.found == 8 and ei.value.expected == 7


def test_regional_report_as_documented():
    first, second, summary = read_path(_sample("messy/regional_report.xlsx"))
    assert first.title == "Regional report, USD thousands"
    assert first.header == (
        "Region", "Category", "Revenue 2023", "Revenue 2024", "Units 2023", "Units 2024",
    )
    assert 12 not in first.row_locs and len(first.rows) == 16
    assert first.rows[1][:2] == ("North", "Furniture")  # merged region filled down
    assert second.header == ("Region", "Stores 2023", "Stores 2024", "Headcount 2024")
    assert second.row_locs == (24, 25, 26, 27) and second.title is None
    assert summary.sheet == "Summary" and summary.rows[-1][:3] == ("Total", 672.3, 727.7)


def test_financials_wide_title_and_footnote():
    [t] = read_path(_sample("messy/financials_wide.xlsx"))
    assert t.title == "Northwind Traders \u2014 Income statement (USD thousands)"
    assert len(t.header) == 11 and t.row_locs == tuple(range(4, 13))
    assert t.cell_address(0, 5) == "F4" and t.rows[0][5] == "1,410.2"


def test_suppliers_cp1252():
    [t] = read_path(_sample("messy/suppliers_cp1252.csv"))
    assert "encoding cp1252" in t.notes and "delimiter semicolon" in t.notes
    assert t.rows[0][1] == "Soci\u00e9t\u00e9 G\u00e9n\u00e9rale d\u2019\u00c9quipement"
