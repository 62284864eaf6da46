"""DataFrame reader: header from columns, index kept, values as plain Python."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pytest

from ingest.errors import EmptyFileError
from ingest.readers import read_dataframe


def test_values_become_plain_python():
    df = pd.DataFrame(
        {
            "region": ["North", None],
            "units": np.array([3, 4], dtype="int64"),
            "price": [1.5, np.nan],
            "day": pd.to_datetime(["2024-01-31", None]),
            "ok": [True, False],
        }
    )
    [t] = read_dataframe(df, "My Frame")
    assert t.name == "my_frame"
    assert t.header == ("region", "units", "price", "day", "ok")
    assert t.rows[0] == ("North", 3, 1.5, dt.datetime(2024, 1, 31), True)
    assert t.rows[1] == (None, 4, None, None, False)
    assert type(t.rows[0][1]) is int and type(t.rows[0][4]) is bool
    assert t.row_locs == (1, 2) and t.col_locs == (1, 2, 3, 4, 5)


def test_multiindex_columns_joined_and_named_index_kept():
    cols = pd.MultiIndex.from_tuples([("Revenue", 2023), ("Revenue", 2024)])
    df = pd.DataFrame([[1, 2], [3, 4]], columns=cols, index=pd.Index(["N", "S"], name="region"))
    [t] = read_dataframe(df, "wide")
    assert t.header == ("region", "Revenue 2023", "Revenue 2024")
    assert t.rows[0] == ("N", 1, 2)


def test_range_index_dropped_and_duplicate_columns_made_unique():
    df = pd.DataFrame([[1, 2]], columns=["a", "a"])
    [t] = read_dataframe(df, "d")
    assert t.header == ("a", "a_2")


def test_frame_without_columns_is_empty():
    with pytest.raises(EmptyFileError):
        read_dataframe(pd.DataFrame(), "nothing")
