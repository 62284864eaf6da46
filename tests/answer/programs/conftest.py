"""The report table the language, interpreter and proposal tests read, ingested once per
module as a user would (`kb.ingest(path)`)."""

from __future__ import annotations

from pathlib import Path

import pytest

import hyrag
from hyrag.settings import Settings

REPORT = """Revenue by line (in thousands),,
,2019,2018
Product,100,80
Services,50,40
Margin,20%,25%
Returns,(30),(20)
Total,150,120
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("programs")
    path = Path(folder) / "revenue.csv"
    path.write_text(REPORT, encoding="utf-8")
    kb = hyrag.open(folder / "kb", settings=Settings(answer_use_search=False))
    kb.ingest(path)
    yield kb
    kb.close()
