"""Generate the sample documents in this folder (run by hand; the outputs are committed).

    python sample_data/docs/make_docs.py

Why a hand-written PDF writer: the project must not grow a PDF-writing dependency (pdfplumber
and pdfminer only read), and the documents must be byte-for-byte reproducible so claim ids in
gold sets stay stable. The writer emits PDF 1.4 with the standard Helvetica fonts (no embedding),
WinAnsi text, and ruling lines around every table cell so pdfplumber's line strategy finds the
tables (`Page.plain_table` draws one without any lines, for the unruled-table reader). The
Markdown twins of the seed-000 documents and the XLSX twins of the annual report's tables
(openpyxl, fixed timestamps) are written here too. Widths for word wrapping come from pdfminer's built-in AFM metrics (already installed
with pdfplumber), the same numbers a reader uses to place the glyphs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from pdfminer.fontmetrics import FONT_METRICS

HERE = Path(__file__).resolve().parent
PAGE_W, PAGE_H = 612.0, 792.0  # US Letter, points
MARGIN_X = 72.0
TOP_Y = PAGE_H - 90.0  # first body baseline, below the running header
BOTTOM_Y = 80.0  # last body baseline, above the footer
FONTS = {"F1": "Helvetica", "F2": "Helvetica-Bold", "F3": "Helvetica-Oblique"}


def text_width(s: str, font: str = "F1", size: float = 10.0) -> float:
    widths = FONT_METRICS[FONTS[font]][1]
    return sum(widths.get(ch, 556) for ch in s) * size / 1000.0


def _pdf_string(s: str) -> bytes:
    raw = s.encode("cp1252")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def wrap(s: str, width: float, font: str = "F1", size: float = 10.0) -> list[str]:
    lines: list[str] = []
    cur = ""
    for word in s.split():
        cand = f"{cur} {word}" if cur else word
        if cur and text_width(cand, font, size) > width:
            lines.append(cur)
            cur = word
        else:
            cur = cand
    if cur:
        lines.append(cur)
    return lines


@dataclass
class Page:
    """One page's content stream, built with a cursor `y` that moves down the page."""

    ops: list[bytes] = field(default_factory=list)
    y: float = TOP_Y
    md: list[str] = field(default_factory=list)  # the same content as Markdown blocks

    def text(self, x: float, y: float, s: str, font: str = "F1", size: float = 10.0) -> None:
        self.ops.append(
            b"BT /" + font.encode() + b" %.1f Tf %.2f %.2f Td " % (size, x, y)
            + _pdf_string(s) + b" Tj ET"
        )

    def line(self, x1: float, y1: float, x2: float, y2: float, w: float = 0.6) -> None:
        self.ops.append(b"%.2f w %.2f %.2f m %.2f %.2f l S" % (w, x1, y1, x2, y2))

    def heading(self, s: str, size: float = 14.0) -> None:
        self.md.append(("# " if size >= 14 else "## ") + s)
        self.y -= size * 0.4
        self.text(MARGIN_X, self.y, s, "F2", size)
        self.y -= size * 1.6

    def para(self, s: str, size: float = 10.0, font: str = "F1", indent: float = 0.0,
             md: bool = True) -> None:
        if md:
            self.md.append(s)
        lead = size * 1.35
        for ln in wrap(s, PAGE_W - 2 * MARGIN_X - indent, font, size):
            self.text(MARGIN_X + indent, self.y, ln, font, size)
            self.y -= lead
        self.y -= size * 0.9  # paragraph gap

    def bullet(self, s: str, size: float = 10.0) -> None:
        self.md.append("- " + s)
        lead = size * 1.35
        for k, ln in enumerate(wrap(s, PAGE_W - 2 * MARGIN_X - 14, "F1", size)):
            if k == 0:
                self.text(MARGIN_X + 2, self.y, "-", "F1", size)
            self.text(MARGIN_X + 14, self.y, ln, "F1", size)
            self.y -= lead
        self.y -= size * 0.5

    def table(self, rows: list[list[str]], widths: list[float], *, header_rows: int = 1,
              size: float = 9.0, row_h: float = 16.0) -> None:
        """Ruled grid: every cell boxed, numbers right-aligned, header rows bold."""
        top = self.y + size + 2
        x0 = MARGIN_X
        xs = [x0]
        for w in widths:
            xs.append(xs[-1] + w)
        n = len(rows)
        for r in range(n + 1):
            yy = top - r * row_h
            self.line(xs[0], yy, xs[-1], yy)
        for x in xs:
            self.line(x, top, x, top - n * row_h)
        for r, row in enumerate(rows):
            base = top - r * row_h - row_h + 5
            font = "F2" if r < header_rows else "F1"
            for c, cell in enumerate(row):
                if not cell:
                    continue
                numeric = c > 0 and any(ch.isdigit() for ch in cell) and r >= header_rows
                x = xs[c + 1] - 4 - text_width(cell, font, size) if numeric else xs[c] + 4
                self.text(x, base, cell, font, size)
        self.y = top - n * row_h - 22

    def plain_table(self, rows: list[list[str]], widths: list[float], *, size: float = 9.0,
                    row_h: float = 14.0) -> None:
        """Unruled table: no lines at all, columns aligned by whitespace only. The first column
        is left-aligned, every other column (header included) right-aligned, as financial
        statements print them."""
        xs = [MARGIN_X]
        for w in widths:
            xs.append(xs[-1] + w)
        base = self.y
        for r, row in enumerate(rows):
            font = "F2" if r == 0 else "F1"
            for c, cell in enumerate(row):
                if not cell:
                    continue
                x = xs[c] if c == 0 else xs[c + 1] - text_width(cell, font, size)
                self.text(x, base, cell, font, size)
            base -= row_h
        self.y = base - 14


