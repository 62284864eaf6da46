"""pandas DataFrame -> `RawTable`: the DataFrame's own columns are the header, typed values kept.

A DataFrame already has column names and dtypes, so no header detection runs: guessing would only
lose information the caller gave. Values become plain Python (numpy scalars -> int/float/bool,
Timestamps -> datetime, NaN/NaT/NA -> None) so every later stage sees the same `Cell` types as
from a file.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

from ingest.errors import EmptyFileError
from ingest.headers import cell_text, make_unique_names, safe_identifier
from ingest.types import Cell, RawTable


def _label(key: Any) -> str:
    """A column key as a name; MultiIndex tuples joined with spaces, 'Unnamed: 3_level_1' and
    empty levels dropped (pandas invents those for blank header cells)."""
    parts = key if isinstance(key, tuple) else (key,)
    texts = []
    for p in parts:
        if p is None or (isinstance(p, float) and math.isnan(p)):
            continue
        t = cell_text(to_cell(p)) if not isinstance(p, str) else " ".join(p.split())
        if t and not t.startswith("Unnamed:") and (not texts or texts[-1] != t):
            texts.append(t)
    return " ".join(texts)


def to_cell(v: Any) -> Cell:
    """One DataFrame value as a plain Python `Cell`."""
    if v is None:
        return None
    try:
        import pandas as pd

        if v is pd.NaT or v is pd.NA:
            return None
        if isinstance(v, pd.Timestamp):
            return v.to_pydatetime()
        if isinstance(v, pd.Timedelta):
            return str(v)
        if isinstance(v, pd.Period):
            return str(v)
    except ImportError:  # pragma: no cover - a DataFrame implies pandas
        pass
    if hasattr(v, "item") and not isinstance(v, (str, bytes)):
        try:
            v = v.item()  # numpy scalar -> Python scalar
        except (ValueError, TypeError):
            return str(v)
    if isinstance(v, float):
        return None if math.isnan(v) else v
    if isinstance(v, (str, bool, int, dt.datetime, dt.date)):
        if isinstance(v, str):
            return v.strip() or None
        return v
    if isinstance(v, dt.timedelta | dt.time):
        return str(v)
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    return str(v)


def read_dataframe(df: Any, name: str) -> list[RawTable]:
    """One table from `df`, named by `safe_identifier(name)`; a non-RangeIndex is kept as
    leading column(s) because it usually carries the entity (a ticker, a date). A caption in
    `df.attrs["title"]` (or `"caption"`) becomes the table's title, as a title line above a
    sheet's table does: "Other assets (in thousands)" gives every amount its scale."""
    import pandas as pd

    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"expected a pandas DataFrame, got {type(df).__name__}")
    source = name
    frame = df
    notes: list[str] = []
    if not isinstance(df.index, pd.RangeIndex):
        index_names = [
            n if n is not None else ("index" if df.index.nlevels == 1 else f"index_{i}")
            for i, n in enumerate(df.index.names)
        ]
        frame = df.reset_index(names=index_names) if df.index.nlevels > 1 else df.reset_index(
            names=index_names[0]
        )
        notes.append("index kept as column(s): " + ", ".join(map(str, index_names)))
    if frame.shape[1] == 0:
        raise EmptyFileError("the DataFrame has no columns", source=source)
    header = make_unique_names([_label(c) for c in frame.columns])
    rows = tuple(
        tuple(to_cell(v) for v in rec)
        for rec in frame.itertuples(index=False, name=None)
    )
    return [
        RawTable(
            source=source,
            name=safe_identifier(name),
            header=header,
            rows=rows,
            row_locs=tuple(range(1, len(rows) + 1)),
            col_locs=tuple(range(1, len(header) + 1)),
            title=str(df.attrs.get("title") or df.attrs.get("caption") or "").strip() or None,
            notes=tuple(notes),
        )
    ]
