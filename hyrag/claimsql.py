"""Cell claims, items and aggregates generated set-wise inside DuckDB.

A 100,000 x 12 sheet is 1.2 million cells; building each sentence and its sha256 id in a Python
loop costs seconds, so the store asks DuckDB to do it over the staged frame. The sentence
template and id recipe are the ones of `hyrag.store.claim_id` (CONTRACT.md: sha256 over source
sha256, kind and the canonical locator JSON); `tests/comparison/` rebuilds sample claims in pure
Python and checks both paths give the same ids and text.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

import duckdb

from hyrag.cellview import period_sql, sentence_sql, suffix_sql
from ingest.schema import Role
from ingest.typed import ClaimColumn, TypedTable

AGGREGATE_MAX_GROUPS = 20  # a categorical column with more groups is not aggregated by
AGGREGATE_LINK_LIMIT = 200  # derived_from links are stored for groups up to this size
# Values summed exactly (DECIMAL(38, 10)) are below this: ten billion of them still fit.
EXACT_SUM_MAX = 1e17
# A table with more claim columns than this writes its cell claims from a long form (one row
# per cell) by one sentence template, instead of one SELECT per column: planning a SELECT costs
# ~15 ms whatever its rows, so 2,000 columns took minutes and 16,384 did not finish. Below it
# the per-column statement is as fast and keeps its constant-folded locators.
WIDE_TABLE_COLUMNS = 64
WIDE_BATCH_COLUMNS = 1024  # columns unpivoted per statement: bounds one statement's size


def lit(value: object) -> str:
    """A SQL literal for a constant chosen by the engine (names, headers, file names)."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int | float):
        return repr(value)
    return "'" + str(value).replace("'", "''") + "'"


def ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _loc_head(file: str, t: TypedTable) -> dict[str, object]:
    """The parts of a locator shared by a whole table, in the canonical key order."""
    head: dict[str, object] = {"file": file}
    if t.sheet is not None:
        head["sheet"] = t.sheet
    if t.page is not None:
        head["page"] = t.page
    if t.sheet is not None or t.page is not None:
        head["table"] = t.table_index
    return head


def _loc_prefix(file: str, t: TypedTable, *, row_page: bool = False) -> list[str]:
    """json_object arguments for the shared parts of a locator; with `row_page`, the page is
    each row's own (`__page`), for a PDF table continued across pages."""
    return [
        part
        for k, v in _loc_head(file, t).items()
        for part in (lit(k), "__page" if (k == "page" and row_page) else lit(v))
    ]


def _const_cell_loc_sql(file: str, t: TypedTable, header: str, letter: str) -> str:
    """The same bytes as json_object for a fixed column, by concatenation: json_object costs a
    third of the insert on a million cells. Constant parts come from json.dumps."""
    head = _loc_head(file, t)
    pre = json.dumps(head, separators=(",", ":"), ensure_ascii=False)[:-1] + ',"row":'
    mid = ',"column":' + json.dumps(header, ensure_ascii=False) + ',"cell":' + '"' + letter
    return f"{lit(pre)} || CAST(__row AS VARCHAR) || {lit(mid)} || CAST(__row AS VARCHAR) || '\"}}'"


def item_id_sql(sha: str, file: str, t: TypedTable) -> str:
    """The item id of a staged row (`__row`, `__page`), computed once per row when the table
    is staged (its `__item_id`): each of a row's cell claims carries it, and hashing it per
    cell cost a million sha256 calls on a 100,000 x 12 table."""
    if t.per_row_page:
        key = f"{sha}|item|{file}||"
        return (
            f"substr(sha256({lit(key)} || CAST(__page AS VARCHAR) || '|{t.table_index}|' || "
            "CAST(__row AS VARCHAR)), 1, 16)"
        )
    key = f"{sha}|item|{file}|{t.sheet or ''}|{t.page or ''}|{t.table_index}|"
    return f"substr(sha256({lit(key)} || CAST(__row AS VARCHAR)), 1, 16)"


