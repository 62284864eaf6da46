"""PDF -> RawTables (ruled tables per page, joined across page breaks) and page passages.

What a reader of a report sees as one table may be split over pages with the header printed
again; what it sees as furniture (running headers, "Page 3 of 7") repeats on every page. Both
would corrupt claims if taken literally: a split table would lose its header on page 2, and a
footer would become a "fact" stated once per page. So tables are joined, repeated header rows
dropped, furniture removed, and text inside tables is kept out of the prose.

Tables are found two ways. Ruled tables (cell borders drawn) come from pdfplumber's ruling-line
strategy. Unruled tables (columns aligned by whitespace only, as most financial statements are
printed) come from our own column alignment over the text lines left after that: a run of at least
three lines, each split into cells by gaps much wider than a word space, whose cells line up in the
same x-ranges, and whose body is mostly numbers. The number test is the guard against prose: two
prose columns side by side also have a wide gap on every line, but they do not hold numbers
(`_unruled_tables`). Scanned PDFs have no text layer: HyRAG does no OCR.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ingest.errors import EmptyFileError, EncryptedFileError, UnreadableFileError
from ingest.types import Cell, Passage, RawTable

# Fraction of the page height treated as the header / footer band for furniture detection.
MARGIN_BAND = 0.10
# Token overlap at which a row counts as a repeat of the header (DESIGN.md, header handling).
REPEATED_HEADER_OVERLAP = 0.70
# Largest gap (points) between a caption line and the table top.
CAPTION_GAP = 24.0
# Unruled tables: a gap wider than this many font sizes between two characters of one line
# separates cells (a word space is about 0.28 of the size); the vertical gap between two rows
# is at most this many font sizes; fewest lines (header + rows); share of body cells (outside
# the label column) that must be numbers.
UNRULED_CELL_GAP = 1.5
UNRULED_ROW_GAP = 1.6
UNRULED_MIN_LINES = 3
UNRULED_MIN_NUMERIC = 0.6
_NUMERIC_CELL = re.compile(
    r"[-+\u2212]?\(?[-+]?(?:[$\u20ac\u00a3]|[A-Z]{3}\s?)?\d[\d,. ]*\)?\s*(?:%|[kmbKMB]n?|x)?\)?"
    r"|[-\u2013\u2014]|n/?a|nm", re.IGNORECASE,
)

_PAGE_NO_RE = re.compile(
    r"(?:\bpage\s*\d+(?:\s*(?:of|/)\s*\d+)?\b|^\s*[-\u2013]?\s*\d{1,4}\s*[-\u2013]?\s*$"
    r"|^\s*\d+\s*/\s*\d+\s*$)",
    re.IGNORECASE,
)
_CONTINUED_RE = re.compile(r"\(?\bcontinued\b\)?|\bcont'?d\b", re.IGNORECASE)


@dataclass
class _Line:
    text: str
    top: float
    bottom: float
    x0: float
    size: float
    bold: bool
    furniture: bool = False
    caption: bool = False
    in_table: bool = False  # part of an unruled table
    chars: list[tuple[float, float, str]] = field(default_factory=list)  # (x0, x1, text)


@dataclass
class _PageTable:
    page: int
    index: int
    bbox: tuple[float, float, float, float]
    rows: list[list[Cell]]
    title: str | None = None


@dataclass
class _PageContent:
    number: int
    height: float
    lines: list[_Line] = field(default_factory=list)
    tables: list[_PageTable] = field(default_factory=list)
    images: int = 0  # image objects drawn on the page (a scan is an image and no text)


# --- opening --------------------------------------------------------------------------------

def _open(path: str | Path) -> Any:
    """pdfplumber.open with HyRAG's errors: a user needs to know *which* file and *why*."""
    import pdfplumber
    from pdfplumber.utils.exceptions import PdfminerException

    source = str(path)
    try:
        with open(path, "rb") as fh:
            head = fh.read(1024)
    except OSError as e:
        raise UnreadableFileError(f"cannot read the file: {e.strerror or e}", source=source) from e
    if not head:
        raise EmptyFileError("the file is empty (0 bytes)", source=source)
    if b"%PDF-" not in head:
        raise UnreadableFileError("the file is not a PDF (no %PDF- header)", source=source)
    try:
        pdf = pdfplumber.open(path)
        _ = pdf.pages  # forces the page tree; corrupt files fail here
        return pdf
    except PdfminerException as e:
        inner = e.args[0] if e.args else e
        name = type(inner).__name__
        if "Password" in name or "Encrypt" in name:
            raise EncryptedFileError(
                "the PDF is password-protected; decrypt it before ingesting (HyRAG does not "
                "guess passwords)",
                source=source,
            ) from e
        raise UnreadableFileError(f"the PDF is corrupt or truncated ({name})", source=source) from e
    except Exception as e:  # pdfminer raises assorted low-level errors on broken files
        raise UnreadableFileError(
            f"the PDF is corrupt or truncated ({type(e).__name__})", source=source
        ) from e


