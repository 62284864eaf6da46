"""Delimited text (CSV, TSV, delimited .txt) -> `RawTable`s.

Cells stay strings (blank -> None): a CSV carries no types, and guessing them here would
duplicate schema inference. What this reader does decide is everything about the bytes:

- Encoding: a BOM wins (UTF-8-sig, UTF-16, UTF-32); otherwise strict UTF-8, otherwise
  charset-normalizer over the whole byte range (Big5, GBK, Shift-JIS, cp1252, UTF-16 without a
  BOM, ...), ties between Western code pages going to cp1252 (what Excel on Windows writes).
  The choice and the detector's confidence are in `notes`, because a mis-decoded "Malmö" or
  "台積電" is a silent wrong answer later.
- Delimiter: `,` `;` tab `|`, scored by how consistently each splits the first lines into the
  same number of fields (csv.Sniffer's pick only breaks ties: it is easily fooled by decimal
  commas in `;` files).
- Line numbers: `row_locs` are physical 1-based lines, so "line 17" is what a text editor shows,
  also after a quoted field with embedded newlines.
- Ragged rows: more fields than the header (with data in the extra ones) is an error naming the
  line and both counts, because no column assignment is right; fewer fields are padded with None
  and noted, because a truncated trailing field loses nothing but that field.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from pathlib import Path

from ingest.encodings import detect_encoding
from ingest.errors import EmptyFileError, RaggedRowError, UnreadableFileError
from ingest.headers import HEADER_OVERLAP, MAX_NOTES_PER_KIND, find_tables, safe_identifier
from ingest.types import Cell, RawTable

DELIMITERS = (",", ";", "\t", "|")
_DELIM_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}
SNIFF_CHARS = 64 * 1024
SNIFF_ROWS = 50
MAX_FIELD_LINES = 100  # a quoted field spanning more lines than this is an unbalanced quote


def decode_bytes(data: bytes, source: str) -> tuple[str, str]:
    """(text, encoding name) of `detect_encoding`. Raises UnreadableFileError for binary."""
    d = detect_encoding(data, source)
    return d.text, d.encoding


def sniff_delimiter(text: str, prefer: str | None = None) -> tuple[str | None, float]:
    """(delimiter, consistency) for the first lines of `text`; (None, 0.0) if none splits them.

    Consistency is the share of non-blank records that have the most common field count; a
    delimiter only qualifies if that count is at least 2.
    """
    sample = text[:SNIFF_CHARS]
    if len(text) > SNIFF_CHARS and "\n" in sample:
        sample = sample[: sample.rindex("\n") + 1]
    try:
        sniffed = csv.Sniffer().sniff(sample, delimiters="".join(DELIMITERS)).delimiter
    except csv.Error:
        sniffed = None
    best: tuple[tuple[float, bool, int, bool], str] | None = None
    best_cons = 0.0
    for d in DELIMITERS:
        counts: list[int] = []
        try:
            for rec in csv.reader(io.StringIO(sample, newline=""), delimiter=d):
                if rec and any(f.strip() for f in rec):
                    counts.append(len(rec))
                    if len(counts) >= SNIFF_ROWS:
                        break
        except csv.Error:
            continue
        if not counts:
            continue
        by_count = Counter(counts)
        mode = max(by_count, key=lambda c: (by_count[c], c))
        if mode < 2:
            continue
        cons = by_count[mode] / len(counts)
        key = (round(cons, 1), d == prefer, mode, d == sniffed)
        if best is None or key > best[0]:
            best, best_cons = (key, d), cons
    return (best[1], best_cons) if best else (None, 0.0)


def _records(
    text: str, delimiter: str, source: str, escapechar: str | None = None
) -> list[tuple[int, list[str]]]:
    """(first physical line, fields) per record; blank lines give an empty field list."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, escapechar=escapechar)
    if escapechar is None and '"' not in text:
        # nothing can carry a record over a line end (a quoted field, an escaped newline):
        # record k is line k, numbered without a Python step per line (~0.1 s a 100,000-line
        # file). A csv.Error (a field over the size limit) names its line as below.
        try:
            return list(enumerate(reader, 1))
        except csv.Error as e:
            raise UnreadableFileError(f"malformed CSV: {e}", source=source,
                                      row=reader.line_num) from e
    out: list[tuple[int, list[str]]] = []
    prev = 0
    try:
        for rec in reader:
            line = prev + 1
            if reader.line_num - prev > MAX_FIELD_LINES:
                raise UnreadableFileError(
                    f"a quoted field starting at line {line} runs over {reader.line_num - prev} "
                    "lines; probably an unbalanced quote",
                    source=source,
                    row=line,
                )
            prev = reader.line_num
            out.append((line, rec))
    except csv.Error as e:
        raise UnreadableFileError(f"malformed CSV: {e}", source=source, row=prev + 1) from e
    return out