class Document:
    """Pages plus running header/footer, serialised to deterministic PDF bytes."""

    def __init__(self, title: str, header: str, footer_left: str) -> None:
        self.title = title
        self.header = header
        self.footer_left = footer_left
        self.pages: list[Page] = []

    def new_page(self) -> Page:
        p = Page()
        self.pages.append(p)
        return p

    def _decorate(self) -> None:
        total = len(self.pages)
        for i, p in enumerate(self.pages, start=1):
            p.text(MARGIN_X, PAGE_H - 50, self.header, "F3", 8.5)
            p.line(MARGIN_X, PAGE_H - 56, PAGE_W - MARGIN_X, PAGE_H - 56, 0.4)
            p.text(MARGIN_X, 42, self.footer_left, "F1", 8.0)
            label = f"Page {i} of {total}"
            p.text(PAGE_W - MARGIN_X - text_width(label, "F1", 8.0), 42, label, "F1", 8.0)

    def to_bytes(self) -> bytes:
        self._decorate()
        objs: list[bytes] = []  # object k+1 is objs[k]
        objs.append(b"<< /Type /Catalog /Pages 2 0 R >>")
        objs.append(b"")  # pages, filled below
        font_ids = {}
        for name, base in FONTS.items():
            objs.append(
                b"<< /Type /Font /Subtype /Type1 /BaseFont /" + base.encode()
                + b" /Encoding /WinAnsiEncoding >>"
            )
            font_ids[name] = len(objs)
        font_res = b" ".join(b"/%s %d 0 R" % (k.encode(), v) for k, v in font_ids.items())
        kids = []
        for p in self.pages:
            stream = b"\n".join(p.ops)
            objs.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
            content_id = len(objs)
            objs.append(
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Resources << /Font << "
                % (PAGE_W, PAGE_H) + font_res + b" >> >> /Contents %d 0 R >>" % content_id
            )
            kids.append(len(objs))
        objs[1] = b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % k for k in kids) + (
            b"] /Count %d >>" % len(kids)
        )
        objs.append(b"<< /Title " + _pdf_string(self.title) + b" /Producer (HyRAG make_docs.py) >>")
        info_id = len(objs)
        out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for k, body in enumerate(objs, start=1):
            offsets.append(len(out))
            out += b"%d 0 obj\n" % k + body + b"\nendobj\n"
        xref = len(out)
        out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
        for off in offsets:
            out += b"%010d 00000 n \n" % off
        out += b"trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
            len(objs) + 1, info_id, xref
        )
        return bytes(out)

    def markdown(self) -> str:
        """The document's prose as Markdown (headings, paragraphs, list items; tables left
        out): the text-file twin of the PDF, without running headers or page numbers."""
        return "\n\n".join(b for p in self.pages for b in p.md) + "\n"

    def save(self, name: str) -> Path:
        path = HERE / name
        path.write_bytes(self.to_bytes())
        return path


