"""Row-label table questions: the fallback when the schema parser finds no direct evidence.

Financial statements and many workbooks are wide tables: a row label per line item ("Total
sales", "Other") and one column per period ("2019", "2018"). Ingestion melts them into cell
claims whose entity or attribute is the row label and whose `time_key` is the period. The
schema parser (`parser.py`) matches a question against the knowledge base's measures and
entities; it does not know that a row label *is* the measure, so "What was the change in Other
in 2019 from 2018?" maps onto nothing. This resolver reads the question the way an analyst
reads such a table:

- the row: the line item whose label words the question covers best (every content word of a
  short label, most words of a long one), among the cell claims of the knowledge base;
- the periods: the years the question names (`2019`, `2018`), matched to each claim's period;
- the operation: lookup; change / difference / increase (later minus earlier); percentage
  change / growth rate ((later - earlier) / earlier x 100); average of the named years (and the
  accounting convention "the 2019 average X" = mean of the 2019 and 2018 balances); sum /
  total of several years; ratio or proportion of two line items ("X to Y", "X over Y"); "what
  percentage of Y is X"; which year was the largest / smallest.

It returns requirements, verdicts, committed facts and derivations in the engine's own types,
so drafting, the ReverseVerifier, the decision and the audit record are exactly those of every
other answer. Nothing here knows any benchmark: the same code answers a user's workbook.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from hyrag.answer.commitment import CommitmentStore, Fact
from hyrag.answer.requirements import Requirement
from hyrag.answer.tools import Derivation, Operand, fmt
from hyrag.answer.warrant import Verdict

_STOP = {"the", "a", "an", "of", "in", "for", "and", "to", "on", "by", "at", "as", "is", "was",
         "were", "what", "which", "how", "much", "many", "did", "does", "do", "be", "been",
         "year", "years", "fy", "from", "between", "with", "its", "their", "company", "s",
         "amount", "value", "change", "difference", "percentage", "percent", "average",
         "ratio", "increase", "decrease", "sum", "proportion", "respectively", "both", "during",
         "end", "compared", "when", "than", "this", "that", "over", "under", "has", "have",
         "had", "are", "there", "those", "these", "yoy", "growth", "rate",
         "i", "e", "also", "while", "largest", "smallest", "highest", "lowest", "larger",
         "smaller", "higher", "lower", "greater", "less", "more", "most", "least", "all",
         "combined", "altogether", "reported", "year-on-year", "annual"}
_OPWORDS = {"total", "net", "sum", "mean"}
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
_CHANGE_RATIO = re.compile(r"percent(?:age)?\s+(?:change|increase|decrease|growth|decline)|"
                           r"%\s*change|growth rate|rate of (?:change|growth)|"
                           r"change in percent(?:age)?\b(?! of)", re.I)
_DIFF = re.compile(r"\b(change|difference|increase|decrease|grow|grew|decline|declined|"
                   r"rise|rose|fell|fall|differ)\b", re.I)
_AVG = re.compile(r"\b(average|mean|avg)\b", re.I)
_SUM = re.compile(r"\b(sum|combined|altogether|in total|total\s+(?:\w+\s+){0,6}?(?:in|for|of)\s+"
                  r"(?:19|20)\d{2}\s+and\s+(?:19|20)\d{2})\b", re.I)
_RATIO = re.compile(r"\b(ratio|proportion)\b", re.I)
_PCT_OF = re.compile(r"\bwhat (?:is the )?(?:percentage|percent|share) of\b|"
                     r"\bas a percentage of\b|\bpercentage of\b", re.I)
_RANGE = re.compile(r"\b(?:from|between)\s+((?:19|20)\d{2})\s+(?:to|and|through|-)\s+"
                    r"((?:19|20)\d{2})\b", re.I)
_WHICH_YEAR = re.compile(r"\b(?:which|what) (?:year|fy|fiscal year|period)\b", re.I)
_MAX = re.compile(r"\b(largest|highest|larger|higher|greater|most|maximum|bigger|biggest)\b",
                  re.I)
_MIN = re.compile(r"\b(smallest|lowest|smaller|lower|less|least|minimum|fewer)\b", re.I)


@dataclass(frozen=True)
class Resolved:
    requirements: list[Requirement]
    verdicts: list[Verdict]
    store: CommitmentStore
    derivations: list[Derivation]
    operation: str
    answer: object  # the value (float), a year (str) or the looked-up cell's displayed text
    scale: str  # "" | thousand | million | billion | percent
    match: float = 1.0  # how well the row labels cover the question's words (0..1)
    residue: int = 0  # content words of the question no row label explains


def _words(s: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", (s or "").lower().replace("’", "'"))
            if not _YEAR.fullmatch(w)]


def _stem(w: str) -> str:
    return w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w


def _content(s: str) -> set[str]:
    return {_stem(w) for w in _words(s) if w not in _STOP and not w.isdigit()}


_COLS = ("claim_id, entity, attribute, value_num, value_text, coalesce(scale, '') AS scale, "
         "coalesce(unit, '') AS unit, time_key, text, locator, coalesce(file, '') AS file, "
         "coalesce(table_name, '') AS table_name, conf_base, value_base")


def _cells(con) -> list[dict]:  # noqa: ANN001
    cur = con.cursor().execute(
        f"SELECT {_COLS} FROM claims WHERE NOT superseded AND kind = 'cell' "
        "AND value_num IS NOT NULL AND time_key IS NOT NULL")
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def _label(c: dict) -> str:
    """The line item a cell belongs to: its entity (the row label of a melted wide table), or
    its attribute when the entity is only the table's name."""
    if c["entity"] and c["entity"] != c["table_name"]:
        return c["entity"]
    return c["attribute"] or ""