def _n_eff(fields: list[str]) -> int:
    """Field count ignoring trailing empty fields ('a,b,,' has 2)."""
    n = len(fields)
    while n and not fields[n - 1].strip():
        n -= 1
    return n


def _blocks(recs: list[tuple[int, list[str]]]) -> list[list[tuple[int, list[str]]]]:
    blocks: list[list[tuple[int, list[str]]]] = []
    cur: list[tuple[int, list[str]]] = []
    for line, fields in recs:
        # a first field with text settles it (most lines) without joining the line
        if not (fields and fields[0].strip()) and (
                not any(fields) or not "".join(fields).strip()):
            if cur:
                blocks.append(cur)
                cur = []
        else:
            cur.append((line, fields))
    if cur:
        blocks.append(cur)
    return blocks


def _shape_block(
    block: list[tuple[int, list[str]]], source: str, delimiter: str, notes: list[str]
) -> tuple[list[list[Cell]], list[int]]:
    """Preamble lines -> one-cell title rows; check every other line against the header's width.

    The header line is the first line that is not preamble: a preamble line has fewer fields
    than the block's usual count and at most two non-empty ones, starting in the first field
    ("Regional report, USD thousands" written without quotes).
    """
    counts = Counter(len(f) for _, f in block)
    mode = max(counts, key=lambda c: (counts[c], c))
    pre = 0
    limit = 2 if mode >= 3 else 1
    while (
        mode >= 2
        and pre < len(block) - 1
        and len(block[pre][1]) < mode
        and _n_eff(block[pre][1]) <= limit
        and block[pre][1][0].strip()
    ):
        pre += 1
    rows: list[list[Cell]] = []
    locs: list[int] = []
    sep = ", " if delimiter in ",;" else " "
    for line, fields in block[:pre]:
        rows.append([sep.join(f.strip() for f in fields if f.strip())])
        locs.append(line)
    header_line, header = block[pre]
    width = len(header)
    header_eff = _n_eff(header)
    padded = 0
    for line, fields in block[pre:]:
        n = len(fields)
        if n > width:
            if _n_eff(fields) > width:
                raise RaggedRowError(
                    f"line {line} has {_n_eff(fields)} fields, expected {width} (the header at "
                    f"line {header_line} has {width})",
                    source=source,
                    row=line,
                    found=_n_eff(fields),
                    expected=width,
                )
            fields = fields[:width]
        cells: list[Cell] = [f.strip() or None for f in fields]
        if n < width:
            if n < header_eff:
                padded += 1
                if padded <= MAX_NOTES_PER_KIND:
                    notes.append(f"line {line}: {n} fields, expected {width}; padded")
            cells.extend([None] * (width - n))
        rows.append(cells)
        locs.append(line)
    if padded > MAX_NOTES_PER_KIND:
        notes.append(f"... and {padded - MAX_NOTES_PER_KIND} more short lines padded")
    return rows, locs


