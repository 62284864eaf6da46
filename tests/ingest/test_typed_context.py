"""A row's context ("region North, channel Online"), which every cell claim of the row repeats.

`ingest.typed._context` builds it once per distinct combination of the context columns' values
and takes it per row (issue 20: the string operations over 100,000 rows cost ~0.5 s); each row
must read exactly as the row-by-row construction reads it, empty values included.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ingest.typed import _context, _context_strings

COLUMNS = [("region", "Region"), ("channel", "Channel"), ("segment", "Segment")]


def test_each_row_reads_its_own_values_with_empty_parts_left_out() -> None:
    frame = pd.DataFrame({
        "region": pd.Series(["North", "South", np.nan, "North", np.nan], dtype=object),
        "channel": pd.Series(["Online", np.nan, "Retail", "Online", np.nan], dtype=object),
        "segment": pd.Series(["SMB", "SMB", np.nan, "SMB", np.nan], dtype=object),
    })
    got = _context(frame, COLUMNS).tolist()
    assert got == [
        "Region North, Channel Online, Segment SMB",
        "Region South, Segment SMB",
        "Channel Retail",
        "Region North, Channel Online, Segment SMB",
        "",
    ]


def test_the_distinct_combinations_give_what_every_row_gives() -> None:
    rng = np.random.default_rng(20)
    n = 2_000
    values = {
        "region": ["North", "South", "East", None],
        "channel": ["Online", "Retail", None],
        "segment": ["SMB", "Enterprise", "Consumer", "Public", None],
    }
    frame = pd.DataFrame({
        c: pd.Series([values[c][k] for k in rng.integers(0, len(values[c]), n)], dtype=object)
        for c in values
    })
    frame.loc[frame["region"].isna(), "region"] = np.nan  # NaN and None are both empty
    got = _context(frame, COLUMNS)
    assert got.dtype == object and list(got.index) == list(frame.index)
    assert got.tolist() == _context_strings(frame, COLUMNS).tolist()


def test_an_empty_table_has_no_context() -> None:
    frame = pd.DataFrame({c: pd.Series([], dtype=object) for c, _ in COLUMNS})
    assert _context(frame, COLUMNS).tolist() == []
