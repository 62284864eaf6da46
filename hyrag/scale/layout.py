"""The on-disk layout of a distributed ingest, and how a knowledge base opens over it.

    LOCATION/
      hyrag-dataset.json        the manifest: written last, so its presence means complete
      claims.lance/             the claims, a Lance dataset (LanceDB, Ray Data and DuckDB read it)
      engine/<table>.parquet    sources, kb_tables, schemas, items, claim_links, relations, ...
      tables/<name>.parquet     the typed tables the SQL route reads by name
      .hyrag-kb/                not part of the dataset: the local store `hyrag.open` builds

Claims are Lance because they are what the retrieval side scans and what a later distributed
step (embedding, re-linking) reads by fragment; the rest is small or tabular and Parquet is what
every engine reads. Lance is written and read through `lancedb`, a dependency of the default
install, so opening a dataset needs no extra.

`hyrag.open(LOCATION)` loads the snapshot into an ordinary DuckDB store under `.hyrag-kb/`
(once per dataset id; built in a temporary folder and renamed), so the SQL guard and hardening,
governance and audit hold unchanged: the store is the same kind of store an ingest writes.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import shutil
import uuid
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from hyrag.errors import ScaleError
from hyrag.store import (
    CLAIM_STORAGE,
    ENGINE_TABLES,
    SCHEMA_VERSION,
    Store,
    content_id,
    locator_json,
)

if TYPE_CHECKING:
    import duckdb
    import pyarrow as pa

MANIFEST = "hyrag-dataset.json"
FORMAT = "hyrag-dataset"
LAYOUT_VERSION = 1
CLAIMS = "claims"  # the Lance dataset `claims.lance` (a LanceDB table of that name)
ENGINE_DIR = "engine"
TABLES_DIR = "tables"
LOCAL_KB = ".hyrag-kb"
META_DATASET = "dataset_id"  # meta key of the local store: the dataset it was loaded from
LOADED_FROM = "dataset_id"  # the same id in a file beside the local store's database

# The engine tables a dataset carries: everything a file's ingest writes. Not `meta` (the store's
# own), not `audit` (requests against a store; the failed files are in the manifest and become
# audit events of the loaded store), not `schema_evolution` (written by answering, not ingest).
# Claims are stored in CLAIM_STORAGE (the `claims` view reads them): a worker ships those.
DATA_TABLES = (*(t for t in ENGINE_TABLES if t not in ("meta", "audit", "schema_evolution")),
               *CLAIM_STORAGE)
# `claims.lance` holds every claim as the view shows it, so the whole-row table is not also
# written as Parquet; the narrow cells are, and loading keeps the rows they do not generate.
CLAIM_ROWS = "claim_rows"


@dataclass(frozen=True)
class FailedFile:
    file: str
    error: str


@dataclass(frozen=True)
class Manifest:
    """What `hyrag-dataset.json` holds: enough to recognise, check and describe a dataset
    without reading its data."""

    dataset_id: str
    created_at: str
    schema_version: int
    claim_digest: str
    files: int
    sources: int
    claims: int
    links: int
    tables: tuple[str, ...]
    failed: tuple[FailedFile, ...] = ()
    engine: Mapping[str, object] = field(default_factory=dict)
    format: str = FORMAT
    layout_version: int = LAYOUT_VERSION

    def to_json(self) -> str:
        d = asdict(self)
        d["tables"] = list(self.tables)
        d["engine"] = dict(self.engine)
        return json.dumps(d, indent=2, ensure_ascii=False)

    @classmethod
    def read(cls, location: Path) -> Manifest:
        path = location / MANIFEST
        try:
            d = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise ScaleError(f"cannot read the dataset manifest: {e}", source=str(path)) from e
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise ScaleError(f"not a HyRAG dataset manifest (format {d.get('format')!r})"
                             if isinstance(d, dict) else "not a HyRAG dataset manifest",
                             source=str(path))
        if d.get("layout_version") != LAYOUT_VERSION or d.get("schema_version") != SCHEMA_VERSION:
            raise ScaleError(
                f"dataset layout {d.get('layout_version')} / schema {d.get('schema_version')}; "
                f"this HyRAG reads layout {LAYOUT_VERSION} / schema {SCHEMA_VERSION}: ingest "
                "again with this version", source=str(path))
        try:
            return cls(
                **{**d, "tables": tuple(d["tables"]),
                   "failed": tuple(FailedFile(**f) for f in d.get("failed", ()))})
        except (KeyError, TypeError) as e:
            raise ScaleError(f"malformed dataset manifest: {e}", source=str(path)) from e


def is_dataset(location: str | os.PathLike[str]) -> bool:
    """True for a folder holding a complete dataset (its manifest, written last)."""
    return (Path(location) / MANIFEST).is_file()


def _arrow(store: Store, sql: str) -> pa.Table:
    return store.con.cursor().sql(sql).to_arrow_table()


def write_dataset(store: Store, location: str | os.PathLike[str], *, claim_digest: str,
                  files: int, failed: tuple[FailedFile, ...],
                  engine: Mapping[str, object]) -> Manifest:
    """Write the merged store as a dataset at `location`, all or nothing: everything goes to a
    hidden sibling folder, the manifest last, and the folder is renamed into place, so a reader
    sees either no dataset or a complete one (a rename within one file system is atomic)."""
    import lancedb
    import pyarrow.parquet as pq

    dest = Path(location)
    if dest.exists():
        raise ScaleError("the dataset location exists; choose a new one or remove it first",
                         source=str(dest))
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.parent / f".{dest.name}.tmp-{uuid.uuid4().hex[:12]}"
    tmp.mkdir()
    try:
        claims = _arrow(store, "SELECT * FROM claims ORDER BY source_id, claim_id")
        lancedb.connect(str(tmp)).create_table(CLAIMS, claims, mode="create")
        (tmp / ENGINE_DIR).mkdir()
        for name in DATA_TABLES:
            if name != CLAIM_ROWS:
                pq.write_table(_arrow(store, f'SELECT * FROM "{name}"'),
                               tmp / ENGINE_DIR / f"{name}.parquet")
        (tmp / TABLES_DIR).mkdir()
        tables = tuple(store.user_tables())
        for name in tables:
            pq.write_table(_arrow(store, f'SELECT * FROM "{name}"'),
                           tmp / TABLES_DIR / f"{name}.parquet")
        count = store.count
        manifest = Manifest(
            dataset_id=uuid.uuid4().hex,
            created_at=dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat(),
            schema_version=SCHEMA_VERSION, claim_digest=claim_digest, files=files,
            sources=count("SELECT count(*) FROM sources"),
            claims=claims.num_rows, links=count("SELECT count(*) FROM claim_links"),
            tables=tables, failed=failed, engine=engine,
        )
        (tmp / MANIFEST).write_text(manifest.to_json(), encoding="utf-8")
        os.rename(tmp, dest)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return manifest


def local_store(location: str | os.PathLike[str]) -> Path:
    """The knowledge-base folder `hyrag.open(location)` works on: the dataset loaded into an
    ordinary DuckDB store under `location/.hyrag-kb`, built the first time (or when the
    dataset was replaced since) in a temporary folder renamed into place."""
    loc = Path(location)
    manifest = Manifest.read(loc)
    kb = loc / LOCAL_KB
    if _loaded_from(kb) == manifest.dataset_id:
        return kb
    tmp = loc / f"{LOCAL_KB}.tmp-{uuid.uuid4().hex[:12]}"
    try:
        _load(loc, manifest, tmp)
        if kb.exists():  # an older dataset's store (the dataset was written again)
            shutil.rmtree(kb)
        try:
            os.rename(tmp, kb)
        except OSError:
            # another process renamed its copy first; keep theirs if it is this dataset's
            if _loaded_from(kb) != manifest.dataset_id:
                raise
    except OSError as e:
        raise ScaleError(f"cannot build the local store of the dataset: {e}",
                         source=str(loc)) from e
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return kb


def _loaded_from(kb: Path) -> str | None:
    """The dataset id a local store was loaded from (its marker file, written before the store
    was renamed into place); None when there is none. Read from the marker, not the store: the
    store may be open read-write in another process, which locks DuckDB readers out."""
    try:
        return (kb / LOADED_FROM).read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


def _load(loc: Path, manifest: Manifest, folder: Path) -> None:
    """Every table of the dataset into a fresh store at `folder`, in one transaction."""
    import lancedb
    import pyarrow.parquet as pq

    from hyrag.claimsql import ident

    store = Store(folder)
    try:
        con = store.con
        with store.transaction():
            for name in DATA_TABLES:
                if name != CLAIM_ROWS:
                    part = pq.read_table(loc / ENGINE_DIR / f"{name}.parquet")
                    _insert_arrow(con, f"INSERT INTO {ident(name)} BY NAME SELECT * FROM", part)
            # every claim the narrow cells do not generate is stored whole, as it was written
            _insert_arrow(
                con, f"INSERT INTO {CLAIM_ROWS} BY NAME SELECT * FROM",
                lancedb.connect(str(loc)).open_table(CLAIMS).to_arrow(),
                where="WHERE claim_id NOT IN (SELECT claim_id FROM cell_claims)")
            for name in manifest.tables:
                part = pq.read_table(loc / TABLES_DIR / f"{name}.parquet")
                _insert_arrow(con, f"CREATE TABLE {ident(name)} AS SELECT * FROM", part)
            now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
            for f in manifest.failed:  # what an ingest in one store records for a failed file
                con.execute(
                    "INSERT INTO audit VALUES (?, NULL, ?, 'ingest_failed', NULL, ?)",
                    [content_id("ingest_failed", f.file, manifest.dataset_id), now,
                     locator_json({"uri": f.file, "error": f.error})])
            store.set_meta(META_DATASET, manifest.dataset_id)
    finally:
        store.close()
    (folder / LOADED_FROM).write_text(manifest.dataset_id, encoding="utf-8")


def _insert_arrow(con: duckdb.DuckDBPyConnection, statement: str, part: pa.Table, *,
                  where: str = "") -> None:
    """`statement` + an Arrow table, through DuckDB's replacement scan (the store is hardened:
    it reads no file itself)."""
    con.execute("SELECT 1").fetchall()
    con.register("hyrag_load_part", part)
    try:
        con.execute(f"{statement} temp.main.hyrag_load_part {where}")
    finally:
        with contextlib.suppress(Exception):
            con.execute("SELECT 1").fetchall()
        con.unregister("hyrag_load_part")