# --- seed 000 section VI: Crestwood College (4 documents) and Northgate University (2) ---------

CW_HEADER = "Crestwood College  |  crestwood.edu"
NG_HEADER = "Northgate University  |  northgate.edu"


def crestwood_overview() -> Document:
    d = Document("Crestwood College - Overview 2024", CW_HEADER, "Crestwood College Overview 2024")
    p = d.new_page()
    p.heading("Crestwood College Overview 2024")
    p.para(
        "Crestwood College is a private liberal arts college located in Ashford, Vermont. "
        "It was founded in 1894 by the Ashford Teachers Society."
    )
    p.para(
        "In fall 2024, Crestwood College enrolled 4,820 undergraduate students and 610 graduate "
        "students. The college employed 412 full-time faculty members in 2024."
    )
    p.para(
        "Crestwood College operates three campuses and partners with Ashford Regional Hospital "
        "on clinical placements for nursing students."
    )
    p.para(
        "The college's operating budget was $182.5 million in fiscal 2024, up 4.1% from fiscal "
        "2023."
    )
    return d


def crestwood_academics() -> Document:
    d = Document("Crestwood College - Academics 2024", CW_HEADER, "Crestwood College Academics 2024")
    p = d.new_page()
    p.heading("Academics at Crestwood College")
    p.para(
        "Crestwood College offers 46 undergraduate majors and 12 graduate programs across four "
        "schools: Business, Engineering, Arts and Humanities, and Health Sciences."
    )
    p.para(
        "The student-to-faculty ratio was 13 to 1 in 2024. The first-year retention rate was "
        "91 percent for the class entering in fall 2023."
    )
    p.para(
        "Admissions remained selective: Crestwood College admitted 38% of its 9,450 applicants "
        "for fall 2024."
    )
    return d


def crestwood_outcomes() -> Document:
    d = Document(
        "Crestwood College - Graduate Employment Outcomes 2024", CW_HEADER,
        "Crestwood College Graduate Outcomes Report 2024",
    )
    p = d.new_page()
    p.heading("Graduate Employment Outcomes, Class of 2024")
    p.para(
        "Crestwood College surveys every graduating class six months after commencement. The "
        "survey for the class of 2024 received 1,127 responses, a response rate of 81 percent."
    )
    p.para(
        "The graduate employment rate of Crestwood College was 88 percent for the class of 2024: "
        "88% of responding graduates were employed or enrolled in further study within six months "
        "of graduation."
    )
    p.para(
        "The median starting salary of Crestwood College graduates was $54,300 in 2024, up 3.2% "
        "from 2023. Employment in the field of study reached 74 percent."
    )
    p = d.new_page()
    p.heading("Outcomes by school", 12)
    p.para("Table 1. Graduate employment rate by school, class of 2024 (percent)", 9, "F3",
           md=False)
    p.y += 6
    p.table(
        [
            ["School", "Graduates", "Responses", "Employment rate (%)"],
            ["Business", "402", "331", "91"],
            ["Engineering", "288", "240", "93"],
            ["Arts and Humanities", "351", "276", "79"],
            ["Health Sciences", "349", "280", "90"],
            ["All schools", "1,390", "1,127", "88"],
        ],
        [150, 90, 90, 130],
    )
    p.para(
        "The employment rate counts graduates who are employed full-time, employed part-time by "
        "choice, or enrolled in graduate school."
    )
    return d


def crestwood_facilities() -> Document:
    d = Document(
        "Crestwood College - Facilities 2024", CW_HEADER, "Crestwood College Facilities 2024"
    )
    p = d.new_page()
    p.heading("Campus and Facilities")
    p.para(
        "The main Crestwood campus covers 240 acres in Ashford. The Hale Library holds 610,000 "
        "volumes and was renovated in 2022 at a cost of $18 million."
    )
    p.para(
        "Crestwood College opened the Mercer Engineering Center in September 2024. Residence "
        "halls house 3,100 students."
    )
    return d