# --- page reading ---------------------------------------------------------------------------

def _clean_cell(c: Any) -> Cell:
    if c is None:
        return None
    s = re.sub(r"\s*\n\s*", " ", str(c)).strip()
    return s or None


def _inside(obj: dict[str, Any], boxes: list[tuple[float, float, float, float]]) -> bool:
    cx = (obj["x0"] + obj["x1"]) / 2
    cy = (obj["top"] + obj["bottom"]) / 2
    return any(x0 - 1 <= cx <= x1 + 1 and top - 1 <= cy <= bottom + 1
               for x0, top, x1, bottom in boxes)


def _read_page(page: Any) -> _PageContent:
    content = _PageContent(number=page.page_number, height=float(page.height),
                           images=len(page.images))
    found = sorted(page.find_tables(), key=lambda t: (round(t.bbox[1]), t.bbox[0]))
    boxes: list[tuple[float, float, float, float]] = []
    for t in found:
        rows = [[_clean_cell(c) for c in r] for r in t.extract()]
        if not rows or not any(c is not None for r in rows for c in r):
            continue
        boxes.append(tuple(t.bbox))  # type: ignore[arg-type]
        content.tables.append(
            _PageTable(page=page.page_number, index=len(content.tables), bbox=tuple(t.bbox),
                       rows=rows)  # type: ignore[arg-type]
        )
    body = page.filter(lambda o: o.get("object_type") != "char" or not _inside(o, boxes))
    for ln in body.extract_text_lines(return_chars=True, strip=True):
        text = re.sub(r"\s+", " ", ln["text"]).strip()
        if not text:
            continue
        chars = ln.get("chars") or []
        sizes = [float(c.get("size", 0)) for c in chars if str(c.get("text", "")).strip()]
        fonts = [str(c.get("fontname", "")) for c in chars if str(c.get("text", "")).strip()]
        bold = bool(fonts) and sum("Bold" in f or "Black" in f for f in fonts) > len(fonts) / 2
        content.lines.append(
            _Line(text=text, top=float(ln["top"]), bottom=float(ln["bottom"]),
                  x0=float(ln["x0"]), size=statistics.median(sizes) if sizes else 0.0, bold=bold,
                  chars=sorted((float(c["x0"]), float(c["x1"]), str(c.get("text", "")))
                               for c in chars))
        )
    content.lines.sort(key=lambda ln: (round(ln.top, 1), ln.x0))
    return content


def _norm_line(text: str) -> str:
    return re.sub(r"\d+", "#", re.sub(r"\s+", " ", text.lower())).strip()