def insert_items(
    con: duckdb.DuckDBPyConnection, stg: str, sha: str, source_id: str, file: str, t: TypedTable,
    table_name: str,
) -> None:
    con.execute(
        f"""INSERT INTO items
        SELECT DISTINCT __item_id, {lit(source_id)}, {lit(table_name)},
               __row, first(__entity) OVER (PARTITION BY __row)
        FROM {stg}"""
    )


def _value_exprs(cc: ClaimColumn, t: TypedTable) -> tuple[str, str, str, str, str]:
    c = ident(cc.column)
    if cc.role is Role.NUMERIC:
        return (
            ident(cc.column + "__text"),
            f"CAST({ident(cc.column + '__num')} AS DOUBLE)",
            f"coalesce({ident(cc.column + '__scale')}, '')",
            f"coalesce({ident(cc.column + '__unit')}, '')",
            f"CAST({ident(cc.column + '__base')} AS DOUBLE)",
        )
    if cc.role is Role.TIME and cc.column + "__text" in t.frame:
        # a period quoted as the file writes it, not as its typed ISO date or key
        return (f"CAST({ident(cc.column + '__text')} AS VARCHAR)", "NULL", "''", "''", "NULL")
    return (f"CAST({c} AS VARCHAR)", "NULL", "''", "''", "NULL")


def narrow_ok(t: TypedTable) -> bool:
    """Can the table's cell claims be stored narrow (`cell_claims`, the `claims` view writing
    their sentences and locators)? Every column needs a constant header, letter and attribute
    and every locator the fixed shape `{file[, sheet, page, table], row, column, cell}`: a
    melted table takes them per row, a sectioned one ends some locators with the row's
    section, and a PDF table continued across pages gives each row its page. Those, and tables
    wider than WIDE_TABLE_COLUMNS, keep whole rows in `claim_rows`."""
    return (_long_form_ok(t) and not t.per_row_page and not t.sectioned
            and 0 < len(t.claim_columns) <= WIDE_TABLE_COLUMNS)


def table_tid(source_id: str, table_name: str) -> int:
    """The key of a table's narrow cells: a content hash of its source and name (60 bits, so
    a BIGINT), the same in a scratch store of a distributed ingest as in the merged one."""
    digest = hashlib.sha256(f"{source_id}|{table_name}".encode()).hexdigest()
    return int(digest[:15], 16)


def _insert_narrow_cell_claims(
    con: duckdb.DuckDBPyConnection, stg: str, sha: str, source_id: str, file: str,
    t: TypedTable, table_name: str, conf: float,
) -> int:
    """A plain table's cell claims as narrow rows: per cell its id and value, per column its
    constants, per row its item, entity, context and period. The id is hashed at ingest over
    the locator bytes `_const_cell_loc_sql` builds; the view rebuilds the same bytes from the
    column's `loc_head` / `loc_mid` (the same strings) and the row number, and the sentence by
    `hyrag.cellview.sentence_sql`, so ids, sentences and locators are those of a stored row."""
    tid = table_tid(source_id, table_name)
    time_col = t.schema.time_column
    head = json.dumps(_loc_head(file, t), separators=(",", ":"), ensure_ascii=False)[:-1]
    columns = []
    selects: list[str] = []
    for k, cc in enumerate(t.claim_columns):
        assert cc.header is not None and cc.letter is not None and cc.attribute is not None
        mid = ',"column":' + json.dumps(cc.header, ensure_ascii=False) + ',"cell":"' + cc.letter
        numeric = cc.role is Role.NUMERIC
        columns.append((tid, k, source_id, table_name, file, t.sheet, t.page, cc.header,
                        cc.letter, cc.attribute, numeric, numeric and cc.column != time_col,
                        head + ',"row":', mid, conf))
        vt, vn, sc, un, vb = _value_exprs(cc, t)
        where = f"{ident(cc.column)} IS NOT NULL"
        if numeric:
            where += f" AND {vt} IS NOT NULL"
        loc = _const_cell_loc_sql(file, t, cc.header, cc.letter)
        selects.append(
            f"SELECT substr(sha256({lit(sha + '|cell|')} || {loc}), 1, 16), {tid}, __row, {k}, "
            f"{vt}, {vn}, {sc}, {un}, {vb} FROM {stg} WHERE {where}")
    con.executemany("INSERT INTO cell_columns VALUES (" + ", ".join(["?"] * 15) + ")", columns)
    con.execute(
        f"""INSERT INTO cell_rows SELECT {tid}, __row, __item_id, CAST(__entity AS VARCHAR),
            CAST(__context AS VARCHAR), CAST(__time_key AS VARCHAR), CAST(__grain AS VARCHAR),
            CAST(__period_start AS DATE), CAST(__period_end AS DATE),
            CAST(__order_key AS DOUBLE)
        FROM {stg}""")
    n = con.execute(
        "INSERT INTO cell_claims (claim_id, tid, row_num, k, value_text, value_num, scale, "
        "unit, value_base) " + " UNION ALL ".join(selects)).fetchall()
    return int(n[0][0]) if n else 0


