"""One cell and one row as the header heuristics see them: kind, text, tokens, names.

Split from `ingest.headers` so the table-finding rules read on their own; every name here is
re-exported by `ingest.headers` for the readers that import it from there.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import unicodedata
from collections.abc import Sequence

from ingest.types import Cell
from ingest.units import NULLS

_NUMBER_RE = re.compile(
    r"""^[(\-+\u2212]?\s*(?:[$\u20ac\u00a3\u00a5]|[A-Za-z]{3}\s)?\s*
        (?:\d[\d,.\s'\u00a0]*|\.\d+)(?:[eE][-+]?\d+)?
        \s*(?:%|[kKmMbB]|bn|mn|mm)?\s*\)?-?$""",
    re.VERBOSE,
)
_YEAR_RE = re.compile(r"^(?:19|20)\d\d$")
_DATE_RE = re.compile(
    r"^(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})(?:[ T]\d{1,2}:\d{2}.*)?$"
)
_NA_TEXT = frozenset({"-", "\u2013", "\u2014", "n/a", "na", "n.a.", "nan", "null", "none", "#n/a"})
TOKEN_RE = re.compile(r"[^\W_]+")
FOOTNOTE_RE = re.compile(
    r"^(?:(?:sources?|notes?|nb|footnotes?)\s*[:.]|[*\u2020\u2021\u00b9\u00b2\u00b3]|\(\d+\)\s|\d\)\s)",
    re.IGNORECASE,
)


# a nil amount drawn with dashes or rules: "—%", "- - %", "__", "$ — —"
_NIL_FIRST = frozenset("$€£¥-_\u2012\u2013\u2014\u2015")  # how a nil mark starts: checked first
_NIL_MARK = re.compile(r"[$€£¥]?[\s\-\u2012-\u2015_]*[\-\u2012-\u2015_][\s\-\u2012-\u2015_]*%?")


# --------------------------------------------------------------------------- cell helpers


def is_blank(v: Cell) -> bool:
    """None and whitespace-only strings: a cell a user sees as blank. A null marker ("n/a",
    "—") is not blank: it is text the layout rules weigh as a cell written (`is_empty`)."""
    return v is None or (isinstance(v, str) and not v.strip())


def is_empty(v: Cell) -> bool:
    """A cell that holds no value: blank, NaN or a null marker ("n/a", "—", `units.NULLS`)."""
    if isinstance(v, float) and math.isnan(v):
        return True
    if not isinstance(v, str):
        return v is None
    t = v.strip()
    # a dash under a currency sign ("$—", "$ -") is a statement's nil amount, as a bare dash is;
    # so are dashes or rules with a percent sign or spaced out ("—%", "- - %", "__")
    return not t or t.lower() in NULLS or (t[0] in "$€£¥" and t[1:].strip() in NULLS) or (
        t[0] in _NIL_FIRST and bool(_NIL_MARK.fullmatch(t)))


def normalize_cell(v: object) -> Cell:
    """Strip strings (blank -> None) and NaN -> None; leave typed values alone."""
    if v is None:
        return None
    if isinstance(v, str):
        s = v.strip()
        return s or None
    if isinstance(v, float) and math.isnan(v):
        return None
    return v  # type: ignore[return-value]


def cell_text(v: Cell) -> str:
    """A cell as header text: 2023.0 -> '2023', a midnight datetime -> '2024-03-31'.

    Header names end up as SQL column names and in claim sentences, so they must read the way
    the user saw them, not as Python reprs.
    """
    if v is None:
        return ""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float):
        if math.isfinite(v) and v.is_integer():
            return str(int(v))
        return repr(v)
    if isinstance(v, dt.datetime):
        if v.time() == dt.time(0, 0):
            return v.date().isoformat()
        return v.isoformat(sep=" ")
    if isinstance(v, dt.date):
        return v.isoformat()
    return " ".join(str(v).split())


def cell_kind(v: Cell) -> str:
    """Coarse kind for header detection only: empty, na, text, number, year or date."""
    if v is None:
        return "empty"
    if isinstance(v, bool):
        return "text"
    if isinstance(v, (dt.date, dt.datetime)):
        return "date"
    if isinstance(v, int):
        return "year" if 1900 <= v <= 2100 else "number"
    if isinstance(v, float):
        return "year" if v.is_integer() and 1900 <= v <= 2100 else "number"
    s = str(v).strip()
    if not s:
        return "empty"
    if s.lower() in _NA_TEXT:
        return "na"
    if _YEAR_RE.match(s):
        return "year"
    if _DATE_RE.match(s):
        return "date"
    if _NUMBER_RE.match(s) and any(ch.isdigit() for ch in s):
        return "number"
    return "text"


def row_tokens(row: Sequence[Cell]) -> frozenset[str]:
    """Lower-case word tokens of a row, the unit of the repeated-header overlap."""
    parts = [v if v.__class__ is str else cell_text(v) for v in row if v is not None]
    return frozenset(TOKEN_RE.findall(" ".join(parts).lower()))


def token_overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Jaccard overlap of two token sets (0 when either is empty).

    Jaccard rather than "share of header tokens found" because a long data row that happens to
    contain every header word ("Revenue cost region note ...") must not count as a header.
    """
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def is_blank_row(row: Sequence[Cell]) -> bool:
    return not any(v is not None and (v.__class__ is not str or v.strip()) for v in row)


# --------------------------------------------------------------------------- names


def make_unique_names(names: Sequence[str]) -> tuple[str, ...]:
    """Non-empty, unique (case-insensitively) column names.

    Blank -> `column_<position>` (1-based), repeats -> `revenue_2`, `revenue_3`: typed tables are
    SQL tables, where two columns cannot share a name and DuckDB compares names without case.
    """
    cleaned = [" ".join(str(n).split()) for n in names]
    taken = {c.lower() for c in cleaned if c}
    out: list[str] = []
    seen: set[str] = set()
    for j, name in enumerate(cleaned):
        if not name:
            name = f"column_{j + 1}"
            k = 2
            while name.lower() in taken or name.lower() in seen:
                name = f"column_{j + 1}_{k}"
                k += 1
        elif name.lower() in seen:
            k = 2
            while f"{name}_{k}".lower() in taken or f"{name}_{k}".lower() in seen:
                k += 1
            name = f"{name}_{k}"
        seen.add(name.lower())
        out.append(name)
    return tuple(out)


def safe_identifier(text: str) -> str:
    """A SQL identifier users can type unquoted: 'Q1 Sales (EU)' -> 'q1_sales_eu'.

    Accents are folded ('Bodø' -> 'bodo') rather than dropped so names stay recognisable; a
    leading digit gets `t_` because `2024_sales` is not a valid bare identifier.
    """
    folded = unicodedata.normalize("NFKD", text.replace("ø", "o").replace("Ø", "O"))
    ascii_text = folded.encode("ascii", "ignore").decode("ascii").lower()
    ident = re.sub(r"[^a-z0-9]+", "_", ascii_text).strip("_")
    if not ident:
        return "t"
    if ident[0].isdigit():
        ident = f"t_{ident}"
    return ident