def _mark_furniture(pages: list[_PageContent]) -> None:
    """Running headers/footers and page numbers: lines in the top/bottom band that repeat on at
    least half the pages (digits ignored, so 'Page 2 of 7' matches 'Page 3 of 7'), carry a page
    number, or sit in the top band set smaller than the body text (a one-page file's running
    header; footnotes at the bottom are content and stay)."""
    counts: dict[str, int] = {}
    for p in pages:
        seen = {_norm_line(ln.text) for ln in p.lines if _in_band(ln, p)}
        for key in seen:
            counts[key] = counts.get(key, 0) + 1
    all_sizes = [ln.size for p in pages for ln in p.lines if ln.size]
    body_size = statistics.median(all_sizes) if all_sizes else 0.0
    n = len(pages)
    for p in pages:
        for ln in p.lines:
            if not _in_band(ln, p):
                continue
            key = _norm_line(ln.text)
            repeated = n >= 2 and counts.get(key, 0) >= max(2, n / 2)
            page_no = _PAGE_NO_RE.search(ln.text) is not None and len(ln.text) < 120
            small = (ln.top < p.height * MARGIN_BAND and bool(body_size)
                     and ln.size < body_size * 0.95 and len(ln.text) < 120)
            if repeated or page_no or small:
                ln.furniture = True


def _in_band(ln: _Line, p: _PageContent) -> bool:
    return ln.top < p.height * MARGIN_BAND or ln.bottom > p.height * (1 - MARGIN_BAND)


def _looks_like_caption(text: str) -> bool:
    t = text.strip()
    if not t or len(t) > 110:
        return False
    if re.fullmatch(r"\(.*\)", t):
        return True  # "(NOK thousands)", "(in USD millions)"
    if re.match(r"(table|exhibit|figure)\s*\d*[.:]?\s", t, re.IGNORECASE):
        return True
    return not t.endswith((".", ";", ",")) and len(t.split()) <= 12


def _attach_captions(page: _PageContent) -> None:
    """Title = the line(s) just above a table when they read like a caption; such lines are
    then not prose (the title travels with the table, where the scale hint is needed)."""
    body = [ln for ln in page.lines if not ln.furniture and not ln.in_table]
    for t in page.tables:
        top = t.bbox[1]
        above = [ln for ln in body if ln.bottom <= top + 1 and not ln.caption]
        if not above:
            continue
        picked: list[_Line] = []
        edge = top
        for ln in reversed(above):
            if edge - ln.bottom > CAPTION_GAP or not _looks_like_caption(ln.text) or len(picked) == 2:
                break
            if picked and not re.fullmatch(r"\(.*\)", picked[0].text):
                break  # a second caption line only above a parenthetical scale note
            picked.insert(0, ln)
            edge = ln.top
        if picked:
            for ln in picked:
                ln.caption = True
            t.title = " ".join(ln.text for ln in picked)


# --- unruled tables -------------------------------------------------------------------------

def _segments(ln: _Line) -> list[tuple[float, float, str]]:
    """A line's cells: runs of characters separated by gaps wider than UNRULED_CELL_GAP sizes."""
    gap = UNRULED_CELL_GAP * max(ln.size, 1.0)
    segs: list[list] = []
    last_x1: float | None = None
    for x0, x1, t in ln.chars:
        if not t.strip():
            if segs:
                segs[-1][2] += " "
            continue
        if last_x1 is None or x0 - last_x1 > gap:
            segs.append([x0, x1, t])
        else:
            # a word space, whether the PDF draws a space glyph or only moves the pen
            space = " " if x0 - last_x1 > 0.15 * max(ln.size, 1.0) else ""
            segs[-1][1] = max(segs[-1][1], x1)
            segs[-1][2] += space + t
        last_x1 = x1
    return [(a, b, re.sub(r"\s+", " ", t).strip()) for a, b, t in segs]


