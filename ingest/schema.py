"""AutoAdaptAgent and SchemaFeedbackLoop (seed 003, section 4.1).

The agent proposes a role for every column from its header and a small sample; the feedback loop
then dry-runs the real parsers over the first N rows and reclassifies the columns whose values do
not fit the proposed role. Both steps are recorded, because an analyst who disagrees with a
column's role needs to see why it was chosen and what changed it.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from enum import StrEnum

from ingest.captions import caption_scale
from ingest.numbers import parse_number, scale_hint
from ingest.timekeys import parse_time_key
from ingest.types import Cell, RawTable
from ingest.units import CURRENCY_CODES, NULLS


class Role(StrEnum):
    ID = "id"
    CATEGORICAL = "categorical"
    NUMERIC = "numeric"
    TIME = "time"
    TEXT = "text"


@dataclass(frozen=True)
class SchemaOptions:
    """Thresholds of inference; the engine fills them from `hyrag.settings.Settings`."""

    infer_rows: int = 50  # AutoAdaptAgent looks at this many rows (header cues do the rest)
    dry_run_rows: int = 200  # SchemaFeedbackLoop: seed 003 4.1 "first N rows (configurable)"
    numeric_min_parse_rate: float = 0.80
    time_min_parse_rate: float = 0.80
    categorical_max_distinct: int = 50
    categorical_max_ratio: float = 0.5
    fiscal_year_start_month: int = 1

    def __post_init__(self) -> None:
        if self.infer_rows < 1 or self.dry_run_rows < 1:
            raise ValueError("infer_rows and dry_run_rows must be >= 1")
        for name in ("numeric_min_parse_rate", "time_min_parse_rate", "categorical_max_ratio"):
            v = getattr(self, name)
            if not 0.0 <= v <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {v!r}")


@dataclass(frozen=True)
class Adjustment:
    """One change the feedback loop made, kept in the `schemas` table."""

    column: str
    from_role: Role
    to_role: Role
    reason: str


@dataclass(frozen=True)
class ColumnSchema:
    name: str  # safe SQL identifier in the typed table
    header: str  # as in the file
    position: int  # 0-based position in the raw table
    role: Role
    dtype: str  # DuckDB type of the typed column
    unit: str = ""
    scale: str = ""
    null_rate: float = 0.0
    parse_rate: float = 1.0  # share of non-empty values the role's parser accepted
    distinct: int = 0


@dataclass(frozen=True)
class TableSchema:
    table: str
    columns: tuple[ColumnSchema, ...]
    id_column: str | None = None
    time_column: str | None = None
    entity_columns: tuple[str, ...] = ()  # columns whose values name the row's entity
    adjustments: tuple[Adjustment, ...] = field(default=())

    def column(self, name: str) -> ColumnSchema:
        for c in self.columns:
            if c.name == name:
                return c
        raise KeyError(name)

    def by_role(self, role: Role) -> list[ColumnSchema]:
        return [c for c in self.columns if c.role is role]


_ID_CUE = re.compile(r"(^|[_\s])(id|code|sku|key|no|nr|number|uuid|ref)$|^(id|sku|code)([_\s]|$)", re.I)
_TIME_CUE = re.compile(
    r"(^|[_\s])(date|time|period|month|quarter|year|fy|week|day|as_of|asof|timestamp)([_\s]|s?$)",
    re.I,
)
_TEXT_CUE = re.compile(
    r"(^|[_\s])(name|description|desc|notes?|comments?|remarks?|address|e-?mail|summary)$",
    re.I,
)
_SAFE = re.compile(r"[^0-9a-zA-Z_]+")


def safe_identifier(text: str, *, fallback: str = "column") -> str:
    """A lowercase SQL identifier an analyst can type without quotes."""
    s = _SAFE.sub("_", str(text).strip().lower()).strip("_")
    s = re.sub(r"_+", "_", s)
    if not s:
        s = fallback
    if s[0].isdigit():
        s = f"c_{s}"
    return s


def unique_identifiers(headers: list[str]) -> list[str]:
    out: list[str] = []
    seen: Counter[str] = Counter()
    for i, h in enumerate(headers):
        base = safe_identifier(h, fallback=f"column_{i + 1}")
        seen[base] += 1
        name = base if seen[base] == 1 else f"{base}_{seen[base]}"
        while name in out:
            seen[base] += 1
            name = f"{base}_{seen[base]}"
        out.append(name)
    return out


def is_empty(v: Cell) -> bool:
    if v is None:
        return True
    if isinstance(v, float) and math.isnan(v):
        return True
    if not isinstance(v, str):
        return False
    t = v.strip()
    # a dash under a currency sign ("$—", "$ -") is a statement's nil amount, as a bare dash is
    return not t or t.lower() in NULLS or (t[:1] in "$€£¥" and t[1:].strip() in NULLS)


def _unique_keys(table: RawTable, j: int) -> bool:
    """Does column j hold a value in every row, no two alike once stripped? Read over its
    distinct cells (`RawTable.coded`): a repeated cell repeats its key."""
    import numpy as np  # at ingest only: reading a stored model imports no NumPy
    if not table.rows:
        return True
    coded = table.coded[j]
    if coded.read(is_empty, bool).any():
        return False
    used = np.unique(coded.codes)
    if len(used) != len(table.rows):
        return False
    keys = {str(coded.values[k]).strip() for k in used.tolist()}
    return len(keys) == len(used)


def _is_number(v: Cell, cache: dict) -> bool:
    if isinstance(v, bool):
        return False
    if isinstance(v, int | float):
        return True
    if isinstance(v, dt.date):
        return False
    key = ("n", v)
    if key not in cache:
        cache[key] = parse_number(v) is not None
    return cache[key]


def _is_time(v: Cell, cache: dict, fy: int) -> bool:
    if isinstance(v, dt.date):
        return True
    if isinstance(v, bool | float):
        return False
    key = ("t", v)
    if key not in cache:
        cache[key] = parse_time_key(v, fiscal_year_start_month=fy) is not None
    return cache[key]


@dataclass(frozen=True)
class _Profile:
    nonnull: int
    total: int
    number_rate: float
    time_rate: float
    distinct: int
    unique: bool
    all_years: bool
    mean_len: float


def _profile(values: list[Cell], cache: dict, fy: int) -> _Profile:
    present = [v for v in values if not is_empty(v)]
    n = len(present)
    if n == 0:
        return _Profile(0, len(values), 0.0, 0.0, 0, False, False, 0.0)
    nums = sum(_is_number(v, cache) for v in present)
    times = sum(_is_time(v, cache, fy) for v in present)
    keys = [str(v).strip() for v in present]
    distinct = len(set(keys))
    years = all(re.fullmatch(r"(19|20)\d\d(\.0)?", k) for k in keys)
    return _Profile(
        nonnull=n,
        total=len(values),
        number_rate=nums / n,
        time_rate=times / n,
        distinct=distinct,
        unique=distinct == n,
        all_years=years,
        mean_len=sum(len(k) for k in keys) / n,
    )


def _propose(header: str, p: _Profile, opts: SchemaOptions, id_taken: bool) -> Role:
    """AutoAdaptAgent's rule, most specific cue first."""
    if p.nonnull == 0:
        return Role.TEXT
    id_cue = bool(_ID_CUE.search(header.strip()))
    time_cue = bool(_TIME_CUE.search(header.strip()))
    if time_cue and p.time_rate >= opts.time_min_parse_rate:
        return Role.TIME
    if id_cue and p.unique and not id_taken:
        return Role.ID
    if id_cue:
        return Role.CATEGORICAL  # a reference to another table's id: groupable, not a measure
    if p.number_rate >= opts.numeric_min_parse_rate:
        if p.all_years and p.time_rate >= opts.time_min_parse_rate and time_cue:
            return Role.TIME
        return Role.NUMERIC
    if p.time_rate >= opts.time_min_parse_rate:
        return Role.TIME
    if _TEXT_CUE.search(header.strip()):
        return Role.TEXT  # names and notes describe a row; grouping by them is not the intent
    if (
        p.unique
        and not id_taken
        and p.nonnull == p.total
        and p.mean_len <= 40
        and p.nonnull >= 5
        and p.distinct > opts.categorical_max_distinct
    ):
        return Role.ID
    if p.distinct <= opts.categorical_max_distinct and (
        p.distinct / p.nonnull <= opts.categorical_max_ratio or p.nonnull < 10
    ):
        return Role.CATEGORICAL
    if p.mean_len <= 40 and p.distinct / p.nonnull <= opts.categorical_max_ratio:
        return Role.CATEGORICAL
    if p.distinct <= opts.categorical_max_distinct and p.mean_len <= 25:
        return Role.CATEGORICAL  # a small table: short labels that simply do not repeat yet
    return Role.TEXT