def northgate_overview() -> Document:
    d = Document(
        "Northgate University - Overview 2024", NG_HEADER, "Northgate University Overview 2024"
    )
    p = d.new_page()
    p.heading("Northgate University at a Glance")
    p.para(
        "Northgate University is a public research university headquartered in Millbrook, "
        "Ohio. Northgate University was founded in 1921."
    )
    p.para(
        "In fall 2024, Northgate University enrolled 18,240 students, including 14,900 "
        "undergraduates. Its research expenditure was $96 million in fiscal 2024."
    )
    p.para(
        "Northgate University employs 1,950 staff on its Millbrook campus. The university "
        "runs a student employment program that placed 1,150 students in on-campus jobs in 2024."
    )
    p.para(
        "Northgate does not disclose its headcount of adjunct instructors."
    )
    p = d.new_page()
    p.heading("Mission and governance", 12)
    p.para(
        "Northgate University is governed by a Board of Trustees of 15 members. The university "
        "acquired the Millbrook School of Design in 2019."
    )
    p.para(
        "Career Services at Northgate offers advising, internship matching and alumni mentoring "
        "to all students."
    )
    return d


def northgate_academics() -> Document:
    d = Document(
        "Northgate University - Academics 2024", NG_HEADER, "Northgate University Academics 2024"
    )
    p = d.new_page()
    p.heading("Academic Programs at Northgate University")
    p.para(
        "Northgate University offers 112 bachelor's programs and 64 master's programs in eight "
        "colleges. The student-to-faculty ratio was 17 to 1 in 2024."
    )
    p.para(
        "The first-year retention rate at Northgate University was 86 percent in 2024, and the "
        "six-year graduation rate was 71 percent."
    )
    return d


# --- Riverside Clinic: sentences with several facts -------------------------------------------

def riverside() -> Document:
    d = Document(
        "Riverside Clinic - Annual Staffing and Activity Report 2024",
        "Riverside Clinic  |  Annual Staffing and Activity Report",
        "Riverside Clinic 2024",
    )
    p = d.new_page()
    p.heading("Riverside Clinic Annual Report 2024")
    p.para(
        "Riverside Clinic employed 412 registered nurses and 57 physicians in 2024. The clinic "
        "recorded 86,300 outpatient visits and 4,150 inpatient admissions in 2024."
    )
    p.para(
        "Its operating revenue rose 6% to $212.4 million in fiscal 2024. Average length of stay "
        "fell to 4.2 days in the third quarter of 2024."
    )
    p.para(
        "As of December 31, 2024, Riverside Clinic had 310 licensed beds. Riverside Clinic is a "
        "subsidiary of Harbor Health Partners."
    )
    p.para("Riverside Clinic does not disclose its nurse turnover rate.")
    return d


# --- Fjordline Logistics AS: a table continued across pages ------------------------------------