def insert_cell_claims(
    con: duckdb.DuckDBPyConnection,
    stg: str,
    sha: str,
    source_id: str,
    file: str,
    t: TypedTable,
    table_name: str,
    conf: float,
) -> int:
    """One claim per non-empty claimable cell; returns how many. Narrow where the table allows
    (`narrow_ok`), else as whole rows of `claim_rows`."""
    if narrow_ok(t):
        return _insert_narrow_cell_claims(con, stg, sha, source_id, file, t, table_name, conf)
    selects: list[str] = []
    time_col = t.schema.time_column
    for cc in t.claim_columns:
        vt, vn, sc, un, vb = _value_exprs(cc, t)
        # text whatever type the staged column has: coalesce() below must not mix types
        header = lit(cc.header) if cc.header is not None else "CAST(__header AS VARCHAR)"
        cell = (lit(cc.letter) + " || CAST(__row AS VARCHAR)") if cc.letter else "__cell"
        # A melted row whose label cell is empty still measures something: its column header.
        attribute = (
            lit(cc.attribute)
            if cc.attribute is not None
            else f"coalesce(nullif(trim(CAST(__attribute AS VARCHAR)), ''), {header})"
        )
        if cc.header is not None and cc.letter is not None and not t.per_row_page \
                and not t.sectioned:
            loc = _const_cell_loc_sql(file, t, cc.header, cc.letter)
        else:
            loc = cell_loc_sql(file, t, "__row", header, cell, row_page=t.per_row_page,
                               section="__section" if t.sectioned else None)
        # A period qualifies a measure; a row's category or name is not "as of" its date.
        timed = cc.column != time_col and cc.role is Role.NUMERIC
        period = period_sql("TRUE" if timed else "FALSE", "__time_key", "__grain")
        suffix = suffix_sql(vt, sc, un) if cc.role is Role.NUMERIC else "''"
        text = sentence_sql(lit(table_name), "__entity", "__context", attribute, period, vt,
                            suffix)
        when = "CASE WHEN TRUE THEN" if timed else "CASE WHEN FALSE THEN"
        where = f"{ident(cc.column)} IS NOT NULL"
        if cc.role is Role.NUMERIC:
            where += f" AND {vt} IS NOT NULL"
        selects.append(f"""
        SELECT substr(sha256({lit(sha + '|cell|')} || loc), 1, 16), {lit(source_id)}, item_id,
            'cell', {lit(table_name)}, entity, attribute, vt, vn, sc, un, vb, time_key,
            period_start, period_end, order_key, text, loc, {lit(file)}, {lit(t.sheet)},
            page_no, __row, col, cell, {lit(conf)}
        FROM (
            SELECT __item_id AS item_id,
                CAST(__entity AS VARCHAR) AS entity, {attribute} AS attribute,
                {vt} AS vt, {vn} AS vn, {sc} AS sc, {un} AS un, {vb} AS vb,
                {when} __time_key END AS time_key,
                {when} CAST(__period_start AS DATE) END AS period_start,
                {when} CAST(__period_end AS DATE) END AS period_end,
                {when} CAST(__order_key AS DOUBLE) END AS order_key,
                {text} AS text, {loc} AS loc, __row, {header} AS col, {cell} AS cell,
                {"CAST(__page AS INTEGER)" if t.per_row_page else lit(t.page)} AS page_no
            FROM {stg} WHERE {where}
        )""")
    if not selects:
        return 0
    if len(selects) > WIDE_TABLE_COLUMNS and _long_form_ok(t):
        return _insert_wide_cell_claims(con, stg, sha, source_id, file, t, table_name, conf)
    # One statement for all columns: DuckDB parallelises the union, and commits once.
    n = con.execute(
        """INSERT INTO claim_rows (claim_id, source_id, item_id, kind, table_name, entity,
            attribute, value_text, value_num, scale, unit, value_base, time_key, period_start,
            period_end, order_key, text, locator, file, sheet, page, row_num, column_name, cell,
            conf_base)
        """ + " UNION ALL ".join(selects)
    ).fetchall()
    return int(n[0][0]) if n else 0