def _fits(role: Role, p: _Profile, opts: SchemaOptions) -> tuple[Role, str] | None:
    """SchemaFeedbackLoop's reclassification of a misfit; None when the role holds."""
    if p.nonnull == 0:
        return None
    if role is Role.NUMERIC and p.number_rate < opts.numeric_min_parse_rate:
        to = Role.TIME if p.time_rate >= opts.time_min_parse_rate else Role.CATEGORICAL
        if to is Role.CATEGORICAL and p.distinct > opts.categorical_max_distinct:
            to = Role.TEXT
        return to, (
            f"only {p.number_rate:.0%} of the first {p.total} values parse as numbers "
            f"(needs {opts.numeric_min_parse_rate:.0%})"
        )
    if role is Role.TIME and p.time_rate < opts.time_min_parse_rate:
        to = Role.NUMERIC if p.number_rate >= opts.numeric_min_parse_rate else Role.CATEGORICAL
        return to, (
            f"only {p.time_rate:.0%} of the first {p.total} values parse as periods "
            f"(needs {opts.time_min_parse_rate:.0%})"
        )
    if role is Role.ID and not p.unique:
        return Role.CATEGORICAL, f"values repeat within the first {p.total} rows"
    if role is Role.CATEGORICAL and p.distinct > opts.categorical_max_distinct and p.mean_len > 40:
        return Role.TEXT, f"{p.distinct} distinct long values in the first {p.total} rows"
    if role in (Role.CATEGORICAL, Role.TEXT) and p.number_rate >= opts.numeric_min_parse_rate:
        return Role.NUMERIC, (
            f"{p.number_rate:.0%} of the first {p.total} values parse as numbers"
        )
    return None


