"""A table's columns as codes into their distinct cells: a reading of a cell (its kind, its
text, whether it is blank) is a function of the cell's type and value, so it is computed once
per distinct cell and spread over the rows by one NumPy take.

Row-by-row loops over a 100,000 x 12 table cost seconds in the readers of `ingest.tablemodel`
and `ingest.sections`; a column of 100,000 cells holds a few thousand distinct ones, or fewer.
Cells are distinct by (type, value), the key the per-row memos used before: `1`, `1.0` and
`True` are equal in Python yet read differently ("1", "1", "TRUE").
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ingest.cells import cell_text, is_empty
from ingest.types import Cell


@dataclass(frozen=True)
class CodedColumn:
    """One column: `codes[i]` indexes the distinct cell of row i in `values`."""

    codes: np.ndarray  # intp, one per row
    values: tuple[Cell, ...]  # distinct cells (by type and value), first occurrence first

    def read(self, f: Callable[[Cell], Any], dtype: Any = object) -> np.ndarray:
        """f of every row's cell, f called once per distinct cell."""
        got = [f(v) for v in self.values]
        per = object_array(got) if dtype is object else np.array(got, dtype=dtype)
        return per[self.codes]

    def any_where(self, f: Callable[[Cell], bool], rows: np.ndarray) -> np.ndarray:
        """f of the cell of each row where `rows` is True (False elsewhere), f called only
        for the distinct cells of those rows: an OR over columns asks each column about the
        rows the columns before it did not settle."""
        need = np.unique(self.codes[rows])
        per = np.zeros(len(self.values), dtype=bool)
        if len(need):
            per[need] = [bool(f(self.values[k])) for k in need.tolist()]
        return per[self.codes] & rows

    @functools.cached_property
    def _distinct_texts(self) -> list[str]:
        return [cell_text(v) for v in self.values]

    @functools.cached_property
    def texts(self) -> np.ndarray:
        """`cells.cell_text` of every row's cell (the row kinds, the period labels and the
        row paths all read a label column's text)."""
        return object_array(self._distinct_texts)[self.codes]

    def read_text(self, f: Callable[[str], Any], dtype: Any = object) -> np.ndarray:
        """f of every row's cell text (`texts`), f called once per distinct cell."""
        got = [f(t) for t in self._distinct_texts]
        per = object_array(got) if dtype is object else np.array(got, dtype=dtype)
        return per[self.codes]

    @functools.cached_property
    def empty(self) -> np.ndarray:
        """`cells.is_empty` of every row's cell."""
        return self.read(is_empty, bool)


def object_array(items: list[Any]) -> np.ndarray:
    """A 1-D object array of `items` even when they are tuples (np.array would nest them)."""
    out = np.empty(len(items), dtype=object)
    if any(x.__class__ is tuple or x.__class__ is list for x in items):
        for k, x in enumerate(items):
            out[k] = x
    else:
        out[:] = items
    return out


def code_column(cells: Sequence[Cell]) -> CodedColumn:
    """The column coded by distinct (type, value). A column of strings and empty cells (every
    CSV column) is coded by pandas' hash table; any other column by a dict keyed by (type,
    value), since pandas would merge `1` with `True` and `None` with NaN."""
    arr = np.empty(len(cells), dtype=object)
    arr[:] = cells  # cells are scalars: no nesting to fear here
    codes, uniques = pd.factorize(arr, use_na_sentinel=True)
    missing = codes < 0
    if all(u.__class__ is str for u in uniques) and all(
            arr[i] is None for i in np.flatnonzero(missing)):
        codes = codes.astype(np.intp, copy=False)
        codes[missing] = len(uniques)
        return CodedColumn(codes, (*uniques.tolist(), None))
    index: dict[tuple[type, object], int] = {}
    values: list[Cell] = []
    out = np.empty(len(arr), dtype=np.intp)
    for i, v in enumerate(cells):
        key = (v.__class__, v)
        k = index.get(key)
        if k is None:
            k = index[key] = len(values)
            values.append(v)
        out[i] = k
    return CodedColumn(out, tuple(values))


def code_columns(rows: Sequence[Sequence[Cell]], width: int) -> tuple[CodedColumn, ...]:
    """Every column of `rows` coded (`code_column`)."""
    cols = list(zip(*rows, strict=True)) if rows else [() for _ in range(width)]
    return tuple(code_column(c) for c in cols)