def _columns(rows: list[list[tuple[float, float, str]]]) -> list[tuple[float, float]] | None:
    """Column x-ranges: the union of the body's cell ranges, merged where they overlap. None when
    two cells of one line fall into one column (the cells do not line up)."""
    spans = sorted((a, b) for segs in rows for a, b, _ in segs)
    cols: list[list[float]] = []
    for a, b in spans:
        if cols and a <= cols[-1][1] + 1.0:
            cols[-1][1] = max(cols[-1][1], b)
        else:
            cols.append([a, b])
    for segs in rows:
        hit = [_col_of(a, b, cols) for a, b, _ in segs]
        if len(set(hit)) != len(hit):
            return None
    return [(a, b) for a, b in cols]


def _col_of(a: float, b: float, cols) -> int:
    best, best_ov = 0, -1e9
    for j, (c0, c1) in enumerate(cols):
        ov = min(b, c1) - max(a, c0)
        if ov <= 0:  # no overlap: negative distance between centres
            ov = -abs((a + b) / 2 - (c0 + c1) / 2)
        if ov > best_ov:
            best, best_ov = j, ov
    return best


def _unruled_tables(page: _PageContent) -> None:
    """Find tables drawn without lines among the page's prose lines (see the module docstring);
    add them to `page.tables` and mark their lines so they are not prose."""
    lines = [ln for ln in page.lines if not ln.furniture]
    runs: list[list[tuple[_Line, list]]] = []
    cur: list[tuple[_Line, list]] = []
    for ln in lines:
        segs = _segments(ln)
        close = bool(cur) and ln.top - cur[-1][0].bottom <= UNRULED_ROW_GAP * max(ln.size, 1.0)
        if len(segs) >= 2 and (not cur or close):
            cur.append((ln, segs))
            continue
        if len(cur) >= UNRULED_MIN_LINES:
            runs.append(cur)
        cur = [(ln, segs)] if len(segs) >= 2 else []
    if len(cur) >= UNRULED_MIN_LINES:
        runs.append(cur)
    found = False
    for run in runs:
        body = [segs for _, segs in run[1:]]
        cols = _columns(body)
        if cols is None or len(cols) < 2:
            continue
        rows: list[list[Cell]] = []
        for _, segs in run:
            row: list[Cell] = [None] * len(cols)
            for a, b, t in segs:
                j = _col_of(a, b, cols)
                row[j] = t if row[j] is None else f"{row[j]} {t}"
            rows.append(row)
        values = [c for r in rows[1:] for c in r[1:] if c is not None]
        numeric = [c for c in values if _NUMERIC_CELL.fullmatch(c)]
        if not values or len(numeric) < UNRULED_MIN_NUMERIC * len(values):
            continue  # side-by-side prose, a form, a signature block: not a table
        for ln, _ in run:
            ln.in_table = True
        bbox = (min(ln.x0 for ln, _ in run), run[0][0].top,
                max(s[-1][1] for _, s in run), run[-1][0].bottom)
        page.tables.append(_PageTable(page=page.number, index=-1, bbox=bbox, rows=rows))
        found = True
    if found:
        page.tables.sort(key=lambda t: (round(t.bbox[1]), t.bbox[0]))
        for i, t in enumerate(page.tables):
            t.index = i


# --- tables ---------------------------------------------------------------------------------

def _tokens(row: list[Cell] | tuple[Cell, ...]) -> set[str]:
    return {w for c in row if c is not None for w in re.findall(r"\w+", str(c).lower())}


def _is_header_repeat(row: list[Cell] | tuple[Cell, ...], header: tuple[str, ...]) -> bool:
    a, b = _tokens(row), _tokens(header)
    if not a or not b:
        return False
    return len(a & b) / max(len(a), len(b)) >= REPEATED_HEADER_OVERLAP