_DTYPE = {
    Role.ID: "VARCHAR",
    Role.CATEGORICAL: "VARCHAR",
    Role.TEXT: "VARCHAR",
    Role.NUMERIC: "DOUBLE",
    Role.TIME: "VARCHAR",
}


def takes_title_scale(unit: str) -> bool:
    """Whether a column whose header declares `unit` (and no scale) takes the title's scale.
    A title's "(in millions)" scales a statement's amounts; a column that names a unit of its
    own other than money — "Useful lives (in years)", "Lead time (days)", "Weight (kg)" —
    holds measures no magnitude of the title applies to (4.2 years, not 4.2 million)."""
    return not unit or unit in CURRENCY_CODES


def scale_of_title(title: str | None) -> tuple[str, str]:
    """(scale, unit) a table's title gives its amounts; a declared "(in thousands)" beats an
    amount or a percentage the caption's prose quotes."""
    scale, unit = scale_hint(title) if title else ("", "")
    if caption_scale(title):
        scale, unit = caption_scale(title), unit.replace("%", "")
    return scale, unit


def infer_schema(table: RawTable, opts: SchemaOptions | None = None) -> TableSchema:
    """AutoAdaptAgent followed by the SchemaFeedbackLoop dry run."""
    opts = opts or SchemaOptions()
    fy = opts.fiscal_year_start_month
    names = unique_identifiers(list(table.header))
    cache: dict = {}
    title_scale, title_unit = scale_of_title(table.title)

    columns: list[ColumnSchema] = []
    id_taken = False
    sample = table.rows[: opts.infer_rows]
    for j, header in enumerate(table.header):
        prof = _profile([r[j] for r in sample], cache, fy)
        role = _propose(header, prof, opts, id_taken)
        id_taken = id_taken or role is Role.ID
        columns.append(
            ColumnSchema(name=names[j], header=header, position=j, role=role, dtype=_DTYPE[role])
        )

    # SchemaFeedbackLoop: dry run of the first N rows with the real parsers.
    adjustments: list[Adjustment] = []
    dry = table.rows[: opts.dry_run_rows]
    full_id_ok = True
    final: list[ColumnSchema] = []
    for col in columns:
        j = col.position
        prof = _profile([r[j] for r in dry], cache, fy)
        role = col.role
        change = _fits(role, prof, opts)
        if change is not None:
            to, reason = change
            adjustments.append(Adjustment(col.name, role, to, reason))
            role = to
        # Uniqueness must hold over the whole table, not just the dry run.
        if role is Role.ID and not _unique_keys(table, j):
            adjustments.append(
                Adjustment(col.name, Role.ID, Role.CATEGORICAL, "values repeat in the table")
            )
            role = Role.CATEGORICAL
            full_id_ok = False
        scale, unit = scale_hint(col.header)
        if role is Role.NUMERIC:
            if not scale and takes_title_scale(unit):
                scale = title_scale
            if not unit:
                unit = title_unit
        rate = {
            Role.NUMERIC: prof.number_rate,
            Role.TIME: prof.time_rate,
        }.get(role, 1.0)
        final.append(
            replace(
                col,
                role=role,
                dtype=_DTYPE[role],
                unit=unit if role is Role.NUMERIC else "",
                scale=scale if role is Role.NUMERIC else "",
                null_rate=(1 - prof.nonnull / prof.total) if prof.total else 0.0,
                parse_rate=rate if prof.nonnull else 0.0,
                distinct=prof.distinct,
            )
        )
    del full_id_ok

    id_col = next((c.name for c in final if c.role is Role.ID), None)
    time_col = next((c.name for c in final if c.role is Role.TIME), None)
    entity_cols = (id_col,) if id_col else _entity_key(table, final, time_col)
    return TableSchema(
        table=table.name,
        columns=tuple(final),
        id_column=id_col,
        time_column=time_col,
        entity_columns=entity_cols,
        adjustments=tuple(adjustments),
    )


def _entity_key(
    table: RawTable, cols: list[ColumnSchema], time_col: str | None
) -> tuple[str, ...]:
    """Without an ID column, the entity is the smallest run of categorical columns that (with
    the period) tells rows apart: "North" in a region x quarter table, "North / Widget" when
    rows are region x product x quarter."""
    cats = [c for c in cols if c.role is Role.CATEGORICAL]
    if not cats:
        texts = [c for c in cols if c.role is Role.TEXT]
        return (texts[0].name,) if texts else ()
    tpos = next((c.position for c in cols if c.name == time_col), None)
    chosen: list[ColumnSchema] = []
    for c in cats:
        chosen.append(c)
        keys = [
            tuple(str(r[x.position]) for x in chosen) + ((str(r[tpos]),) if tpos is not None else ())
            for r in table.rows
        ]
        if len(set(keys)) == len(keys):
            break
    return tuple(c.name for c in chosen)
