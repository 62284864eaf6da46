"""Writes the small legacy .xls and OpenDocument .ods workbooks the calamine reader's tests
ingest (tests/data/workbooks/). The outputs are committed, so the tests never need the
writers; run this only to change them:

    /work/main/.venv/bin/python tests/data/make_workbooks.py

Writers: xlwt (.xls, BIFF8) and odfpy (.ods), both in the `dev` extra. Each workbook has the
same two sheets, with the first table offset from A1 so tests can check real sheet coordinates:

- "Revenue": a title line in B2, the header in B4 (Region | 2023 | 2024), three regions.
- "Staff": from A1, Team | Lead | Headcount | Since (a date).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

OUT = Path(__file__).parent / "workbooks"

TITLE = "Regional revenue (USD thousands)"
REVENUE = [("Region", "2023", "2024"), ("Nordic", 1200, 1350.5), ("Iberia", 980, 1010),
           ("Benelux", 430, 465)]
STAFF = [("Team", "Lead", "Headcount", "Since"),
         ("Platform", "Åsa Lindström", 14, dt.date(2019, 3, 1)),
         ("Payments", "Jürgen Müller", 9, dt.date(2021, 6, 15)),
         ("Search", "Chloé Martin", 6, dt.date(2022, 1, 10))]


def write_xls(path: Path) -> None:
    import xlwt

    wb = xlwt.Workbook(encoding="utf-8")
    ws = wb.add_sheet("Revenue")
    ws.write(1, 1, TITLE)  # B2
    for r, row in enumerate(REVENUE, start=3):  # header on row 4
        for c, v in enumerate(row, start=1):  # column B
            ws.write(r, c, v)
    ws = wb.add_sheet("Staff")
    date_style = xlwt.easyxf(num_format_str="YYYY-MM-DD")
    for r, row in enumerate(STAFF):
        for c, v in enumerate(row):
            if isinstance(v, dt.date):
                ws.write(r, c, v, date_style)
            else:
                ws.write(r, c, v)
    wb.save(str(path))


def write_ods(path: Path) -> None:
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()

    def cell(v: object) -> TableCell:
        if v is None:
            return TableCell()
        if isinstance(v, dt.date):
            c = TableCell(valuetype="date", datevalue=v.isoformat())
        elif isinstance(v, int | float):
            c = TableCell(valuetype="float", value=v)
        else:
            c = TableCell(valuetype="string")
        c.addElement(P(text=str(v)))
        return c

    def sheet(name: str, rows: list[tuple[object, ...]], top: int, left: int) -> None:
        t = Table(name=name)
        for _ in range(top):
            t.addElement(TableRow())
        for row in rows:
            tr = TableRow()
            for v in (None,) * left + tuple(row):
                tr.addElement(cell(v))
            t.addElement(tr)
        doc.spreadsheet.addElement(t)

    sheet("Revenue", [(TITLE,), (), *REVENUE], top=1, left=1)
    sheet("Staff", STAFF, top=0, left=0)
    doc.save(str(path))


if __name__ == "__main__":
    OUT.mkdir(exist_ok=True)
    write_xls(OUT / "regions.xls")
    write_ods(OUT / "regions.ods")
    for p in sorted(OUT.iterdir()):
        print(p, p.stat().st_size, "bytes")
