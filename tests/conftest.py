"""Shared fixtures: the committed sample data and knowledge bases built from it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import hyrag

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_data"
BUSINESS = ["sales", "customers", "expenses", "inventory", "hr", "marketing"]


@pytest.fixture(scope="session")
def sample_dir() -> Path:
    return SAMPLE


@pytest.fixture(scope="session")
def business_kb_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A knowledge base of the six business tables, the conflicting pair and the messy
    workbooks, built once per session; tests that write must copy it (see `kb_copy`)."""
    path = tmp_path_factory.mktemp("kb") / "business"
    with hyrag.open(path) as kb:
        for name in BUSINESS:
            kb.ingest(SAMPLE / f"{name}.csv")
        for f in ("conflicts/erp_revenue.csv", "conflicts/crm_revenue.csv",
                  "messy/financials_wide.xlsx", "messy/regional_report.xlsx",
                  "messy/formats.csv", "messy/suppliers_cp1252.csv"):
            kb.ingest(SAMPLE / f)
    return path


@pytest.fixture()
def business_kb(business_kb_dir: Path):
    kb = hyrag.open(business_kb_dir, read_only=True)
    yield kb
    kb.close()


@pytest.fixture()
def kb_copy(business_kb_dir: Path, tmp_path: Path):
    dst = tmp_path / "kb"
    shutil.copytree(business_kb_dir, dst)
    kb = hyrag.open(dst)
    yield kb
    kb.close()
