"""The names a table's cell claims carry, read from the table model (`ingest.tablemodel`).

A claim must stand alone: "Construction, 2006–07: Employment at end of June was 485", not
"2006–07: Employment at end of June was 485" (whose industry?), and "United States, Total in
2020 was 1,380", not "Total in 2020 was 1,380" (total of what?). The typed frame names a row by
its label columns and a column by its header row; the model reads more of the table — the
section headings above a row and every header level above a column — so the claims take their
names from it:

- **attribute**: a column whose path has levels its header does not show (a spanning caption
  "United States" over "Total | 1 unit") is named by its whole path, outermost first ("United
  States, Total"). A header that already shows every level ("North Votes", merged from two
  header rows) is kept as it is.
- **entity**: a row under section headings is named by them and then by its own name
  ("Construction, 2006–07"; nested: "Assets, Current, Cash"); a row that names nothing of its
  own (a period row of a series) is named by its headings alone ("Construction"). A heading
  that is a period ("As at 31 December 2019") says when, not what: it names none of them.
- **time_key**: a claim is dated by its row's period where the model reads the table as a
  series (its label column is its time column: `ingest.typed._period_label_column`) or by the
  table's time column, as before. The model's other periods stay in the model
  (`table_rows.period`) and the locator's section: dating claims by a date heading, by the
  title's year, or by the years of a maturity schedule's lines made the direct lookup route
  answer before the table readers that read those tables (a change of a percentage read as a
  growth rate, a quarter column read as its fiscal year, "2020" beside "Thereafter" read as a
  period); measured on TAT-QA dev, 14 answers went from right to abstained or wrong (1 the
  other way).

The locator keeps the file's header and the section, so claim ids (a hash of the locator) do
not change with the names. A melted table (periods across the top: one row per line item and
period) is left as it is: its claims already name the line item as attribute and the period as
time key, and the answer readers read its lines that way.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ingest.labelperiods import period_key

if TYPE_CHECKING:
    from ingest.tablemodel import TableModel
    from ingest.typed import TypedTable

ENTITY_SEP = ", "  # between the levels of a row's name (headings, then the row's own name)
ATTRIBUTE_SEP = ", "  # between the levels of a column's name


def heading_name(text: str) -> str:
    """A section heading as a level of a name: without the colon that introduces the lines
    under it ("Current:" -> "Current")."""
    return text.strip().rstrip(":").strip()


def own_name(entity: str, section: str) -> str:
    """What a row's entity says of the row itself, its headings aside: "Cash" of "Assets,
    Current, Cash" under the section "Current:" (the locator's, the nearest heading), as
    `_entities` wrote it. An entity that is the headings alone (a period row of a series) and
    one written without them are returned as they are."""
    head = heading_name(section) if section else ""
    if not head or not entity:
        return entity
    mark = head + ENTITY_SEP
    if entity.startswith(mark):
        return entity[len(mark):]
    at = entity.find(ENTITY_SEP + mark)
    return entity[at + len(ENTITY_SEP) + len(mark):] if at >= 0 else entity


def own_column(attribute: str, header: str) -> str:
    """A column's attribute without the captions over it: "Total" of "United States, Total"
    (its header, the locator's "column"), as `column_name` wrote it; any other attribute (a
    melted table's line item) as it is."""
    if header and attribute != header and attribute.endswith(ATTRIBUTE_SEP + header):
        return header
    return attribute


def column_name(header: str, path: tuple[str, ...]) -> str:
    """The attribute of a column: its header, after the levels of its path the header does not
    show, outermost first ("United States" over "Total": "United States, Total"; a header
    glued from its last rows, "Ground Leases", stays whole after the captions it lacks)."""
    shown = header.lower()
    missing = [level for level in path if level.lower() not in shown]
    return ATTRIBUTE_SEP.join([*missing, header]) if missing and len(path) > 1 else header


def name_claims(typed: TypedTable, model: TableModel | None) -> TypedTable:
    """`typed` with its claim columns' attributes and its rows' entities read from `model`
    (rules in the module docstring). Only tables whose frame rows are the model's rows."""
    if model is None or typed.melted or len(model.rows) != len(typed.frame):
        return typed
    position = {c.name: c.position for c in typed.schema.columns}
    columns = []
    for cc in typed.claim_columns:
        pos = position.get(cc.column)
        if cc.attribute is None or cc.header is None or pos is None or \
                pos >= len(model.columns):
            columns.append(cc)
            continue
        columns.append(replace(cc, attribute=column_name(cc.attribute, model.columns[pos].path)))
    typed = replace(typed, claim_columns=tuple(columns))
    if any(r.headings for r in model.rows):
        _entities(typed, model)
    return typed


def _entities(typed: TypedTable, model: TableModel) -> None:
    """`__entity` per row: the headings over the row, then its own name (in place)."""
    old = typed.frame["__entity"].tolist()
    out: list[object] = []
    for r, name in zip(model.rows, old, strict=True):
        if not r.headings or r.kind == "heading":
            out.append(name)
            continue
        # a heading that is a period ("As at 31 December 2019") says when, not what: the row
        # is dated by it (the model's period), not named by it
        heads = [h for h in map(heading_name, r.path[:r.headings]) if h and period_key(h) is None]
        own = len(r.path) > r.headings and name not in (None, "")
        out.append(ENTITY_SEP.join([*heads, str(name)] if own else heads) or name)
    import pandas as pd  # at ingest only: the answer catalog imports this module for names

    typed.frame["__entity"] = pd.Series(out, dtype=object, index=typed.frame.index)