def _rows(cells: list[dict], q: set[str], qtext: str) -> list[tuple[float, str]]:
    """(score, label) of the labels the question names, best first."""
    labels: dict[str, set[str]] = {}
    for c in cells:
        lab = _label(c)
        if lab not in labels:
            labels[lab] = _content(lab)
    out = []
    low = qtext.lower()
    for lab, ws in labels.items():
        if not ws:
            continue
        hit = ws & q
        if not hit:
            continue
        cover = len(hit) / len(ws)
        need = 1.0 if len(ws) <= 2 else 0.6
        if cover + 1e-9 < need:
            continue
        exact = 1.0 if re.sub(r"\s+", " ", lab.lower()) in low else 0.0
        out.append((exact + cover + 0.1 * len(hit), lab))
    out.sort(key=lambda x: (-x[0], len(x[1])))
    return out


def _year(c: dict) -> int | None:
    m = _YEAR.search(c["time_key"] or "")
    return int(m.group(1)) if m else None


_HEADER_SCALE = [
    ("billion", re.compile(r"\bbillions?\b|\$\s?bn\b|\b(?:usd|eur|gbp)\s?bn\b|[$€£]bn\b", re.I)),
    ("million", re.compile(r"\bmillions?\b|\$\s?m\b|[$€£]m\b|\b(?:usd|eur|gbp|dkk|sek|nok)\s?m"
                           r"(?:illion)?\b|\bm[$€£]\b", re.I)),
    ("thousand", re.compile(r"\bthousands?\b|[$€£]\s?[’']?000\b|\b(?:usd|eur|gbp)\s?[’']?000\b|"
                            r"\b000s\b|\(000\)", re.I)),
]


def _scale(c: dict) -> str:
    """The cell's scale: as ingestion recorded it, else a percent sign, else a scale its column
    header states ("2019 €m", "$'000", "($ in millions)")."""
    if c["scale"]:
        return c["scale"]
    if "%" in (c["value_text"] or "") or c["unit"] == "%":
        return "percent"
    head = f"{c['attribute'] or ''} {c['locator'] or ''}"
    for name, rx in _HEADER_SCALE:
        if rx.search(head):
            return name
    return ""