def _continues(prev: _PageTable, prev_page: _PageContent, nxt: _PageTable,
               nxt_page: _PageContent) -> bool:
    """Is `nxt` (first table of its page) the continuation of `prev` (last table of its page)?

    Same column count, nothing but furniture below `prev`, and either `nxt` repeats the header
    or nothing but furniture / a '(continued)' line stands above it.
    """
    if nxt_page.number != prev_page.number + 1 or not prev.rows or not nxt.rows:
        return False
    if len(prev.rows[0]) != len(nxt.rows[0]):
        return False
    if prev is not prev_page.tables[-1] or nxt is not nxt_page.tables[0]:
        return False
    if any(not ln.furniture and not ln.in_table and ln.top >= prev.bbox[3] - 1
           for ln in prev_page.lines):
        return False
    header = tuple(str(c or "") for c in prev.rows[0])
    if _is_header_repeat(nxt.rows[0], header):
        return True
    above = [ln for ln in nxt_page.lines
             if not ln.furniture and not ln.in_table and ln.bottom <= nxt.bbox[1] + 1
             and not _CONTINUED_RE.search(ln.text)]
    return not above


def _build_table(source: str, chain: list[_PageTable]) -> RawTable:
    first = chain[0]
    header_row = first.rows[0]
    width = len(header_row)
    header = [str(c) if c is not None else "" for c in header_row]
    rows: list[list[Cell]] = []
    locs: list[int] = []
    pages: list[int] = []
    notes: list[str] = []
    skipped: list[str] = []
    offset = 0
    for k, part in enumerate(chain):
        start = 1 if k == 0 else 0
        kept = 0
        for r_idx in range(start, len(part.rows)):
            row = part.rows[r_idx]
            if all(c is None for c in row):
                continue
            if _is_header_repeat(row, tuple(header)):
                # a header printed again on the next page (or repeated in a long table); a row
                # that differs from the header may be data that shares its words: say so
                if [str(c or "").strip() for c in row] != [h.strip() for h in header]:
                    skipped.append(f"page {part.page} row {r_idx + 1}")
                continue
            rows.append(list(row) + [None] * (width - len(row)))
            locs.append(r_idx + 1)  # the row as the reader counts it on that page
            pages.append(part.page)
            kept += 1
        if k > 0:
            notes.append(
                f"page {part.page}: rows {offset + 1}-{offset + len(part.rows)} are rows "
                f"1-{len(part.rows)} of the page table"
            )
        offset += len(part.rows)
    # Columns empty in the header and every row carry nothing: drop them but keep positions.
    keep = [j for j in range(width) if header[j] or any(r[j] is not None for r in rows)]
    for j in keep:
        if not header[j]:
            header[j] = f"column_{j + 1}"
    if len(chain) > 1:
        notes.insert(0, f"continued across pages {chain[0].page}-{chain[-1].page}")
    if skipped:
        shown = ", ".join(skipped[:5]) + (", ..." if len(skipped) > 5 else "")
        notes.append(f"{len(skipped)} row(s) share most of their words with the header and "
                     f"were skipped as repeated headers, though they differ from it ({shown})")
    stem = Path(source).stem
    return RawTable(
        source=source,
        name=f"{stem}_p{first.page}_t{first.index + 1}",
        header=tuple(header[j] for j in keep),
        rows=tuple(tuple(r[j] for j in keep) for r in rows),
        row_locs=tuple(locs),
        col_locs=tuple(j + 1 for j in keep),
        page=first.page,
        table_index=first.index,
        title=first.title,
        notes=tuple(notes),
        row_pages=tuple(pages) if len(chain) > 1 else (),
    )


