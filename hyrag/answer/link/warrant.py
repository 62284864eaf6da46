"""The Warrant stage (seed 000 section IV.C, seed 001): each requirement earns its evidence.

For a requirement the gate runs one *warrant search* for its entity-attribute pair: the claims
table is read structurally (entity, attribute, period) and fused with the Horizon's ranked
claims (`kb.search`), and every candidate must pass the Result Relevance Rule — its entity and
its attribute match the requirement's, whatever its similarity. The requirement's support is
then direct, partial (right entity and attribute, another period), absent or conflicting
(sources that disagree beyond their displayed precision). When the structural path finds no
claim and the requirement is computable from a typed table, the SQL route computes it.

Knowledge Gap Recognition Rule: one failed warrant search for an entity-attribute pair
registers a Knowledge Gap, and `search` refuses a second search for that pair
(`KnowledgeGapRefused`) — the rule is enforced in code, not left to a prompt.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

from hyrag.answer.link.commitment import CommitmentStore, Fact, Gap
from hyrag.answer.parse.catalog import Catalog, norm
from hyrag.answer.parse.requirements import Requirement
from hyrag.errors import HyragError

if TYPE_CHECKING:  # text2sql imports sqlglot: only the SQL route needs it (issue 20)
    from hyrag.answer.execute.text2sql import CompiledSQL

SUPPORT = ("direct", "partial", "absent", "conflicting")
_SCALE = {"": 1.0, "thousand": 1e3, "million": 1e6, "billion": 1e9, "percent": 1.0}
# the columns of a claims row as the stages that weigh evidence read it (`claim_rows`)
CLAIM_COLUMNS = ("claim_id, kind, coalesce(table_name, '') AS table_name, entity, attribute, "
                 "value_text, value_num, value_base, coalesce(scale, '') AS scale, "
                 "coalesce(unit, '') AS unit, time_key, order_key, text, locator, "
                 "coalesce(file, '') AS file, conf_base, support, contradict")


def claim_rows(con, where: str, params: list, order: str | None = None,
               limit: int | None = None) -> list[dict]:
    """The current claims (`CLAIM_COLUMNS`) matching `where`, as dicts (in `order` and at most
    `limit`, when given): the one read of claims rows every stage that weighs evidence
    shares."""
    cur = con.cursor().execute(
        f"SELECT {CLAIM_COLUMNS} FROM claims WHERE NOT superseded AND ({where})"
        + (f" ORDER BY {order}" if order else "") + (" LIMIT ?" if limit is not None else ""),
        [*params, *([limit] if limit is not None else [])])
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


class KnowledgeGapRefused(HyragError):
    """KGRR: a second warrant search for an entity-attribute pair already declared a gap."""


@dataclass(frozen=True)
class Verdict:
    requirement: Requirement
    support: str
    evidence: tuple[str, ...] = ()  # claim ids committed for this requirement
    limit: str = ""  # what the evidence does not establish
    periods_available: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        d = self.requirement.to_dict()
        d.update(support=self.support, evidence_refs=list(self.evidence), limit=self.limit)
        return d


@dataclass
class WarrantLog:
    searches: list[dict] = field(default_factory=list)
    rejected: list[dict] = field(default_factory=list)  # RRR rejections (entity/attr mismatch)


def _decimals(text: str) -> int:
    m = re.search(r"\d[\d,]*\.(\d+)", text or "")
    return len(m.group(1)) if m else 0


def agree(a: dict, b: dict) -> bool:
    """Two values agree when they differ by less than half a unit of the coarser display."""
    va, vb = a["value_base"], b["value_base"]
    if va is None or vb is None:
        return va == vb
    tol = max(0.5 * 10 ** -_decimals(a["value_text"]) * _SCALE.get(a["scale"], 1.0),
              0.5 * 10 ** -_decimals(b["value_text"]) * _SCALE.get(b["scale"], 1.0))
    return math.isclose(va, vb, rel_tol=1e-9, abs_tol=tol + 1e-9)


def group_agreeing(rows: list[dict]) -> list[list[dict]]:
    """Rows grouped by `agree` with each group's first row, in order: one group is a single
    committed value, several are sources that disagree."""
    groups: list[list[dict]] = []
    for r in rows:
        for g in groups:
            if agree(g[0], r):
                g.append(r)
                break
        else:
            groups.append([r])
    return groups


class WarrantGate:
    def __init__(self, con, cat: Catalog, store: CommitmentStore, *,
                 top_k: int, horizon: list | None = None, sql_runner=None,
                 exploratory: bool = False, horizon_fn=None,
                 as_of: object = None) -> None:
        self.con = con
        self.cat = cat
        self.store = store
        self.top_k = top_k
        self.horizon = horizon or []
        self.horizon_fn = horizon_fn  # called once, at the first pair the structure misses
        self.as_of = as_of  # claims effective after this date are not eligible (seed 001)
        self.sql_runner = sql_runner
        self.exploratory = exploratory
        self.failed: dict[tuple[str, str], str] = {}  # KGRR registry: pair -> reason
        self._cache: dict[tuple[str, str], list[dict]] = {}
        self.log = WarrantLog()

    # -- the one search per entity-attribute pair ------------------------------------------
    def search(self, req: Requirement) -> list[dict]:
        pair = req.pair
        if pair in self.failed:
            raise KnowledgeGapRefused(
                f"refused: a warrant search for ({req.entity or '-'}, {req.attribute}) already "
                f"failed and is a Knowledge Gap ({self.failed[pair]})")
        if pair in self._cache:
            return self._cache[pair]
        rows: list[dict] = []
        if req.entity and req.forms:
            ents = [e.lower() for e in (req.entity_forms or (req.entity,))]
            forms = sorted({f.lower() for f in req.forms})
            where = (f"lower(entity) IN ({','.join('?' * len(ents))}) AND lower(attribute) IN "
                     f"({','.join('?' * len(forms))})"
                     + (" AND (effective_date IS NULL OR effective_date <= CAST(? AS DATE))"
                        if self.as_of is not None else ""))
            params = [*ents, *forms] + ([str(self.as_of)] if self.as_of is not None else [])
            rows = [r | {"score": 1.0, "via": "structural"} for r in claim_rows(
                self.con, where, params, order="order_key NULLS LAST, claim_id")]
        elif req.entity:  # an attribute no claim carries: look for negations of the entity
            rows = []
        seen = {r["claim_id"] for r in rows}
        if not rows and self.horizon_fn is not None:  # the lazy Horizon: recall when the
            self.horizon = self.horizon_fn()  # structural fetch found nothing for this pair
            self.horizon_fn = None
        for h in self.horizon:  # fuse the Horizon's candidates that pass the RRR
            if h["claim_id"] in seen:
                continue
            if self._relevant(req, h):
                rows.append(h | {"via": "horizon"})
            else:
                self.log.rejected.append({"requirement": req.rid, "claim_id": h["claim_id"],
                                          "entity": h.get("entity"),
                                          "attribute": h.get("attribute"),
                                          "reason": "entity or attribute does not match"})
        self.log.searches.append({"requirement": req.rid, "entity": req.entity,
                                  "attribute": req.attribute, "found": len(rows)})
        self._cache[pair] = rows
        return rows

    def _relevant(self, req: Requirement, c: dict) -> bool:
        """Result Relevance Rule: entity and attribute must both match the requirement."""
        if not req.entity or norm(c.get("entity") or "") != norm(req.entity):
            return False
        attr = (c.get("attribute") or "").lower()
        return attr in {f.lower() for f in req.forms}

    # -- evaluation ------------------------------------------------------------------------
    def evaluate(self, req: Requirement) -> Verdict:
        if req.entity is None:
            return self._compute(req)
        rows = self.search(req)
        rows = [r for r in rows if self._agg_ok(req, r)]
        negated = [r for r in rows if (r["text"] or "").startswith("[negated]")]
        rows = [r for r in rows if r not in negated]
        if req.scope:
            scoped = [r for r in rows if r["table_name"] in req.scope]
            if scoped:
                rows = scoped
        if not rows:
            negs = negated if negated else self._negations(req)
            if req.sql_table and req.filters and not negated:
                return self._compute(req)
            reason = (f"{negs[0]['file']} states it is not disclosed: \"{_plain(negs[0])}\""
                      if negs else "one warrant search for this entity and attribute found no "
                      "claim that matches both")
            return self._gap(req, reason)
        chosen, limit, partial, periods = self._by_period(req, rows)
        if partial:
            self._gap(req, f"no value for {req.period}; the knowledge base has it for "
                           f"{', '.join(periods)}", register=False)
            return Verdict(req, "partial", (), limit, periods)
        if not chosen:  # several periods and none named
            if req.sql_table and req.agg and all(r["kind"] == "aggregate" for r in rows):
                return self._compute(req)  # per-period aggregates; the table gives the whole
            return Verdict(req, "partial", (), limit, periods)
        chosen.sort(key=lambda r: ({"cell": 0, "text": 1, "aggregate": 2}.get(r["kind"], 3),
                                   -(r["conf_base"] or 0), r["claim_id"]))
        groups = group_agreeing(chosen)
        committed = [g[0] for g in groups] if len(groups) > 1 else groups[0][: self.top_k]
        for r in committed[: max(self.top_k, len(groups))]:
            self.store.commit(self._fact(req, r))
        support = "conflicting" if len(groups) > 1 else "direct"
        if support == "conflicting":
            limit = "sources disagree: " + "; ".join(
                f"{g[0]['value_text']} ({', '.join(sorted({x['file'] or x['table_name'] for x in g}))})"
                for g in groups)
        return Verdict(req, support, tuple(r["claim_id"] for r in committed), limit, periods)

    def _agg_ok(self, req: Requirement, r: dict) -> bool:
        if r["kind"] != "aggregate":
            return True
        a = (r["attribute"] or "").lower()
        if a.startswith("average "):
            return req.agg == "average"
        if a.startswith("total "):
            return req.agg in (None, "total")
        return True

    def _by_period(self, req: Requirement, rows: list[dict]):
        periods = tuple(sorted({r["time_key"] for r in rows if r["time_key"]}))
        if req.period:
            exact = [r for r in rows if r["time_key"] == req.period]
            if exact:
                return exact, "", False, periods
            lo, hi = req.interval or (-math.inf, math.inf)
            inside = [r for r in rows if r["order_key"] is not None and lo <= r["order_key"] <= hi]
            if inside:
                return inside, f"the evidence is for {', '.join(sorted({r['time_key'] for r in inside}))}", False, periods
            undated = [r for r in rows if not r["time_key"]]
            if undated:
                return undated, "the source states no period", False, periods
            return [], f"no value for {req.period}", True, periods
        top = {r["time_key"] for r in rows}
        if len(top) <= 1:
            return rows, "", False, periods
        if self.exploratory:
            latest = max(rows, key=lambda r: r["order_key"] or -math.inf)["time_key"]
            return [r for r in rows if r["time_key"] == latest], \
                f"the latest period ({latest}) was chosen", False, periods
        return [], f"several periods ({', '.join(periods)}) and none named", False, periods

    def _negations(self, req: Requirement) -> list[dict]:
        """'X does not disclose its Y': a negated claim of the entity naming the attribute."""
        if not req.entity:
            return []
        ents = [e.lower() for e in (req.entity_forms or (req.entity,))]
        words = set(norm(req.attribute).split())
        out = []
        for d in claim_rows(self.con, f"text LIKE '[negated]%' AND lower(entity) IN "
                                      f"({','.join('?' * len(ents))})", ents):
            if words and words <= set(norm(d["attribute"] or "").split()):
                out.append(d)
        return out

    def _gap(self, req: Requirement, reason: str, *, register: bool = True) -> Verdict:
        self.store.declare_gap(Gap(req.entity, req.attribute, req.period, reason, req.rid))
        if register:
            self.failed[req.pair] = reason
        return Verdict(req, "absent", (), reason)

    def _fact(self, req: Requirement, r: dict) -> Fact:
        return fact_of(r, req.rid, f"entity={req.entity!r} attribute={req.attribute!r}"
                                   f"{' period=' + repr(req.period) if req.period else ''}")

    # -- the SQL route ---------------------------------------------------------------------
    def _compute(self, req: Requirement) -> Verdict:
        if self.sql_runner is None or not req.sql_table:
            return self._gap(req, "no table holds this measure for the named scope")
        pair = req.pair + (req.period or "", repr(req.filters))
        if pair in self.failed:
            raise KnowledgeGapRefused(f"refused: computing {req.label()} already failed")
        compiled: CompiledSQL
        try:
            compiled, result = self.sql_runner(req)
        except HyragError as e:
            self.failed[pair] = str(e)
            return self._gap(req, f"the SQL route could not compute it: {e}")
        self.log.searches.append({"requirement": req.rid, "sql": compiled.sql,
                                  "rows": len(result.rows)})
        if not result.rows or result.rows[0][-1] is None:
            self.failed[pair] = "no rows"
            return self._gap(req, f"no rows of {compiled.table} match ({compiled.sql})")
        ids = []
        for row in result.rows:
            value = float(row[-1])
            group = row[0] if compiled.group_by else None
            fid = "sql:" + hashlib.sha256(f"{compiled.sql}|{group}".encode()).hexdigest()[:12]
            unit = self.cat.tables[compiled.table].units.get(compiled.measure or "", "")
            what = _describe(compiled, req, group)
            shown = f"{value:,.2f}" if not value.is_integer() else f"{int(value):,}"
            self.store.commit(Fact(
                claim_id=fid, requirement=req.rid, source="sql",
                locator=json.dumps({"sql": compiled.sql, "table": compiled.table},
                                   ensure_ascii=False),
                text=f"{what} was {shown}{' ' + unit if unit else ''}.",
                entity=group or req.entity, attribute=req.attribute, value=value,
                value_text=shown, value_base=value, unit=unit, scale="", time_key=req.period,
                kind="sql", table=compiled.table, score=1.0, warrant_query=compiled.sql,
                operands=tuple(getattr(result, "operands", ()) or ()),
                rows_read=getattr(result, "rows_read", None),
            ))
            ids.append(fid)
        limit = "rewrote " + ", ".join(f"{a!r} to {b!r}" for a, b in compiled.rewrites) \
            if compiled.rewrites else ""
        return Verdict(req, "direct", tuple(ids), limit)


def fact_of(r: dict, requirement: str, warrant_query: str) -> Fact:
    """A claims row (`CLAIM_COLUMNS`) committed for `requirement`, found by `warrant_query`."""
    return Fact(
        claim_id=r["claim_id"], requirement=requirement, source=r["file"] or r["table_name"],
        locator=r["locator"], text=_plain(r), entity=r["entity"], attribute=r["attribute"],
        value=r["value_num"], value_text=r["value_text"] or "", value_base=r["value_base"],
        unit=r["unit"], scale=r["scale"], time_key=r["time_key"], kind=r["kind"],
        table=r["table_name"] or None, score=float(r.get("score") or 0.0),
        warrant_query=warrant_query, confidence=float(r["conf_base"] or 0.0),
    )


def _plain(r: dict) -> str:
    t = r.get("text") or ""
    t = re.sub(r"^\[negated\]\s*", "", t)
    return re.sub(r"^\[[^\]]*\]\s*", "", t)


def _describe(c: CompiledSQL, req: Requirement, group: object) -> str:
    agg = {"total": "total", "average": "average", "median": "median", "max": "largest",
           "min": "smallest", "count": "number of rows", "stdev": "standard deviation"}[c.agg]
    what = f"{agg} {c.measure}" if c.measure and c.agg != "count" else f"number of {c.table} rows"
    where = [f"{v}" for _, v in c.filters]
    if group is not None:
        where.insert(0, f"{c.group_by} {group}")
    s = f"The {what} in {c.table}"
    if where:
        s += " for " + ", ".join(where)
    if req.period:
        s += f" in {req.period}"
    return s


def verdicts_to_dicts(vs: list[Verdict]) -> list[dict]:
    return [v.to_dict() for v in vs]


__all__ = ["CLAIM_COLUMNS", "SUPPORT", "KnowledgeGapRefused", "Verdict", "WarrantGate", "agree",
           "asdict", "claim_rows", "fact_of"]