def resolve(question: str, con) -> Resolved | None:  # noqa: ANN001, C901, PLR0911, PLR0912
    cells = _cells(con)
    if not cells:
        return None
    years = [int(y) for y in _YEAR.findall(question)]
    uniq_years = list(dict.fromkeys(years))
    q = _content(question)
    ranked = _rows(cells, q, question)
    if not ranked:
        return None
    by_label: dict[str, dict[int, list[dict]]] = {}
    for c in cells:
        y = _year(c)
        if y is not None:
            by_label.setdefault(_label(c), {}).setdefault(y, []).append(c)

    attrs: dict[str, set[str]] = {}
    for c in cells:
        attrs.setdefault(_label(c), set()).add(c["attribute"] or "")

    def pick(label: str, year: int) -> dict | None:
        cs = by_label.get(label, {}).get(year, [])
        if len(attrs.get(label, ())) > 1:
            # an entity x column table (not a line item per row): the question must name the
            # column, and every word it uses must be explained by the row and the column — a
            # word left over ("revenue by customer") is a measure the table does not hold
            named = [c for c in cs if _content(c["attribute"] or "") and
                     _content(c["attribute"] or "") <= q]
            cs = [c for c in named if not (q - _content(label) - _content(c["attribute"] or "")
                                           - _OPWORDS)]
            if len(cs) > 1:
                return None
        if len(cs) == 1:
            return cs[0]
        if not cs:
            return None
        # several columns of one year (e.g. "Net Sales" and "% of Total"): prefer the one whose
        # own words the question uses, else an amount over a percentage
        want_pct = bool(re.search(r"\bpercent|%", question, re.I)) and op != "change_ratio"
        best = sorted(cs, key=lambda c: (-len(_content(c["time_key"] + " " + c["text"]) & q),
                                         ("%" in (c["value_text"] or "")) != want_pct,
                                         c["claim_id"]))
        return best[0]

    best_label = ranked[0][1]
    match = {lab: min(sc / 2.0, 1.0) for sc, lab in ranked[:2]}  # exact + cover, over 2
    years_of = sorted(by_label.get(best_label, {}))
    op = "lookup"
    if re.search(r"\brespective(?:ly)?\b", question, re.I) and len(uniq_years) >= 2:
        op = "each"
    elif _WHICH_YEAR.search(question) and (_MAX.search(question) or _MIN.search(question)):
        op = "argmax" if _MAX.search(question) else "argmin"
    elif _CHANGE_RATIO.search(question):
        op = "change_ratio"
    elif _AVG.search(question):
        op = "average"
    elif _PCT_OF.search(question) and len(ranked) >= 2:
        op = "percent_of"
    elif _RATIO.search(question) and len(ranked) >= 2:
        op = "ratio"
    elif _DIFF.search(question):
        op = "difference"
    elif _SUM.search(question) or (re.search(r"\btotal\b", question, re.I)
                                   and len(uniq_years) >= 2):
        op = "sum"
    store = CommitmentStore()
    reqs: list[Requirement] = []
    verdicts: list[Verdict] = []

    def commit(label: str, c: dict) -> Operand:
        rid = f"R{len(reqs) + 1}"
        y = _year(c)
        req = Requirement(rid, label, c["attribute"] or label, period=str(y) if y else None)
        fact = Fact(
            claim_id=c["claim_id"], requirement=rid, source=c["file"] or c["table_name"],
            locator=c["locator"], text=re.sub(r"^\[[^\]]*\]\s*", "", c["text"] or ""),
            entity=label, attribute=c["attribute"] or label, value=c["value_num"],
            value_text=c["value_text"] or "", value_base=c["value_base"], unit=c["unit"],
            scale=c["scale"], time_key=c["time_key"], kind="cell", table=c["table_name"],
            score=match.get(label, 0.5), warrant_query=f"row label {label!r} period {y}",
            confidence=float(c["conf_base"] or 0.0))
        store.commit(fact)
        reqs.append(req)
        verdicts.append(Verdict(req, "direct", (c["claim_id"],)))
        return Operand(c["claim_id"], float(c["value_num"]), f"{label} {y}".strip(),
                       len(reqs))

    def done(derivs: list[Derivation], answer: object, scale: str, name: str) -> Resolved:
        used = set().union(*(_content(r.entity or "") for r in reqs)) if reqs else set()
        residue = len(q - used - _OPWORDS)
        return Resolved(reqs, verdicts, store, derivs, name, answer, scale,
                        min(match.get(r.entity or "", 0.5) for r in reqs) if reqs else 0.0,
                        residue)

    if op in ("argmax", "argmin"):
        ys = [y for y in (uniq_years or years_of) if pick(best_label, y)]
        if len(ys) < 2:
            return None
        cs = [(pick(best_label, y), y) for y in ys]
        for c, _ in cs:
            commit(best_label, c)  # type: ignore[arg-type]
        vals = [(c["value_num"], y) for c, y in cs]  # type: ignore[index]
        win = max(vals) if op == "argmax" else min(vals)
        if sum(1 for v, _ in vals if v == win[0]) > 1:
            return None
        return done([], str(win[1]), "", op)
    if op in ("ratio", "percent_of"):
        if len(ranked) < 2 or len(uniq_years) > 1:
            return None
        a_lab, b_lab = _order_pair(question, ranked[0][1], ranked[1][1], op)
        y = uniq_years[0] if uniq_years else _latest_common(by_label, a_lab, b_lab)
        if y is None:
            return None
        ca, cb = pick(a_lab, y), pick(b_lab, y)
        if ca is None or cb is None or not cb["value_num"]:
            return None
        oa, ob = commit(a_lab, ca), commit(b_lab, cb)
        if op == "ratio":
            r = round(oa.value / ob.value, 2)
            d = Derivation("ratio", f"{fmt(oa.value)} / {fmt(ob.value)}", (oa, ob), r)
            return done([d], r, "", op)
        r = round(oa.value / ob.value * 100, 2)
        d = Derivation("ratio", f"{fmt(oa.value)} / {fmt(ob.value)} x 100", (oa, ob), r, "%")
        return done([d], r, "percent", op)
    label = best_label
    if op == "lookup":
        if len(uniq_years) != 1:
            return None
        c = pick(label, uniq_years[0])
        if c is None:
            return None
        commit(label, c)
        if "%" in (c["value_text"] or ""):
            return done([], c["value_text"].strip(), "", op)  # "13.0%": displayed as a percent
        return done([], c["value_num"], _scale(c), op)
    rng = _RANGE.search(question)
    if rng and op in ("average", "sum"):
        a, b = sorted((int(rng.group(1)), int(rng.group(2))))
        if 1 < b - a <= 30:
            uniq_years = list(range(b, a - 1, -1))
    if op == "each":  # "X in 2019 and 2018 respectively": one value per year, in that order
        cs = [pick(label, y) for y in uniq_years]
        if any(c is None for c in cs):
            return None
        for c in cs:
            commit(label, c)  # type: ignore[arg-type]
        vals = [c["value_text"].strip() if "%" in (c["value_text"] or "") else c["value_num"]
                for c in cs]  # type: ignore[index]
        return done([], vals, "" if any(isinstance(v, str) for v in vals) else _scale(cs[0]),
                    op)  # type: ignore[arg-type]
    if op == "average" and len(uniq_years) == 1:
        uniq_years = [uniq_years[0], uniq_years[0] - 1]  # "the 2019 average": opening+closing
    if not uniq_years:
        uniq_years = sorted(years_of, reverse=True)[:2] if op in ("difference",
                                                                  "change_ratio") else []
    if len(uniq_years) < 2:
        return None
    cs = [pick(label, y) for y in uniq_years]
    if any(c is None for c in cs):
        return None
    ops = [commit(label, c) for c in cs]  # type: ignore[arg-type]
    sc = _scale(cs[0])  # type: ignore[arg-type]
    if op in ("difference", "change_ratio"):
        pairs = sorted(zip(uniq_years, ops, strict=True))
        old, new = pairs[0][1], pairs[-1][1]
        if op == "difference":
            r = round(new.value - old.value, 2)
            return done([Derivation("difference", f"{fmt(new.value)} - {fmt(old.value)}",
                                    (new, old), r)], r, sc, op)
        if old.value == 0:
            return None
        r = round((new.value - old.value) / old.value * 100, 2)
        if old.value < 0:
            return None  # a change ratio over a negative base has no agreed sign
        return done([Derivation("growth", f"({fmt(new.value)} - {fmt(old.value)}) / "
                                f"{fmt(abs(old.value))} x 100", (old, new), r, "%")],
                    r, "percent", op)
    if op == "average":
        r = round(math.fsum(o.value for o in ops) / len(ops), 2)
        return done([Derivation("mean", f"({' + '.join(fmt(o.value) for o in ops)}) / "
                                f"{len(ops)}", tuple(ops), r)], r, sc, op)
    if op == "sum":
        r = round(math.fsum(o.value for o in ops), 2)
        return done([Derivation("sum", " + ".join(fmt(o.value) for o in ops), tuple(ops), r)],
                    r, sc, op)
    return None


def _order_pair(question: str, a: str, b: str, op: str) -> tuple[str, str]:
    """Numerator first: the label mentioned first ("ratio of X to Y", "X over Y", "the
    percentage of X in total Y")."""
    low = question.lower()

    def pos(lab: str) -> int:
        ws = [w for w in _words(lab) if _stem(w) in _content(lab)]
        idx = [low.find(w) for w in ws if low.find(w) >= 0]
        return min(idx) if idx else 10 ** 6
    first, second = (a, b) if pos(a) <= pos(b) else (b, a)
    return first, second


def _latest_common(by_label: dict, a: str, b: str) -> int | None:
    common = set(by_label.get(a, {})) & set(by_label.get(b, {}))
    return max(common) if common else None
