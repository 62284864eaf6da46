"""The report table the language, interpreter and proposal tests read, ingested once per
module as a user would (`kb.ingest(path)`)."""

from __future__ import annotations

import pytest

from tests.answer.conftest import csv_kb

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
    kb = csv_kb(tmp_path_factory.mktemp("programs"), "revenue.csv", REPORT)
    yield kb
    kb.close()