def _with_prose_scale(table: RawTable, passages: list[Passage]) -> RawTable:
    """A table whose title and headers state no scale takes the one its pages' prose implies
    by quoting its cells ("net income of $24.2 million" beside 24,193: thousands;
    `captions.scale_from_prose`), said in the table's notes so the reader sees it was inferred.
    Only the prose of the table's own pages (and the page before, where a table's lead-in
    often sits) votes."""
    from dataclasses import replace

    from ingest.captions import scale_from_prose
    from ingest.numbers import parse_number, scale_hint

    labels = [table.title or "", *table.header, *(str(r[0] or "") for r in table.rows if r)]
    if any(scale_hint(x)[0] and scale_hint(x)[0] != "percent" for x in labels):
        return table
    first = table.page or 0
    last = max([first, *table.row_pages])
    texts = [p.text for p in passages if p.page is not None and first - 1 <= p.page <= last]
    cells = []
    for row in table.rows:
        for c in row[1:]:
            n = parse_number(c) if isinstance(c, str) and "%" not in c else None
            if n is not None and n.value is not None:
                cells.append(n.value)
    scale = scale_from_prose(cells, texts) if texts and cells else None
    if not scale:
        return table
    title = f"{table.title} (in {scale}s)" if table.title else f"(in {scale}s)"
    return replace(table, title=title, notes=(
        *table.notes, f"scale inferred from the prose: it quotes this table's amounts in "
        f"{scale}s"))


def locate_row(table: RawTable, i: int) -> tuple[int | None, int]:
    """(page, row within that page's table) of `table.rows[i]`, also for a table joined
    across pages (whose rows carry their own page in `row_pages`)."""
    page = table.row_pages[i] if table.row_pages else table.page
    return page, table.row_locs[i]


# --- what no table took ---------------------------------------------------------------------

def _figure_line(ln: _Line) -> int:
    """How many figures a line holds when figures are most of it (a row of a table that was not
    read as one: "Construction 485 1,066 12.4"); 0 for prose that quotes a number or two."""
    from ingest.numbers import find_numbers

    n = len(find_numbers(ln.text, include_years=False))
    words = len(ln.text.split())
    return n if n >= 2 and 2 * n >= words else 0


def _unread_figures(page: _PageContent) -> list[str]:
    """Notes for runs of at least UNRULED_MIN_LINES figure lines outside every table: their
    numbers reach the store only as prose, and no claim names their row and column (cells that
    do not line up, or a table finder that kept only part of a table)."""
    notes: list[str] = []
    run: list[tuple[_Line, int]] = []
    lines = [ln for ln in page.lines if not ln.furniture and not ln.in_table and not ln.caption]
    for ln in [*lines, None]:
        n = _figure_line(ln) if ln is not None else 0
        if n:
            run.append((ln, n))
            continue
        if len(run) >= UNRULED_MIN_LINES:
            first = run[0][0].text
            first = first if len(first) <= 60 else first[:57] + "..."
            notes.append(
                f"page {page.number}: {len(run)} lines holding {sum(k for _, k in run)} "
                f"numbers (from {first!r}) were not read as a table; they are kept as prose "
                "text, and no claim names their rows and columns")
        run = []
    return notes


# --- passages -------------------------------------------------------------------------------

_BULLET_START = re.compile(r"^(?:[-*\u2022\u2013]|\(?\d{1,2}[.)]|\(?[a-z][.)])\s")


def _paragraphs(page: _PageContent) -> list[str]:
    body = [ln for ln in page.lines if not ln.furniture and not ln.caption and not ln.in_table]
    paras: list[list[_Line]] = []
    for ln in body:
        if paras:
            prev = paras[-1][-1]
            gap = ln.top - prev.bottom
            size = max(prev.size, ln.size, 1.0)
            same_style = abs(prev.size - ln.size) < 0.6 and prev.bold == ln.bold
            table_between = any(prev.bottom <= t.bbox[1] and t.bbox[3] <= ln.top + 1
                                for t in page.tables)
            if (gap <= 0.7 * size and same_style and not table_between
                    and not _BULLET_START.match(ln.text)):
                paras[-1].append(ln)
                continue
        paras.append([ln])
    out = []
    for group in paras:
        text = group[0].text
        for ln in group[1:]:
            if re.search(r"[a-z]-$", text) and ln.text[:1].islower():
                text = text[:-1] + ln.text  # "employ-" + "ment"
            else:
                text = f"{text} {ln.text}"
        out.append(text)
    return out


# --- entry points ---------------------------------------------------------------------------

