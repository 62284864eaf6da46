"""Reading a file, frame or text into typed tables and prose: everything before the write.

Parsing is pure Python and may fail on a bad row; it runs before ingestion opens its
transaction, so a failure here never touches the store. Kept apart from `hyrag.ingestion`
because nothing in it needs a store: a file's identity (its content hash) and its parsed form
are decided here, the write into DuckDB there.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path

import pandas as pd

from hyrag.settings import Settings
from ingest import tablemodel
from ingest.errors import EmptyFileError, IngestError, UnsupportedFormatError
from ingest.modelclaims import name_claims
from ingest.schema import SchemaOptions, infer_schema
from ingest.typed import TypedTable, prepare_table
from ingest.types import ClaimRecord, Passage, RawTable, RelationRecord

TABLE_EXTENSIONS = (".csv", ".tsv", ".xlsx", ".xlsm", ".xls", ".ods")
TEXT_EXTENSIONS = (".txt", ".md", ".markdown")
PDF_EXTENSIONS = (".pdf",)
SUPPORTED = TABLE_EXTENSIONS + TEXT_EXTENSIONS + PDF_EXTENSIONS

@dataclass(frozen=True)
class Parsed:
    """What a file holds once read: tables and prose, nothing written yet."""

    tables: tuple[TypedTable, ...]
    passages: tuple[Passage, ...] = ()
    text_claims: tuple[ClaimRecord, ...] = ()
    relations: tuple[RelationRecord, ...] = ()
    # What the file holds that no table carries: a region of a page read neither as a table nor
    # into one, a block without a header. Shown in the IngestReport and `sources.notes`.
    notes: tuple[str, ...] = ()


def file_sha256(path: Path) -> tuple[str, int]:
    h = hashlib.sha256()
    size = 0
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
            size += len(chunk)
    return h.hexdigest(), size


def frame_sha256(df: pd.DataFrame) -> str:
    """A DataFrame's identity: its columns, index and values, not its object id — and the
    caption ingestion reads from `df.attrs` (title / caption), since it gives every amount its
    scale: a frame re-ingested with "(in thousands)" added must become a new version, not be
    reported unchanged. A frame without a caption hashes as it always did, so the ids of frames
    already in a store stay stable."""
    h = hashlib.sha256()
    h.update(repr(list(map(str, df.columns))).encode())
    h.update(pd.util.hash_pandas_object(df, index=True).values.tobytes())
    caption = [str(df.attrs.get(k) or "").strip() for k in ("title", "caption")]
    if any(caption):
        h.update(("\x1ecaption\x1e" + "\x1f".join(caption)).encode("utf-8"))
    return h.hexdigest()


def _schema_options(s: Settings) -> SchemaOptions:
    return SchemaOptions(
        dry_run_rows=s.dry_run_rows,
        numeric_min_parse_rate=s.numeric_min_parse_rate,
        time_min_parse_rate=s.time_min_parse_rate,
        categorical_max_distinct=s.categorical_max_distinct,
        categorical_max_ratio=s.categorical_max_ratio,
        fiscal_year_start_month=s.fiscal_year_start_month,
    )


def parse_file(path: Path, settings: Settings, *, origin: Path | None = None) -> Parsed:
    """Read and type a file; raises IngestError naming the place. `origin`: where the file
    lives when `path` is a copy of it (its companion prose is read beside the original)."""
    ext = path.suffix.lower()
    opts = _schema_options(settings)
    raw: list[RawTable] = []
    passages: list[Passage] = []
    notes: tuple[str, ...] = ()
    if ext in TABLE_EXTENSIONS:
        from ingest.readers import read_path

        raw = list(read_path(path, header_overlap=settings.header_overlap,
                             limits=settings.ingest_limits(), origin=origin))
    elif ext in PDF_EXTENSIONS:
        from ingest.pdf import read_pdf_document

        doc = read_pdf_document(path)
        raw, passages, notes = list(doc.tables), list(doc.passages), doc.notes
    elif ext in TEXT_EXTENSIONS:
        from ingest.text import read_text_file

        passages = list(read_text_file(path))
    else:
        raise UnsupportedFormatError(
            f"no reader for {ext or 'files without an extension'}; supported: "
            + ", ".join(SUPPORTED),
            source=str(path),
        )
    _refuse_empty(raw, passages, str(path))
    parsed = _finish(raw, passages, opts, settings)
    return replace(parsed, notes=(*notes, *parsed.notes))


def _refuse_empty(raw: list[RawTable], passages: list[Passage], source: str) -> None:
    """A file whose tables are headers with nothing under them, and no prose, is an error, not
    an ingested source with 0 claims: the analyst ingests a file for its facts, and a store
    entry with none answers nothing while looking loaded (and `ingest_many` would count it a
    success). Refused, the store is unchanged and the fixed file ingests as new. A file with
    some data keeps its empty tables, each with a note saying so."""
    from ingest.typed import count_figures

    if passages or any(t.rows or count_figures(t.header) for t in raw):
        return  # figures read into a header are noted by the table (`ingest.typed`)
    if not raw:
        raise EmptyFileError("the file holds no table and no text", source=source)
    heads = "; ".join(", ".join(t.header) for t in raw[:3])
    what = "one line" if all(len(t.header) == 1 for t in raw) else "a header"
    raise EmptyFileError(
        f"the file holds {what} ({heads}) and no rows under it: no table and no text to ingest",
        source=source,
    )


def parse_frame(df: pd.DataFrame, name: str, settings: Settings) -> Parsed:
    from ingest.readers.frame import read_dataframe

    raw = list(read_dataframe(df, name))
    return _finish(raw, [], _schema_options(settings), settings)


def parse_texts(texts: list[str], source: str, settings: Settings) -> Parsed:
    from ingest.text import passages_from_strings

    return _finish([], list(passages_from_strings(texts, source)), _schema_options(settings), settings)


def _finish(
    raw: list[RawTable], passages: list[Passage], opts: SchemaOptions, settings: Settings
) -> Parsed:
    from ingest.limits import check_tables

    check_tables(raw, settings.ingest_limits(),
                 fiscal_year_start_month=settings.fiscal_year_start_month)
    typed = []
    for t in raw:
        if not t.header:
            continue  # no columns: its rows are empty tuples, no cell is lost
        try:
            tt = prepare_table(t, opts)
            # the table model reads the table as printed: under the wide table's own schema
            # when it was melted into (item, period) rows
            model = tablemodel.build(t, infer_schema(t, opts) if tt.melted else tt.schema,
                                     None if tt.melted else tt.frame)
            # the claims are named by the model's reading: headings over rows, every header
            # level over columns (`ingest.modelclaims`)
            typed.append(replace(name_claims(tt, model), model=model))
        except IngestError:
            raise
        except (ValueError, TypeError, KeyError) as e:
            raise IngestError(
                f"cannot type table {t.name!r}: {e}", source=t.source, sheet=t.sheet, page=t.page
            ) from e
    claims: list[ClaimRecord] = []
    rels: list[RelationRecord] = []
    if passages:
        from ingest.textclaims import extract_claims

        c, r = extract_claims(
            passages,
            conf_text=settings.conf_text,
            fiscal_year_start_month=settings.fiscal_year_start_month,
        )
        claims, rels = list(c), list(r)
    return Parsed(tuple(typed), tuple(passages), tuple(claims), tuple(rels))
