"""A small knowledge base for the display tests: sales, the ERP/CRM conflict, a wide workbook
(for a derivation), the Crestwood and Northgate documents, and a CSV with hostile cell text."""

from __future__ import annotations

from pathlib import Path

import pytest

import hyrag
from hyrag.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data"
SETTINGS = Settings(answer_use_search=False)
HOSTILE = "<script>alert(1)</script>"

# A cell holding a script tag, one with markup in an attribute-breaking quote, and an ampersand.
HOSTILE_CSV = (
    "product,region,revenue\n"
    f"{HOSTILE},North,100\n"
    '"Widget & Co ""><img src=x onerror=alert(2)>",South,200\n'
)


@pytest.fixture(scope="session")
def display_kb_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("kb") / "display"
    hostile = path.parent / "hostile.csv"
    hostile.write_text(HOSTILE_CSV, encoding="utf-8")
    with hyrag.open(path) as kb:
        kb.ingest_many([SAMPLE / "sales.csv", SAMPLE / "conflicts",
                        SAMPLE / "messy" / "financials_wide.xlsx",
                        SAMPLE / "docs" / "crestwood_employment_outcomes_2024.pdf",
                        SAMPLE / "docs" / "northgate_overview_2024.pdf", hostile])
    return path


@pytest.fixture(scope="session")
def dkb(display_kb_dir: Path):
    kb = hyrag.open(display_kb_dir, settings=SETTINGS)
    yield kb
    kb.close()
