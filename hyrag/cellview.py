"""The sentence of a cell claim as SQL, and the `claims` view that generates it on read.

One template for both ways a cell claim is stored: `hyrag.claimsql` writes whole rows into
`claim_rows` for the tables it cannot store narrow (melted, sectioned, PDF tables across pages,
very wide), and the `claims` view builds the same sentence, locator and cell address from a
narrow stored cell (`cell_claims`), its column's constants (`cell_columns`) and its row's
(`cell_rows`) for every other table. Storing 1.1 million sentences, locators and addresses was
most of a 100,000 x 12 table's ingest; writing them on read costs only what a query reads.

This module imports nothing heavy: `hyrag.store` builds the view from it when it migrates a
store, and `hyrag sql` must not pay for pandas to open one.
"""

from __future__ import annotations

# A scale word the displayed value does not already carry ("1.2 million", "3bn" do).
_SCALE_WORDS = "(k|m|bn|b|thousand|million|billion)$"


def period_sql(timed: str, time_key: str, grain: str) -> str:
    """' in 2024Q1' / ' on 2024-03-31' for a timed measure of a dated row, else ''.
    `timed` is a SQL boolean: a period qualifies a measure, never a row's name or category."""
    return (f"CASE WHEN NOT ({timed}) OR {time_key} IS NULL THEN '' "
            f"WHEN {grain} = 'date' THEN ' on ' || {time_key} ELSE ' in ' || {time_key} END")


def suffix_sql(vt: str, sc: str, un: str) -> str:
    """The scale word and unit a numeric value is read with, unless its text shows them."""
    return (
        f"CASE WHEN {sc} IN ('thousand', 'million', 'billion') "
        f"AND NOT regexp_matches(lower({vt}), '{_SCALE_WORDS}') "
        f"THEN ' ' || {sc} ELSE '' END || "
        f"CASE WHEN {un} <> '' AND strpos(upper({vt}), upper({un})) = 0 "
        f"AND NOT ({un} = '%' AND {sc} = 'percent') "
        f"THEN (CASE WHEN {un} = '%' THEN '' ELSE ' ' END) || {un} ELSE '' END"
    )


def sentence_sql(table: str, entity: str, context: str, attribute: str, period: str, vt: str,
                 suffix: str, *, concat: bool = False) -> str:
    """'sales ORD-1 (region North): revenue in 2024Q1 was 1,250 USD.' from SQL expressions.

    `concat`: one concat() call instead of a chain of `||`, ~2.5x faster over a million rows
    (one string built, not ten). It differs only where a part is NULL (concat skips it, `||`
    gives NULL), so the view uses it over columns that are never NULL (`cell_claims.value_text`
    and the column constants are NOT NULL; every other part is coalesced or a CASE with an
    ELSE), and the stored path keeps `||`, under which a NULL part fails the NOT NULL text."""
    parts = [table, "' '", f"coalesce(CAST({entity} AS VARCHAR), '')",
             f"CASE WHEN coalesce({context}, '') <> '' THEN ' (' || {context} || ')' ELSE '' END",
             "': '", attribute, period, "' was '", vt, suffix, "'.'"]
    return f"concat({', '.join(parts)})" if concat else " || ".join(parts)


# The columns of `claims`, in order, as `claim_rows` stores them (CONTRACT.md's columns).
CLAIM_COLUMNS = (
    "claim_id", "source_id", "item_id", "kind", "table_name", "entity", "attribute",
    "value_text", "value_num", "scale", "unit", "value_base", "time_key", "period_start",
    "period_end", "order_key", "text", "locator", "file", "sheet", "page", "row_num",
    "column_name", "cell", "conf_base", "support", "contradict", "superseded",
    "effective_date", "authority",
)


def claims_view_sql() -> str:
    """CREATE VIEW claims: the stored rows, then the narrow cells with their sentence, locator
    (`loc_head` row `loc_mid` row '"}', the bytes the id was hashed over at ingest) and address.
    Changing what it generates changes claims already stored: that is a new migration."""
    row = "CAST(v.row_num AS VARCHAR)"
    text = sentence_sql(
        "k.table_name", "r.entity", "r.context", "k.attribute",
        period_sql("k.timed", "r.time_key", "r.grain"), "v.value_text",
        f"CASE WHEN k.is_numeric THEN {suffix_sql('v.value_text', 'v.scale', 'v.unit')} "
        "ELSE '' END", concat=True)
    return f"""CREATE OR REPLACE VIEW claims AS
SELECT {", ".join(CLAIM_COLUMNS)} FROM claim_rows
UNION ALL
SELECT v.claim_id, k.source_id, r.item_id, 'cell', k.table_name, r.entity, k.attribute,
    v.value_text, v.value_num, v.scale, v.unit, v.value_base,
    CASE WHEN k.timed THEN r.time_key END, CASE WHEN k.timed THEN r.period_start END,
    CASE WHEN k.timed THEN r.period_end END, CASE WHEN k.timed THEN r.order_key END,
    {text},
    concat(k.loc_head, {row}, k.loc_mid, {row}, '"}}'),
    k.file, k.sheet, k.page, v.row_num, k.header, concat(k.letter, {row}), k.conf_base,
    v.support, v.contradict, v.superseded, CAST(NULL AS DATE), CAST(NULL AS INTEGER)
FROM cell_claims v
JOIN cell_columns k ON k.tid = v.tid AND k.k = v.k
JOIN cell_rows r ON r.tid = v.tid AND r.row_num = v.row_num;
"""