@dataclass(frozen=True)
class PdfDocument:
    """A PDF as read: its tables, its prose, and what it holds that neither carries."""

    tables: tuple[RawTable, ...]
    passages: tuple[Passage, ...]
    notes: tuple[str, ...] = ()  # page regions read into no table (see `_unread_figures`)


def read_pdf_document(path: str | Path) -> PdfDocument:
    """Tables, passages and notes of a PDF. A page note goes onto a table of the same page when
    there is one (so `kb_tables.notes` shows it beside the table the reader would look at) and
    is the document's own note otherwise. Raises as `read_pdf`."""
    from dataclasses import replace

    tables, passages, pages = _read(path)
    loose: list[str] = []
    for p in pages:
        found = _unread_figures(p)
        if not found:
            continue
        k = next((i for i, t in enumerate(tables)
                  if t.page == p.number or p.number in t.row_pages), None)
        if k is None:
            loose.extend(found)
        else:
            tables[k] = replace(tables[k], notes=(*tables[k].notes, *found))
    return PdfDocument(tuple(tables), tuple(passages), tuple(loose))


def _read(path: str | Path) -> tuple[list[RawTable], list[Passage], list[_PageContent]]:
    source = str(path)
    pdf = _open(path)
    try:
        pages = []
        for page in pdf.pages:
            try:
                pages.append(_read_page(page))
            except Exception as e:
                raise UnreadableFileError(
                    f"the page cannot be read ({type(e).__name__})", source=source,
                    page=page.page_number,
                ) from e
    finally:
        pdf.close()
    _mark_furniture(pages)
    for p in pages:
        _unruled_tables(p)
        _attach_captions(p)

    # Join continued tables: chains of page tables, each chain one RawTable.
    chains: list[list[_PageTable]] = []
    by_page = {p.number: p for p in pages}
    for p in pages:
        for t in p.tables:
            if chains and t is p.tables[0]:
                last = chains[-1][-1]
                if _continues(last, by_page[last.page], t, p):
                    chains[-1].append(t)
                    continue
            chains.append([t])
    tables = [_build_table(source, c) for c in chains if c[0].rows]

    passages = _passages(source, pages)
    if not tables and not passages and any(ln.text.strip() for p in pages for ln in p.lines):
        # Every line was taken for running furniture (one line at the same place on every
        # page): what repeats is then the document's text itself, not a header around it.
        for p in pages:
            for ln in p.lines:
                ln.furniture = False
        passages = _passages(source, pages)
    tables = [_with_prose_scale(t, passages) for t in tables]

    if not tables and not passages:
        scanned = [p.number for p in pages if p.images]
        if scanned:
            raise EmptyFileError(
                f"the PDF has no extractable text: {len(scanned)} of {len(pages)} page(s) are "
                "images only (a scan?); OCR is not supported - run OCR first and ingest the "
                "result",
                source=source, page=scanned[0],
            )
        raise EmptyFileError(
            "the PDF has no text layer and no tables; a scanned PDF needs OCR, which HyRAG "
            "does not do (OCR is not supported)",
            source=source,
        )
    return tables, passages, pages


def _passages(source: str, pages: list[_PageContent]) -> list[Passage]:
    return [Passage(source=source, text=text, page=p.number, paragraph=i)
            for p in pages for i, text in enumerate(_paragraphs(p))]


def read_pdf(path: str | Path) -> tuple[list[RawTable], list[Passage]]:
    """Tables (ruled and unruled, joined across pages) and prose passages (page, 0-based paragraph) of a PDF.

    Raises UnreadableFileError (not a PDF, corrupt, truncated), EncryptedFileError
    (password-protected) or EmptyFileError (no text and no tables: scanned images), each naming
    the file.
    """
    tables, passages, _ = _read(path)
    return tables, passages


def read_pdf_tables(path: str | Path) -> list[RawTable]:
    """Only the tables of a PDF (an empty list when it holds prose only)."""
    return _read(path)[0]