def _long_form_ok(t: TypedTable) -> bool:
    """The long form writes columns with a constant header, letter and attribute: every table
    but a melted one (whose single value column takes them per row)."""
    return not t.melted and all(
        cc.header is not None and cc.letter is not None and cc.attribute is not None
        for cc in t.claim_columns
    )


def _insert_wide_cell_claims(
    con: duckdb.DuckDBPyConnection, stg: str, sha: str, source_id: str, file: str,
    t: TypedTable, table_name: str, conf: float,
) -> int:
    """The claims `insert_cell_claims` writes, for a wide table, at a cost linear in its cells.

    Each batch of columns is unpivoted into `temp.hyrag_cells` (one row per non-empty cell: the
    row, the column's index and the value expressions of `_value_exprs`), the columns' constants
    go to `temp.hyrag_cols`, and one statement applies the sentence template of the per-column
    path, with the constants read from columns instead of folded into SQL. The same ids, text
    and locators (tests/ingest compares the two paths on one table).
    """
    import pandas as pd

    time_col = t.schema.time_column
    cols = pd.DataFrame({
        "k": range(len(t.claim_columns)),
        "header": [cc.header for cc in t.claim_columns],
        "letter": [cc.letter for cc in t.claim_columns],
        "attribute": [cc.attribute for cc in t.claim_columns],
        "numeric": [cc.role is Role.NUMERIC for cc in t.claim_columns],
        "timed": [cc.role is Role.NUMERIC and cc.column != time_col for cc in t.claim_columns],
    })
    con.execute("SELECT 1").fetchall()  # register() refuses while a result is pending
    con.register("hyrag_cols_frame", cols)
    con.execute("CREATE OR REPLACE TEMP TABLE temp.hyrag_cols AS SELECT * FROM hyrag_cols_frame")
    con.execute("SELECT 1").fetchall()
    con.unregister("hyrag_cols_frame")
    con.execute(
        "CREATE OR REPLACE TEMP TABLE temp.hyrag_cells (rid BIGINT, k INTEGER, vt VARCHAR, "
        "vn DOUBLE, sc VARCHAR, un VARCHAR, vb DOUBLE)"
    )
    try:
        for lo in range(0, len(t.claim_columns), WIDE_BATCH_COLUMNS):
            batch = list(enumerate(t.claim_columns))[lo:lo + WIDE_BATCH_COLUMNS]
            lists: list[list[str]] = [[], [], [], [], [], [], []]
            for k, cc in batch:
                vt, vn, sc, un, vb = _value_exprs(cc, t)
                keep = f"{ident(cc.column)} IS NOT NULL"
                if cc.role is Role.NUMERIC:
                    keep += f" AND {vt} IS NOT NULL"
                for part, expr in zip(lists, (keep, str(k), vt, vn, sc, un, vb), strict=True):
                    part.append(expr)
            keep_l, k_l, vt_l, vn_l, sc_l, un_l, vb_l = ("[" + ", ".join(p) + "]" for p in lists)
            con.execute(
                f"""INSERT INTO temp.hyrag_cells
                SELECT rid, k, vt, vn, sc, un, vb FROM (
                    SELECT __rid AS rid, unnest({keep_l}) AS keep, unnest({k_l}) AS k,
                        unnest({vt_l}) AS vt, unnest(CAST({vn_l} AS DOUBLE[])) AS vn,
                        unnest({sc_l}) AS sc, unnest({un_l}) AS un,
                        unnest(CAST({vb_l} AS DOUBLE[])) AS vb
                    FROM {stg})
                WHERE keep"""
            )
        return _write_long_claims(con, stg, sha, source_id, file, t, table_name, conf)
    finally:
        con.execute("DROP TABLE IF EXISTS temp.hyrag_cells")
        con.execute("DROP TABLE IF EXISTS temp.hyrag_cols")