def fjordline() -> Document:
    d = Document(
        "Fjordline Logistics AS - Segment Report 2024",
        "Fjordline Logistics AS  |  Segment Report 2024",
        "Fjordline Logistics AS",
    )
    p = d.new_page()
    p.heading("Fjordline Logistics AS Segment Report 2024")
    p.para(
        "Fjordline Logistics AS is headquartered in Bergen, Norway. Group revenue was NOK 1,412.6 "
        "million in 2024. The table below shows revenue by route for 2022-2024."
    )
    p.para("Revenue by route", 10, "F2")
    p.y += 4
    p.para("(NOK thousands)", 9, "F3")
    p.y += 6
    header = ["Route", "2022", "2023", "2024"]
    routes = [
        ("Bergen-Stavanger", "84,210", "88,950", "93,400"),
        ("Bergen-Haugesund", "41,380", "43,020", "45,760"),
        ("Bergen-Florø", "36,900", "35,440", "37,180"),
        ("Bergen-Ålesund", "72,640", "75,110", "79,830"),
        ("Ålesund-Kristiansund", "28,470", "29,960", "31,020"),
        ("Kristiansund-Trondheim", "55,300", "58,720", "61,450"),
        ("Trondheim-Bodø", "97,880", "101,340", "108,900"),
        ("Bodø-Svolvær", "22,150", "23,480", "24,060"),
        ("Bodø-Tromsø", "64,920", "66,010", "70,340"),
        ("Tromsø-Hammerfest", "31,770", "33,210", "34,990"),
        ("Hammerfest-Kirkenes", "26,540", "27,180", "28,600"),
        ("Oslo-Kristiansand", "118,300", "121,900", "126,450"),
        ("Kristiansand-Stavanger", "59,600", "61,250", "64,180"),
        ("Oslo-Fredrikstad", "19,840", "20,410", "21,300"),
        ("Oslo-Larvik", "24,310", "25,060", "26,220"),
        ("Larvik-Arendal", "15,620", "16,070", "16,890"),
        ("Arendal-Grimstad", "9,480", "9,910", "10,320"),
        ("Stavanger-Egersund", "12,740", "13,190", "13,860"),
        ("Haugesund-Leirvik", "8,960", "9,240", "9,710"),
        ("Leirvik-Bergen", "17,330", "17,860", "18,640"),
        ("Florø-Måløy", "11,200", "11,530", "12,070"),
        ("Måløy-Ålesund", "13,450", "13,880", "14,520"),
        ("Trondheim-Rørvik", "16,980", "17,540", "18,310"),
        ("Rørvik-Brønnøysund", "10,150", "10,460", "10,990"),
        ("Brønnøysund-Sandnessjøen", "8,720", "9,010", "9,430"),
        ("Sandnessjøen-Bodø", "14,860", "15,330", "16,020"),
    ]
    first = routes[:22]
    rest = routes[22:]
    p.table([header] + [list(r) for r in first], [170, 90, 90, 90])
    p = d.new_page()
    p.table([header] + [list(r) for r in rest] + [["Total", "843,720", "869,100", "910,850"]],
            [170, 90, 90, 90])
    p.para(
        "Route revenue excludes charter income. Revenue on the Trondheim-Bodø route increased by "
        "7.5% in 2024 due to new winter sailings."
    )
    p.para("Employees by country (FTE)", 10, "F2")
    p.y += 6
    p.table(
        [["Country", "2023", "2024"], ["Norway", "1,184", "1,236"], ["Sweden", "142", "151"],
         ["Denmark", "58", "64"], ["Finland", "37", "41"], ["Germany", "22", "25"],
         ["Poland", "19", "24"], ["Netherlands", "12", "14"], ["United Kingdom", "9", "11"],
         ["Estonia", "8", "9"], ["Latvia", "6", "7"], ["Lithuania", "5", "6"],
         ["Iceland", "4", "5"], ["Faroe Islands", "3", "4"], ["France", "3", "3"],
         ["Spain", "2", "2"], ["Italy", "2", "2"], ["Belgium", "2", "2"]],
        [170, 90, 90],
    )
    p = d.new_page()
    p.table(
        [["Austria", "1", "1"], ["Switzerland", "1", "2"], ["Total", "1,520", "1,607"]],
        [170, 90, 90], header_rows=0,
    )
    p.para("Fjordline Logistics AS partners with Hurtig Port Services on terminal handling.")
    return d


# --- Kestrel Dynamics: annual report with a multi-year table over two pages ---------------------

KD_YEARS = ("2020", "2021", "2022", "2023", "2024")
KD_REVENUE = ("1021.4", "1108.7", "1184.9", "1292.6", "1410.2")
KD_SEGMENTS_HEADER = ["Segment", "2022", "2023", "2024"]
KD_SEGMENTS = [
    ("Industrial sensors", "612.3", "655.1", "701.4"),
    ("Marine systems", "401.8", "438.2", "472.9"),
    ("Software and services", "170.8", "199.3", "235.9"),
    ("Total", "1184.9", "1292.6", "1410.2"),
]
# The one figure the narrative restates differently from the table (README: "contradiction").
KD_FCF_NARRATIVE_DELTA = Decimal("10.0")


