"""The set-wise SQL that writes cell claims against a plain-Python reference of the same recipe.

The store builds a million claims inside DuckDB for speed; this reference rebuilds them one by
one from the typed frame, in the way CONTRACT.md states the recipe (id = first 16 hex of sha256
over source sha256, kind and canonical locator JSON), and both must agree exactly.
"""

from __future__ import annotations

import hashlib
import json
import math

import pytest

import hyrag
from hyrag.ingestion import file_sha256
from ingest.readers import read_path
from ingest.schema import Role
from ingest.typed import prepare_table
from tests.conftest import SAMPLE


def _present(v) -> bool:
    return v is not None and not (isinstance(v, float) and math.isnan(v)) and str(v) != "<NA>"


def reference_claims(path, table_name: str) -> dict[str, tuple[str, float | None]]:
    sha, _ = file_sha256(path)
    [raw] = read_path(path)
    t = prepare_table(raw)
    f = t.frame
    out: dict[str, tuple[str, float | None]] = {}
    for i in range(len(f)):
        row = f.iloc[i]
        entity = str(row["__entity"])
        ctx = row["__context"] if _present(row["__context"]) else ""
        for cc in t.claim_columns:
            value = row[cc.column]
            if not _present(value):
                continue
            loc = {"file": path.name, "row": int(row["__row"]), "column": cc.header,
                   "cell": f"{cc.letter}{int(row['__row'])}"}
            if "__section" in f and _present(row["__section"]):
                loc["section"] = row["__section"]  # the heading the row sits under
            lj = json.dumps(loc, separators=(",", ":"), ensure_ascii=False)
            cid = hashlib.sha256(f"{sha}|cell|{lj}".encode()).hexdigest()[:16]
            if cc.role is Role.NUMERIC:
                vt = row[f"{cc.column}__text"]
                num = float(row[f"{cc.column}__num"])
                unit = row[f"{cc.column}__unit"] or ""
                period = ""
                if cc.column != t.schema.time_column and _present(row["__time_key"]):
                    word = "on" if row["__grain"] == "date" else "in"
                    period = f" {word} {row['__time_key']}"
                suffix = f" {unit}" if unit and unit.upper() not in vt.upper() else ""
            elif cc.role is Role.TIME:  # a period quoted as the file writes it
                vt, num, period, suffix = str(row[f"{cc.column}__text"]), None, "", ""
            else:
                vt, num, period, suffix = str(value), None, "", ""
            ctx_part = f" ({ctx})" if ctx else ""
            text = f"{table_name} {entity}{ctx_part}: {cc.attribute}{period} was {vt}{suffix}."
            out[cid] = (text, num)
    return out


@pytest.mark.parametrize("name", ["marketing", "inventory", "expenses"])
def test_sql_cell_claims_equal_the_python_reference(tmp_path, name):
    path = SAMPLE / f"{name}.csv"
    expected = reference_claims(path, name)
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(path)
        rows = kb.store.con.execute(
            "SELECT claim_id, text, value_num FROM claims WHERE kind = 'cell'"
        ).fetchall()
    got = {cid: (text, num) for cid, text, num in rows}
    assert set(got) == set(expected)
    for cid, (text, num) in expected.items():
        assert got[cid][0] == text
        if num is None:
            assert got[cid][1] is None
        else:
            assert got[cid][1] == pytest.approx(num)


def _stored(path) -> list[tuple[str, str, str]]:
    """(claim id, text, locator) of every cell claim the store writes for the file."""
    with hyrag.open(path.parent / "kb") as kb:
        kb.ingest(path)
        return kb.store.con.execute(
            "SELECT claim_id, text, locator FROM claims WHERE kind = 'cell'").fetchall()


def test_sql_cell_claims_under_section_headings_equal_the_python_reference(tmp_path):
    path = tmp_path / "segments.csv"
    path.write_text("item,revenue,cost\nRetail:,,\nNorth,10,4\nSouth,12,5\n"
                    "Wholesale:,,\nNorth,30,20\nOther,1,1\n")
    expected = reference_claims(path, "segments")
    rows = _stored(path)
    got = {cid: text for cid, text, _ in rows}
    assert set(got) == set(expected)
    assert sum('"section":"Wholesale:"' in loc for _, _, loc in rows) == 4


def test_sql_cell_claims_quote_a_date_as_the_file_writes_it(tmp_path):
    # "joined" is the rows' period; "born" is a date column of its own, whose claims quote
    # the date as written, not as its typed ISO form
    path = tmp_path / "staff.csv"
    path.write_text('name,joined,born,salary\nAnn Lee,"June 24, 1998","March 3, 1970",5100\n'
                    'Bo Chan,"July 2, 2001","May 9, 1975",4800\n')
    expected = reference_claims(path, "staff")
    got = {cid: text for cid, text, _ in _stored(path)}
    assert set(got) == set(expected)
    assert all(got[cid] == text for cid, (text, _) in expected.items())
    assert any(text.endswith("born was March 3, 1970.") for text in got.values())