def _write_long_claims(
    con: duckdb.DuckDBPyConnection, stg: str, sha: str, source_id: str, file: str,
    t: TypedTable, table_name: str, conf: float,
) -> int:
    """The sentence template of `insert_cell_claims` over `temp.hyrag_cells` x `hyrag_cols`."""
    loc = cell_loc_sql(file, t, "__row", "k.header", "k.letter || CAST(__row AS VARCHAR)",
                       row_page=t.per_row_page, section="__section" if t.sectioned else None)
    period = period_sql("k.timed", "__time_key", "__grain")
    suffix = f"CASE WHEN NOT k.numeric THEN '' ELSE {suffix_sql('c.vt', 'c.sc', 'c.un')} END"
    text = sentence_sql(lit(table_name), "__entity", "__context", "k.attribute", period, "c.vt",
                        suffix)
    n = con.execute(
        f"""INSERT INTO claim_rows (claim_id, source_id, item_id, kind, table_name, entity,
            attribute, value_text, value_num, scale, unit, value_base, time_key, period_start,
            period_end, order_key, text, locator, file, sheet, page, row_num, column_name, cell,
            conf_base)
        SELECT substr(sha256({lit(sha + '|cell|')} || loc), 1, 16), {lit(source_id)}, item_id,
            'cell', {lit(table_name)}, entity, attribute, vt, vn, sc, un, vb, time_key,
            period_start, period_end, order_key, text, loc, {lit(file)}, {lit(t.sheet)},
            page_no, __row, col, cell, {lit(conf)}
        FROM (
            SELECT __item_id AS item_id,
                CAST(__entity AS VARCHAR) AS entity, k.attribute AS attribute,
                c.vt AS vt, c.vn AS vn, c.sc AS sc, c.un AS un, c.vb AS vb,
                CASE WHEN k.timed THEN __time_key END AS time_key,
                CASE WHEN k.timed THEN CAST(__period_start AS DATE) END AS period_start,
                CASE WHEN k.timed THEN CAST(__period_end AS DATE) END AS period_end,
                CASE WHEN k.timed THEN CAST(__order_key AS DOUBLE) END AS order_key,
                {text} AS text, {loc} AS loc, __row, k.header AS col,
                k.letter || CAST(__row AS VARCHAR) AS cell,
                {"CAST(__page AS INTEGER)" if t.per_row_page else lit(t.page)} AS page_no,
                c.rid AS rid, c.k AS kk
            FROM temp.hyrag_cells c JOIN temp.hyrag_cols k ON k.k = c.k
            JOIN {stg} s ON s.__rid = c.rid
        )
        ORDER BY kk, rid"""
    ).fetchall()
    return int(n[0][0]) if n else 0


def cell_loc_sql(
    file: str, t: TypedTable, row: str, header: str, cell: str, *, row_page: bool = False,
    section: str | None = None,
) -> str:
    """Locator JSON of a cell claim, from SQL expressions for its row, header and address; a
    row under a section heading (`ingest.sections`, the `section` expression) ends with it, and
    a row under none has no "section" key at all, so its locator and id are as they were."""
    prefix = ", ".join(_loc_prefix(file, t, row_page=row_page))
    plain = f"json_object({prefix}, 'row', {row}, 'column', {header}, 'cell', {cell})"
    if section is None:
        return plain
    sec = f"CAST({section} AS VARCHAR)"
    return (f"CASE WHEN {sec} IS NULL THEN {plain} ELSE json_object({prefix}, 'row', {row}, "
            f"'column', {header}, 'cell', {cell}, 'section', {sec}) END")