def _d(x: Decimal | str | float) -> Decimal:
    return Decimal(str(x)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


def kestrel_financials() -> list[tuple[str, list[Decimal]]]:
    """26 line items x 5 years (USD millions), derived from revenue by fixed ratios so the
    numbers hang together; negative amounts are costs and outflows."""
    rows: dict[str, list[Decimal]] = {k: [] for k in (
        "Revenue", "Cost of revenue", "Gross profit", "Research and development",
        "Selling, general and administrative", "Operating income", "Net finance costs",
        "Income before tax", "Income tax expense", "Net income", "Cash and cash equivalents",
        "Trade receivables", "Inventories", "Property, plant and equipment", "Total assets",
        "Trade payables", "Long-term debt", "Total liabilities", "Shareholders' equity",
        "Cash from operations", "Capital expenditure", "Free cash flow", "Dividends paid",
        "Share buybacks", "Order intake", "Order backlog")}
    for i, rev_s in enumerate(KD_REVENUE):
        r = Decimal(rev_s)
        cost = _d(-r * Decimal("0.423"))
        gross = r + cost
        rd = _d(-r * Decimal("0.112"))
        sga = _d(-r * Decimal("0.198"))
        op = gross + rd + sga
        fin = _d(-(Decimal("14.2") + Decimal("1.3") * i))
        pbt = op + fin
        tax = _d(-pbt * Decimal("0.22"))
        ni = pbt + tax
        ta = _d(r * Decimal("1.25"))
        tl = _d(r * Decimal("0.62"))
        cfo = _d(r * Decimal("0.19"))
        capex = _d(-r * Decimal("0.085"))
        vals = [r, cost, gross, rd, sga, op, fin, pbt, tax, ni,
                _d(r * Decimal("0.15") + 10 * i), _d(r * Decimal("0.17")),
                _d(r * Decimal("0.12")), _d(r * Decimal("0.35")), ta, _d(r * Decimal("0.09")),
                _d(r * Decimal("0.30") - 8 * i), tl, ta - tl, cfo, capex, cfo + capex,
                _d(-ni * Decimal("0.35")), _d(-(20 + 5 * i)), _d(r * Decimal("1.06")),
                _d(r * Decimal("0.48"))]
        for k, v in zip(rows, vals, strict=True):
            rows[k].append(v)
    return list(rows.items())


def fmt_amount(v: Decimal) -> str:
    """1234.5 -> '1,234.5'; negatives in brackets: -430.1 -> '(430.1)'."""
    s = f"{abs(v):,.1f}"
    return f"({s})" if v < 0 else s


KD_TITLE = "Kestrel Dynamics - Five-year financial summary"
KD_SEG_TITLE = "Kestrel Dynamics - Revenue by segment"
KD_SCALE = "(USD millions)"
KD_SPLIT = 16  # line items on page 1; the rest continue on page 2 under a repeated header


def annual_report() -> Document:
    fin = dict(kestrel_financials())
    d = Document(
        "Kestrel Dynamics - Annual Report 2024",
        "Kestrel Dynamics  |  Annual Report 2024",
        "Kestrel Dynamics Annual Report 2024",
    )
    rev = fin["Revenue"]
    growth = (rev[4] / rev[3] - 1) * 100
    p = d.new_page()
    p.heading("Kestrel Dynamics Annual Report 2024")
    p.para(
        "Kestrel Dynamics designs and manufactures precision sensors and marine navigation "
        "systems. Kestrel Dynamics is headquartered in Portland, Maine, and acquired Selkie "
        "Navigation in 2022."
    )
    p.para(
        f"Kestrel Dynamics reported revenue of ${fmt_amount(rev[4])} million in fiscal 2024, up "
        f"{_d(growth)}% from fiscal 2023. In fiscal 2023, revenue was $1.3 billion."
    )
    p.para(
        f"Operating income was ${fmt_amount(fin['Operating income'][4])} million in 2024. Net "
        f"income rose to ${fmt_amount(fin['Net income'][4])} million in fiscal 2024."
    )
    p.para(
        f"Free cash flow reached "
        f"${fmt_amount(fin['Free cash flow'][4] + KD_FCF_NARRATIVE_DELTA)} million in 2024. "
        "Kestrel Dynamics does not disclose revenue by customer."
    )
    p.para(KD_TITLE, 10, "F2", md=False)
    p.y += 4
    p.para(KD_SCALE, 9, "F3", md=False)
    p.y += 6
    header = ["Line item", *KD_YEARS]
    widths = [190, 56, 56, 56, 56, 56]
    items = [[k, *(fmt_amount(v) for v in vals)] for k, vals in fin.items()]
    p.table([header] + items[:KD_SPLIT], widths)
    assert p.y > BOTTOM_Y - 30, "table runs into the footer"
    p = d.new_page()
    p.para(f"{KD_TITLE} (continued)", 10, "F2", md=False)
    p.y += 6
    p.table([header] + items[KD_SPLIT:], widths)
    p.para(
        "Free cash flow is cash from operations less capital expenditure. Figures for 2020 to "
        "2023 are restated for the acquisition of Selkie Navigation."
    )
    p.heading("Segments", 12)
    p.para(
        "Marine systems revenue increased by 7.9% in 2024 due to new navigation contracts. "
        "Industrial sensors remained the largest segment."
    )
    p.para(KD_SEG_TITLE, 10, "F2", md=False)
    p.y += 4
    p.para(KD_SCALE, 9, "F3", md=False)
    p.y += 4
    p.plain_table([KD_SEGMENTS_HEADER] + [[r[0], *(fmt_amount(Decimal(x)) for x in r[1:])]
                                          for r in KD_SEGMENTS], [190, 70, 70, 70])
    p.heading("Outlook", 12)
    p.para(
        "For fiscal 2025, Kestrel Dynamics expects revenue growth of 6% to 8% and capital "
        "expenditure of about $130 million."
    )
    return d


def annual_report_xlsx(path_summary: Path, path_segments: Path) -> None:
    """The two tables of the annual report as spreadsheets (the golden twins the PDF tables are
    compared with): a title row, a blank row, the header, then numbers as numbers with a
    bracket-negative display format. Fixed document properties keep the bytes stable."""
    import datetime as dt

    import openpyxl

    fixed = dt.datetime(2025, 1, 31, 12, 0, 0)
    for path, title, header, rows in (
        (path_summary, KD_TITLE, ["Line item", *KD_YEARS],
         [(k, *vals) for k, vals in kestrel_financials()]),
        (path_segments, KD_SEG_TITLE, KD_SEGMENTS_HEADER,
         [(r[0], *(Decimal(x) for x in r[1:])) for r in KD_SEGMENTS]),
    ):
        wb = openpyxl.Workbook()
        ws = wb.active
        ws.title = "Summary" if path is path_summary else "Segments"
        ws.append([f"{title} {KD_SCALE}"])
        ws.append([])
        ws.append(header)
        for label, *vals in rows:
            ws.append([label, *(float(v) for v in vals)])
            for cell in ws[ws.max_row][1:]:
                cell.number_format = "#,##0.0;(#,##0.0)"
        wb.properties.creator = "HyRAG make_docs.py"
        wb.properties.created = fixed
        wb.properties.modified = fixed
        wb.save(path)
        _freeze_zip(path, fixed)


def _freeze_zip(path: Path, when) -> None:  # datetime
    """openpyxl stamps the zip entries (and core.xml) with the time of writing; rewrite them
    with a fixed time so a re-run gives the same bytes (CONTRACT.md: ids follow the bytes)."""
    import io
    import re as _re
    import zipfile

    src = zipfile.ZipFile(io.BytesIO(path.read_bytes()))
    out = io.BytesIO()
    stamp = when.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                data = _re.sub(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*", rb"\g<1>" + stamp,
                               data)
            zi = zipfile.ZipInfo(info.filename, date_time=when.timetuple()[:6])
            zi.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(zi, data)
    path.write_bytes(out.getvalue())


# --- A policy document: rules, dates, percentages ---------------------------------------------

def policy() -> Document:
    d = Document(
        "Harbor Health Partners - Expense and Remote Work Policy 2024",
        "Harbor Health Partners  |  Policy HHP-7",
        "Expense and Remote Work Policy 2024",
    )
    p = d.new_page()
    p.heading("Harbor Health Partners Expense and Remote Work Policy 2024")
    p.para(
        "This policy takes effect on March 1, 2024 and replaces the policy dated January 15, "
        "2021. It applies to all employees of Harbor Health Partners and its subsidiaries, "
        "including Riverside Clinic and Lakeview Clinic."
    )
    p.heading("1. Remote work", 12)
    p.bullet("Employees may work remotely for up to 2 days per week.")
    p.bullet("Remote work requires the written approval of a department head.")
    p.bullet("Clinical staff are not eligible for remote work.")
    p.heading("2. Travel and expenses", 12)
    p.bullet("Expense claims must be submitted within 30 days of the expense.")
    p.bullet("The daily meal allowance is $75 in the United States and $95 abroad.")
    p.bullet("Hotel costs above $250 per night require prior approval.")
    p.bullet("Mileage is reimbursed at $0.67 per mile in fiscal 2024.")
    p.heading("3. Retirement contributions", 12)
    p.para(
        "Harbor Health Partners matches 50% of employee contributions up to 6% of base salary. "
        "The employer match rose to 50% in 2024 from 40% in 2023. Employees vest fully after "
        "3 years of service."
    )
    p.heading("4. Review", 12)
    p.para(
        "The Compliance Committee reviews this policy every 12 months. The next review is due "
        "by December 31, 2024."
    )
    return d


MARKET_NOTES = """\
# Nordic Market Notes 2024

Prepared by the analysis desk for the ingestion tests of HyRAG. All companies are fictional.

## Nordic Foods AS

Nordic Foods AS is headquartered in Trondheim, Norway. Nordic Foods AS acquired Baltic Bakeries Ltd in March 2023.
Its revenue rose 9% to NOK 2.4 billion in fiscal 2024.

Baltic Bakeries Ltd is a subsidiary of Nordic Foods AS. Baltic Bakeries Ltd operated 14 bakeries and employed 380 people in 2024.

## Harbor Health Partners

Harbor Health Partners owns Riverside Clinic and Lakeview Clinic. The group reported EBITDA of $31.5 million in H1 2024.

- Lakeview Clinic is located in Duluth, Minnesota.
- Lakeview Clinic employed 96 registered nurses and 14 physicians as of June 30, 2024.
- Harbor Health Partners does not disclose clinic-level margins.

## Shipping

Fjordline Logistics AS partners with Hurtig Port Services on terminal handling. Fuel costs at Fjordline Logistics AS increased by 11% in the third quarter of 2024 due to higher bunker prices.

Margins were hurt by the weaker krone in 2024.
"""


PARTIAL_COVERAGE = (
    "crestwood_overview_2024.pdf", "crestwood_academics_2024.pdf",
    "crestwood_employment_outcomes_2024.pdf", "crestwood_facilities_2024.pdf",
    "northgate_overview_2024.pdf", "northgate_academics_2024.pdf",
)


def main() -> None:
    docs = {
        "crestwood_overview_2024.pdf": crestwood_overview(),
        "crestwood_academics_2024.pdf": crestwood_academics(),
        "crestwood_employment_outcomes_2024.pdf": crestwood_outcomes(),
        "crestwood_facilities_2024.pdf": crestwood_facilities(),
        "northgate_overview_2024.pdf": northgate_overview(),
        "northgate_academics_2024.pdf": northgate_academics(),
        "riverside_clinic_2024.pdf": riverside(),
        "fjordline_segments_2024.pdf": fjordline(),
        "annual_report_2024.pdf": annual_report(),
        "policy_2024.pdf": policy(),
    }
    (HERE / "market_notes.md").write_text(MARKET_NOTES, encoding="utf-8")
    print("wrote sample_data/docs/market_notes.md")
    # Seed 000 section VI as text files: the same prose as the PDFs, tables left out.
    pc = HERE / "partial_coverage"
    pc.mkdir(exist_ok=True)
    for name in PARTIAL_COVERAGE:
        (pc / name.replace(".pdf", ".md")).write_text(docs[name].markdown(), encoding="utf-8")
        print(f"wrote sample_data/docs/partial_coverage/{name.replace('.pdf', '.md')}")
    annual_report_xlsx(HERE / "annual_report_2024_summary.xlsx",
                       HERE / "annual_report_2024_segments.xlsx")
    print("wrote sample_data/docs/annual_report_2024_summary.xlsx, "
          "annual_report_2024_segments.xlsx")
    for name, doc in docs.items():
        path = doc.save(name)
        print(f"wrote {path.relative_to(HERE.parent.parent)} ({len(doc.pages)} pages)")


if __name__ == "__main__":
    main()
