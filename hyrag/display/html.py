"""HTML and Markdown for notebooks: answers, knowledge bases and SQL results.

Every piece of text that came from data (cell values, claim text, sources, locators, questions,
table and column names) goes through `html.escape(..., quote=True)` exactly once, here, at the
point where it is written into markup: a cell holding `<script>alert(1)</script>` is shown as
that text, never run. Only the fixed markup of this module is unescaped. The entropy chart is an
inline SVG built from numbers (no matplotlib needed to display an answer).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import Any

# Decision -> badge colour. Unknown decisions fall back to grey.
_DECISION_COLOURS = {
    "answer": "#1a7f37",
    "needs_verification": "#9a6700",
    "clarify": "#0969da",
    "retrieve_again": "#8250df",
    "abstain": "#cf222e",
}
_VERDICT_COLOURS = {"pass": "#1a7f37", "fail": "#cf222e"}

CSS = """<style>
.hyrag{font-family:system-ui,-apple-system,Segoe UI,sans-serif;font-size:13px;line-height:1.45;
 max-width:980px}
.hyrag h4{margin:12px 0 4px 0;font-size:13px;text-transform:uppercase;letter-spacing:.04em;
 color:#57606a}
.hyrag table{border-collapse:collapse;margin:2px 0 6px 0}
.hyrag th,.hyrag td{border:1px solid #d0d7de;padding:3px 7px;text-align:left;vertical-align:top}
.hyrag th{background:#f6f8fa}
.hyrag td.num{text-align:right;font-variant-numeric:tabular-nums}
.hyrag .badge{display:inline-block;padding:1px 8px;border-radius:10px;color:#fff;
 font-weight:600;margin-right:6px}
.hyrag .meta{color:#57606a;font-size:12px}
.hyrag .answer-text{font-size:14px;margin:6px 0}
.hyrag section.hyrag-gaps{border-left:4px solid #cf222e;padding-left:8px;background:#fff8f8}
.hyrag section.hyrag-conflicts{border-left:4px solid #9a6700;padding-left:8px;background:#fffbf0}
.hyrag .value{font-size:15px;font-weight:600}
.hyrag code{font-size:12px}
</style>"""


def esc(value: object) -> str:
    """Text for HTML content or a quoted attribute value; None becomes an empty string."""
    return "" if value is None else escape(str(value), quote=True)


def md_esc(value: object) -> str:
    """Text for Markdown that notebooks render: no raw HTML can get through (`<` and `&` are
    written as entities, which Markdown shows literally)."""
    return "" if value is None else str(value).replace("&", "&amp;").replace("<", "&lt;")


def format_locator(locator: object) -> str:
    """A locator (the JSON the engine stores) as short plain text: "page 1, paragraph 2",
    "row 30, column revenue, cell C30", or the SQL that produced a value."""
    if isinstance(locator, Mapping):
        d: Any = locator
    else:
        try:
            d = json.loads(str(locator))
        except (TypeError, ValueError):
            return "" if locator is None else str(locator)
    if not isinstance(d, dict):
        return str(locator)
    if "sql" in d:
        return f"SQL: {d['sql']}"
    return ", ".join(f"{k} {v}" for k, v in d.items() if k not in ("file", "span"))


def _num(v: object) -> str:
    if isinstance(v, bool) or v is None:
        return esc(v)
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        if not math.isfinite(v):
            return esc(v)
        return f"{v:,.4g}" if abs(v) < 1 else f"{v:,.2f}".rstrip("0").rstrip(".")
    return esc(v)


def _badge(label: str, colour: str) -> str:
    return f'<span class="badge" style="background:{colour}">{esc(label)}</span>'


def table_html(columns: Sequence[str], rows: Iterable[Sequence[object]], *,
               cls: str = "", row_attrs: Sequence[Mapping[str, object]] | None = None,
               numeric: Sequence[bool] | None = None) -> str:
    """A plain escaped HTML table. `row_attrs` adds `data-*` attributes per row (escaped)."""
    head = "".join(f"<th>{esc(c)}</th>" for c in columns)
    body = []
    for i, row in enumerate(rows):
        attrs = ""
        if row_attrs is not None:
            attrs = "".join(f' data-{esc(k)}="{esc(v)}"' for k, v in row_attrs[i].items())
        cells = []
        for j, v in enumerate(row):
            is_num = numeric[j] if numeric is not None else isinstance(v, int | float)
            cells.append(f'<td class="num">{_num(v)}</td>' if is_num and not isinstance(v, str)
                         else f"<td>{esc(v)}</td>")
        body.append(f"<tr{attrs}>{''.join(cells)}</tr>")
    c = f' class="{esc(cls)}"' if cls else ""
    return f"<table{c}><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


# --------------------------------------------------------------------------- entropy chart


def entropy_trace_of(ecr: Mapping[str, Any] | None) -> list[float]:
    """H per step from an answer's ECR record: the stored `entropy_trace` (which starts with
    H0), else the per-step entropies of `trace`."""
    if not ecr:
        return []
    tr = ecr.get("entropy_trace")
    if tr:
        return [float(x) for x in tr]
    return [float(s["entropy"]) for s in ecr.get("trace", ()) if "entropy" in s]


def entropy_svg(trace: Sequence[float], *, epsilon: float = 0.3, width: int = 260,
                height: int = 90) -> str:
    """A small inline SVG line chart of entropy (bits) per claims evaluated, with the epsilon
    line. Built only from numbers; labels are fixed text."""
    if not trace:
        return ""
    pad_l, pad_r, pad_t, pad_b = 30, 8, 8, 20
    w, h = width - pad_l - pad_r, height - pad_t - pad_b
    ymax = max(max(trace), epsilon, 1e-9) * 1.1
    n = max(len(trace) - 1, 1)

    def xy(i: int, v: float) -> tuple[float, float]:
        return pad_l + w * i / n, pad_t + h * (1 - v / ymax)

    pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in (xy(i, v) for i, v in enumerate(trace)))
    dots = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="#0969da"/>'
                   for x, y in (xy(i, v) for i, v in enumerate(trace)))
    _, ey = xy(0, epsilon)
    return (
        f'<svg class="hyrag-entropy" xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{height}" role="img" aria-label="entropy per claim evaluated">'
        f'<line x1="{pad_l}" y1="{pad_t + h}" x2="{pad_l + w}" y2="{pad_t + h}" stroke="#8c959f"/>'
        f'<line x1="{pad_l}" y1="{pad_t}" x2="{pad_l}" y2="{pad_t + h}" stroke="#8c959f"/>'
        f'<line x1="{pad_l}" y1="{ey:.1f}" x2="{pad_l + w}" y2="{ey:.1f}" stroke="#cf222e" '
        f'stroke-dasharray="4 3"/>'
        f'<text x="{pad_l + w}" y="{ey - 3:.1f}" font-size="9" text-anchor="end" '
        f'fill="#cf222e">&#949; = {epsilon:g}</text>'
        f'<polyline points="{pts}" fill="none" stroke="#0969da" stroke-width="1.8"/>{dots}'
        f'<text x="{pad_l - 4}" y="{pad_t + 8}" font-size="9" text-anchor="end">'
        f'{ymax / 1.1:.2f}</text>'
        f'<text x="{pad_l - 4}" y="{pad_t + h}" font-size="9" text-anchor="end">0</text>'
        f'<text x="{pad_l + w / 2}" y="{height - 4}" font-size="9" text-anchor="middle">'
        f'claims evaluated (0..{len(trace) - 1}); H in bits</text></svg>'
    )


# --------------------------------------------------------------------------- answers


def answer_html(a: Any) -> str:
    """An `Answer` for a notebook: decision and verification verdict first, the answer text,
    then Evidence, Knowledge Gaps, Conflicts, Derivations, Requirements and the ECR trace."""
    v = a.verification or {}
    verdict = str(v.get("verdict", "unverified"))
    head = (
        _badge(a.decision, _DECISION_COLOURS.get(a.decision, "#57606a"))
        + _badge(f"verification: {verdict}", _VERDICT_COLOURS.get(verdict, "#57606a"))
        + f'<span class="meta">route {esc(a.route)} · trust {esc(a.trust)}'
        + (f" · score {_num(v['score'])}" if v.get("score") is not None else "")
        + (f" · audit <code>{esc(a.audit_id)}</code>" if a.audit_id else "")
        + f" · {a.latency_ms:.0f} ms</span>"
    )
    parts = [CSS, '<div class="hyrag hyrag-answer">']
    if getattr(a, "question", ""):
        parts.append(f'<div class="meta hyrag-question">Q: {esc(a.question)}</div>')
    parts.append(f'<div class="hyrag-header">{head}</div>')
    parts.append(f'<div class="answer-text">{esc(a.text)}</div>')
    failures = v.get("failures") or []
    if failures:
        parts.append('<section class="hyrag-verification"><h4>Verification failures</h4><ul>'
                     + "".join(f"<li>{esc(f)}</li>" for f in failures) + "</ul></section>")

    if a.evidence:
        rows = [(e.get("n"), e.get("source"), format_locator(e.get("locator")), e.get("text"),
                 e.get("score")) for e in a.evidence]
        attrs = [{"n": e.get("n"), "claim-id": e.get("claim_id")} for e in a.evidence]
        parts.append('<section class="hyrag-evidence"><h4>Evidence</h4>'
                     + table_html(["[n]", "source", "locator", "claim", "score"], rows,
                                  row_attrs=attrs, numeric=[True, False, False, False, True])
                     + "</section>")
    if a.gaps:
        rows = [(g.get("entity"), g.get("attribute"), g.get("period") or "", g.get("reason"))
                for g in a.gaps]
        parts.append('<section class="hyrag-gaps"><h4>Knowledge Gaps</h4>'
                     '<div class="meta">Declared absent: the knowledge base holds no claim for '
                     'these; the answer does not guess them.</div>'
                     + table_html(["entity", "attribute", "period", "reason"], rows)
                     + "</section>")
    if a.conflicts:
        blocks = []
        for c in a.conflicts:
            claims = list(c.get("claims", ()))
            title = " · ".join(str(x) for x in (c.get("entity"), c.get("attribute"),
                                                c.get("period")) if x)
            cols = "".join(
                f'<td class="hyrag-conflict-claim" data-claim-id="{esc(x.get("claim_id"))}">'
                f'<div class="value">{esc(x.get("value"))}</div>'
                f'<div>{esc(x.get("source"))}'
                + (f' [{esc(x.get("n"))}]' if x.get("n") is not None else "")
                + f'</div><div class="meta">{esc(format_locator(x.get("locator")))}</div></td>'
                for x in claims)
            blocks.append(f"<div><b>{esc(title)}</b></div><table><tbody><tr>{cols}</tr>"
                          "</tbody></table>")
        parts.append('<section class="hyrag-conflicts"><h4>Conflicts</h4>'
                     '<div class="meta">Sources disagree; the values are shown side by side, '
                     'not averaged.</div>' + "".join(blocks) + "</section>")
    if a.derivations:
        items = []
        for d in a.derivations:
            ops = ", ".join(
                f"{esc(o.get('label') or o.get('ref'))} = {_num(o.get('value'))}"
                + (f" [{esc(o.get('n'))}]" if o.get("n") is not None else "")
                for o in d.get("operands", ()))
            items.append(f"<li><b>{esc(d.get('name', ''))}</b>: "
                         f"<code>{esc(d.get('expression'))}</code> = "
                         f"<b>{_num(d.get('result'))}{esc(d.get('unit', ''))}</b>"
                         f'<div class="meta">operands: {ops}</div></li>')
        parts.append('<section class="hyrag-derivations"><h4>Derivations</h4><ul>'
                     + "".join(items) + "</ul></section>")
    if a.requirements:
        rows = [(r.get("rid", ""), r.get("entity") or "", r.get("attribute"),
                 r.get("period") or "", r.get("support"), r.get("limit") or "")
                for r in a.requirements]
        parts.append('<section class="hyrag-requirements"><h4>Requirements</h4>'
                     + table_html(["id", "entity", "attribute", "period", "support", "limit"],
                                  rows) + "</section>")
    if a.ecr:
        trace = entropy_trace_of(a.ecr)
        dist = a.ecr.get("distribution") or []
        dist_rows = [(d.get("label") or d.get("id"), d.get("p")) for d in dist]
        parts.append(
            '<section class="hyrag-ecr"><h4>ECR entropy trace</h4>'
            f'<div class="meta">stop: {esc(a.ecr.get("stop_reason"))} · final H '
            f'{_num(a.ecr.get("entropy"))} bits'
            + (f' · dominant {esc(a.ecr.get("dominant"))}' if a.ecr.get("dominant") else "")
            + "</div>" + entropy_svg(trace)
            + (table_html(["hypothesis", "p"], dist_rows) if dist_rows else "")
            + "</section>")
    parts.append("</div>")
    return "".join(parts)


def answer_markdown(a: Any) -> str:
    """The engine's Markdown brief with raw HTML neutralised (notebooks render HTML inside
    Markdown)."""
    return md_esc(a.brief or a.text)


# --------------------------------------------------------------------------- knowledge bases


def _frame_rows(df: Any) -> tuple[list[str], list[tuple]]:
    return [str(c) for c in df.columns], [tuple(r) for r in df.itertuples(index=False)]


def kb_html(kb: Any) -> str:
    """A knowledge base: path, embedding model, sources, tables with their inferred column
    roles and claim counts. Every count and listing is one `schema` request of the subject:
    under a policy it reads the subject's views (never the raw store), and a subject not allowed
    `schema` sees that said instead of the knowledge base's contents."""
    parts = [CSS, '<div class="hyrag hyrag-kb">', f"<b>KnowledgeBase</b> <code>{esc(kb.path)}</code>"]
    try:
        with kb._request("schema"):
            _kb_body(kb, parts)
    except Exception as e:  # a display must never raise
        parts.append(f'<div class="meta">contents unavailable: {esc(e)}</div>')
    parts.append("</div>")
    return "".join(parts)


def _kb_body(kb: Any, parts: list[str]) -> None:
    try:
        info = kb.reader.con.cursor().execute(
            "SELECT (SELECT count(*) FROM claims WHERE NOT superseded), "
            "(SELECT count(*) FROM sources WHERE status = 'current')").fetchone()
        n_claims, n_sources = info if info else (0, 0)
    except Exception:  # a display must never raise
        n_claims, n_sources = None, None
    parts.append(f'<div class="meta">{_num(n_sources)} current sources · {_num(n_claims)} '
                 f"claims · embedding model {esc(_embedding_model(kb))}</div>")
    try:
        src = kb.sources()
        cols = [c for c in ("name", "kind", "version", "status", "classification", "bytes")
                if c in src.columns]
        parts.append('<section class="hyrag-sources"><h4>Sources</h4>'
                     + table_html(*_frame_rows(src[cols])) + "</section>")
    except Exception as e:
        parts.append(f'<div class="meta">sources unavailable: {esc(e)}</div>')
    try:
        tables = kb.tables()
        schema = kb.schema()
        roles: dict[str, str] = {}
        for t, g in schema.groupby("table_name", sort=False):
            roles[str(t)] = ", ".join(f"{c} ({r})" for c, r in zip(g["column_name"], g["role"],
                                                                   strict=True))
        rows = [(r.table_name, r.source, r.n_rows, r.claims, roles.get(str(r.table_name), ""))
                for r in tables.itertuples(index=False)]
        parts.append('<section class="hyrag-tables"><h4>Tables</h4>'
                     + table_html(["table", "source", "rows", "claims", "columns (role)"], rows,
                                  numeric=[False, False, True, True, False])
                     + "</section>")
    except Exception as e:
        parts.append(f'<div class="meta">tables unavailable: {esc(e)}</div>')


def _embedding_model(kb: Any) -> str:
    """The embedding tier and model recorded in the knowledge base (never loads a model)."""
    try:
        from hyrag.embed import META_DIM, META_MODEL, META_TIER

        tier, model, dim = (kb.store.meta(k) for k in (META_TIER, META_MODEL, META_DIM))
    except Exception:  # a display must never raise
        return "unknown"
    if not tier:
        return "not yet recorded (chosen at the first index or search)"
    return f"{tier}:{model}" + (f" ({dim} dims)" if dim else "")


# --------------------------------------------------------------------------- SQL results


def query_result_html(result: Any, *, max_rows: int = 50) -> str:
    rows = result.rows[:max_rows]
    more = len(result.rows) - len(rows)
    note = f"{len(result.rows)} rows" + (" (truncated by the row cap)" if result.truncated
                                          else "")
    if more:
        note += f"; first {len(rows)} shown"
    return (CSS + '<div class="hyrag hyrag-sql">' + table_html(result.columns, rows)
            + f'<div class="meta">{esc(note)} · {result.elapsed_ms:.1f} ms</div></div>')