def _exact_parts(x: str, name: str) -> str:
    """The partial sums `_exact_total` adds up: whether any value is too large for the exact
    decimal, the DOUBLE sum (used then) and the exact DECIMAL(38, 10) sum of the others."""
    return (f"bool_or(NOT abs({x}) < {EXACT_SUM_MAX}) AS {name}_big, sum({x}) AS {name}_f, "
            f"sum(CASE WHEN abs({x}) < {EXACT_SUM_MAX} THEN CAST({x} AS DECIMAL(38, 10)) END) "
            f"AS {name}_d")


def _exact_total(name: str) -> str:
    """sum(x) over partial sums (`_exact_parts`) that does not depend on the order DuckDB's
    threads add the rows in: a DOUBLE sum does (the same file gave 7501350.000000191 and
    7501350.00000019, "7500750" and "7500750.00"), so the values are summed as DECIMAL(38, 10),
    exactly, and the exact sum is converted once. A value too large for that decimal
    (>= EXACT_SUM_MAX) makes the group sum as DOUBLE."""
    return (f"CASE WHEN bool_or({name}_big) THEN sum({name}_f) "
            f"ELSE CAST(sum({name}_d) AS DOUBLE) END")


def insert_aggregates(
    con: duckdb.DuckDBPyConnection,
    stg: str,
    buckets: str,
    levels: Sequence[str],
    sha: str,
    source_id: str,
    file: str,
    t: TypedTable,
    table_name: str,
    conf: float,
) -> int:
    """Totals and means per group and period, each citing its component cells.

    `buckets(row_id, level, key, start_date, end_date, order_key)` maps every staged row to its
    period at each level, with bounds and order keys from the time-key parser. Groups are each
    categorical column with few values, plus the whole table. A mean cites the same cells as
    its total; groups larger than AGGREGATE_LINK_LIMIT keep their provenance as the predicate
    in the locator's `aggregate` field instead of enumerated links.
    """
    if t.melted or t.schema.time_column is None:
        return 0
    numeric = [cc for cc in t.claim_columns if cc.role is Role.NUMERIC and cc.header and cc.letter]
    if not numeric:
        return 0
    groups: list[str | None] = [None]
    for c in t.schema.columns:
        if c.role is Role.CATEGORICAL and 2 <= c.distinct <= AGGREGATE_MAX_GROUPS:
            groups.append(c.name)
    prefix = ", ".join(_loc_prefix(file, t))
    sec = "CAST(__section AS VARCHAR)" if t.sectioned else "CAST(NULL AS VARCHAR)"
    # Long forms: one row per (row, measure) and per (row, group), then a single grouped join.
    measures = " UNION ALL ".join(
        f"""SELECT __rid AS rid, __row AS row_num, {lit(cc.header)} AS header,
                {lit(cc.letter)} AS letter, CAST({ident(cc.column + '__num')} AS DOUBLE) AS v,
                CAST({ident(cc.column + '__base')} AS DOUBLE) AS vbase,
                coalesce({ident(cc.column + '__scale')}, '') AS sc,
                coalesce({ident(cc.column + '__unit')}, '') AS un, {sec} AS sec
            FROM {stg} WHERE {ident(cc.column)} IS NOT NULL"""
        for cc in numeric
    )
    group_parts = [f"SELECT __rid AS rid, CAST(NULL AS VARCHAR) AS gname, "
                   f"CAST(NULL AS VARCHAR) AS grp FROM {stg}"]
    for g in groups[1:]:
        assert g is not None
        group_parts.append(
            f"SELECT __rid, {lit(t.schema.column(g).header)}, CAST({ident(g)} AS VARCHAR) "
            f"FROM {stg} WHERE {ident(g)} IS NOT NULL"
        )
    level_list = ", ".join(lit(x) for x in levels)
    joined = f"""FROM ({measures}) m
        JOIN ({" UNION ALL ".join(group_parts)}) g ON g.rid = m.rid
        JOIN {buckets} k ON k.row_id = m.rid AND k.level IN ({level_list})"""
    keys = ("header", "letter", "gname", "grp", "key", "start_date", "end_date", "order_key")
    grouping = ("m.header, m.letter, g.gname, g.grp, k.key, k.start_date, k.end_date, "
                "k.order_key")
    # Two steps: partial sums per measure, period and combination of the group columns' values
    # (a few thousand cells), then each group's totals from those. The sums are exact, so
    # adding partial sums gives each group's sum itself; a pass over the join of every
    # measure with every group repeated the row-level work once per group column. A group
    # whose cells differ in unit ("1st", "2nd") states its first row's.
    finest = ["m.header", "m.letter", "k.key", "k.start_date", "k.end_date", "k.order_key"]
    gcols = [f"CAST(s.{ident(g)} AS VARCHAR)" for g in groups[1:] if g is not None]
    gnames = [f"g{i}" for i in range(len(gcols))]
    con.execute(
        f"""CREATE OR REPLACE TEMP TABLE temp.hyrag_agg_parts AS
        SELECT {", ".join(finest)}, {"".join(f"{c} AS {n}, " for c, n in zip(gcols, gnames,
                                                                                strict=True))}
            count(*) AS n, count(m.v) AS nv, count(m.vbase) AS nb,
            {_exact_parts("m.v", "v")}, {_exact_parts("m.vbase", "b")},
            min(m.sc) AS sc_lo, max(m.sc) AS sc_hi, min(m.rid) AS rid,
            arg_min(m.un, m.rid) AS un
        FROM ({measures}) m JOIN {stg} s ON s.__rid = m.rid
        JOIN {buckets} k ON k.row_id = m.rid AND k.level IN ({level_list})
        GROUP BY ALL"""
    )
    per_group = [("CAST(NULL AS VARCHAR)", "CAST(NULL AS VARCHAR)", "")] + [
        (lit(t.schema.column(g).header), n, f"WHERE {n} IS NOT NULL")
        for g, n in zip([g for g in groups[1:] if g is not None], gnames, strict=True)]
    totals = " UNION ALL ".join(
        f"""SELECT header, letter, {gname} AS gname, {grp} AS grp, key, start_date, end_date,
            order_key, CAST(sum(n) AS BIGINT) AS n, {_exact_total("v")} AS s,
            {_exact_total("v")} / CAST(sum(nv) AS BIGINT) AS a, {_exact_total("b")} AS sb,
            {_exact_total("b")} / CAST(sum(nb) AS BIGINT) AS ab, min(sc_lo) AS sc,
            arg_min(un, rid) AS un,
            CAST(NULL AS STRUCT(r BIGINT, s VARCHAR)[]) AS rows
        FROM temp.hyrag_agg_parts {where}
        GROUP BY header, letter, {grp}, key, start_date, end_date, order_key
        HAVING min(sc_lo) = max(sc_hi)"""
        for gname, grp, where in per_group)
    con.execute(f"CREATE OR REPLACE TEMP TABLE temp.hyrag_agg_base AS {totals}")
    con.execute("DROP TABLE temp.hyrag_agg_parts")
    # The cells each small group cites, listed in a second pass over those groups only:
    # listing (and sorting) every group's rows cost more than the sums, and a group over
    # AGGREGATE_LINK_LIMIT rows keeps no list.
    if con.execute(f"SELECT count(*) FROM temp.hyrag_agg_base "
                   f"WHERE n <= {AGGREGATE_LINK_LIMIT}").fetchone()[0]:
        same = " AND ".join(f"b.{x} IS NOT DISTINCT FROM d.{x}" for x in keys)
        con.execute(
            f"""UPDATE temp.hyrag_agg_base b SET rows = d.rows FROM (
                SELECT {grouping}, list({{'r': m.row_num, 's': m.sec}} ORDER BY m.row_num)
                    AS rows
                {joined}
                WHERE EXISTS (SELECT 1 FROM temp.hyrag_agg_base s
                    WHERE s.n <= {AGGREGATE_LINK_LIMIT} AND s.header = m.header
                    AND s.letter = m.letter AND s.gname IS NOT DISTINCT FROM g.gname
                    AND s.grp IS NOT DISTINCT FROM g.grp AND s.key = k.key)
                GROUP BY {grouping}) d
            WHERE b.n <= {AGGREGATE_LINK_LIMIT} AND {same}"""
        )
    con.execute(
        """CREATE OR REPLACE TEMP TABLE temp.hyrag_agg_tmp AS
        SELECT 'sum' AS fn, 'total ' || header AS attribute, header, letter, gname, grp, key,
            start_date, end_date, order_key, n, s AS v, sb AS vbase, sc, un, rows
        FROM temp.hyrag_agg_base
        UNION ALL
        SELECT 'avg', 'average ' || header, header, letter, gname, grp, key, start_date,
            end_date, order_key, n, a, ab, sc, un, rows FROM temp.hyrag_agg_base"""
    )
    con.execute(
        f"""CREATE OR REPLACE TEMP TABLE temp.hyrag_agg_claims AS
        SELECT *, substr(sha256({lit(sha + '|aggregate|')} || loc), 1, 16) AS claim_id FROM (
            SELECT *,
                json_object({prefix}, 'column', header, 'aggregate',
                    fn || '(' || header || ') | ' || coalesce(gname || '=' || grp, 'all')
                    || ' | ' || key) AS loc,
                CASE WHEN v = round(v) AND abs(v) < 1e15
                    THEN CAST(CAST(v AS HUGEINT) AS VARCHAR) ELSE printf('%.2f', v) END AS vt
            FROM temp.hyrag_agg_tmp)"""
    )
    con.execute(
        f"""INSERT INTO claim_rows (claim_id, source_id, kind, table_name, entity, attribute,
            value_text, value_num, scale, unit, value_base, time_key, period_start, period_end,
            order_key, text, locator, file, sheet, page, column_name, conf_base)
        SELECT claim_id, {lit(source_id)}, 'aggregate', {lit(table_name)},
            coalesce(grp, {lit(table_name)}), attribute, vt, v, sc, un, vbase, key,
            start_date, end_date, order_key,
            {lit(table_name)} || coalesce(' ' || gname || ' ' || grp, '') || ': ' || attribute
                || ' in ' || key || ' was ' || vt
                || CASE WHEN sc IN ('thousand', 'million', 'billion') THEN ' ' || sc ELSE '' END
                || CASE WHEN un <> '' THEN ' ' || un ELSE '' END
                || ' (' || CASE fn WHEN 'sum' THEN 'sum' ELSE 'mean' END || ' of ' || n
                || ' rows).',
            loc, {lit(file)}, {lit(t.sheet)}, {lit(t.page)}, header, {lit(conf)}
        FROM temp.hyrag_agg_claims"""
    )
    con.execute(
        f"""INSERT INTO claim_links (src, dst, kind, note, created_at)
        SELECT claim_id,
            substr(sha256({lit(sha + '|cell|')} || {
                cell_loc_sql(file, t, "x.r", "header", "letter || CAST(x.r AS VARCHAR)",
                             section="x.s" if t.sectioned else None)}), 1, 16),
            'derived_from', fn, now()
        FROM (SELECT claim_id, header, letter, fn, unnest(rows) AS x FROM temp.hyrag_agg_claims
              WHERE rows IS NOT NULL)"""
    )
    n = con.execute("SELECT count(*) FROM temp.hyrag_agg_claims").fetchone()[0]
    con.execute("DROP TABLE temp.hyrag_agg_tmp")
    con.execute("DROP TABLE temp.hyrag_agg_base")
    con.execute("DROP TABLE temp.hyrag_agg_claims")
    return int(n)