def _shape(
    recs: list[tuple[int, list[str]]], source: str, delimiter: str
) -> tuple[list[list[Cell]], list[int], list[str]]:
    """The file's blocks shaped into one grid (a blank row between blocks), with the line of
    each row and the notes shaping wrote."""
    blocks = _blocks(recs)
    if not blocks:
        raise EmptyFileError("the file holds only blank lines", source=source)
    shape_notes: list[str] = []
    grid: list[list[Cell]] = []
    locs: list[int] = []
    for b in blocks:
        rows, rlocs = _shape_block(b, source, delimiter, shape_notes)
        if grid:
            grid.append([])  # keep the blank line between blocks for find_tables
            locs.append(rlocs[0] - 1)
        grid.extend(rows)
        locs.extend(rlocs)
    return grid, locs, shape_notes


def read_csv(
    path: str | Path,
    *,
    header_overlap: float = HEADER_OVERLAP,
    delimiter: str | None = None,
    require_delimiter: bool = False,
) -> list[RawTable]:
    """Every table in a delimited text file (usually one; blank lines can separate several).

    `require_delimiter` is for .txt files: text that no delimiter splits is prose, not a table,
    and must not become a one-column table silently.
    """
    p = Path(path)
    source = str(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise UnreadableFileError(f"cannot read file: {e.strerror or e}", source=source) from e
    decoded = detect_encoding(data, source)
    text = decoded.text
    if not text.strip():
        raise EmptyFileError("the file is empty", source=source)
    prefer = "\t" if p.suffix.lower() == ".tsv" else None
    if delimiter is None:
        delimiter, _ = sniff_delimiter(text, prefer)
        if delimiter is None:
            if require_delimiter:
                from ingest.errors import UnsupportedFormatError

                raise UnsupportedFormatError(
                    "no delimiter (, ; tab |) splits the lines consistently; not a table",
                    source=source,
                )
            delimiter = prefer or ","
    file_notes = [f"encoding {decoded.encoding}", f"delimiter {_DELIM_NAMES[delimiter]}"]
    if decoded.note != file_notes[0]:
        file_notes.append(decoded.note)
    try:
        grid, locs, shape_notes = _shape(_records(text, delimiter, source), source, delimiter)
    except RaggedRowError:
        # Some writers escape quotes with a backslash (\") instead of doubling them (RFC 4180);
        # read that way, a quoted field holding one splits and the row comes out ragged. Retry
        # with the backslash as escape character; if the rows are still ragged, the first
        # error stands.
        if '\\"' not in text:
            raise
        try:
            got = _shape(_records(text, delimiter, source, "\\"), source, delimiter)
        except (RaggedRowError, UnreadableFileError):
            got = None
        if got is None:
            raise
        grid, locs, shape_notes = got
        file_notes.append('quotes escaped with a backslash (\\")')
    parts = find_tables(
        grid, locs, header_overlap=header_overlap, row_word="line", normalized=True
    )
    if not parts:
        raise EmptyFileError("no table found", source=source)
    stem = safe_identifier(p.stem)
    tables = []
    for i, t in enumerate(parts):
        lo, hi = (t.row_locs[0], t.row_locs[-1]) if t.row_locs else (0, 0)
        mine = [n for n in shape_notes if _note_line(n) is None or lo <= _note_line(n) <= hi]
        tables.append(
            RawTable(
                source=source,
                name=stem if i == 0 else f"{stem}_{i + 1}",
                header=t.header,
                rows=t.rows,
                row_locs=t.row_locs,
                col_locs=t.col_locs,
                table_index=i,
                title=t.title,
                notes=(*file_notes, *mine, *t.notes),
                column_paths=t.column_paths,
                decimal_mark="," if delimiter == ";" else "",
            )
        )
    return tables


def _note_line(note: str) -> int | None:
    if note.startswith("line "):
        head = note[5:].split(":", 1)[0]
        if head.isdigit():
            return int(head)
    return None
