"""`hyrag bench tatqa --data tatqa_dataset_dev.json`: TAT-QA (Zhu et al., ACL 2021; data CC BY 4.0)
end to end, offline, no LLM.

For each document: a fresh knowledge base; its table ingested as a DataFrame (the leading rows
that hold no amount are the header — periods, units — and become the column names, joined per
column; a scale declared in the header captions or, failing that, in the prose — "(in
thousands)" — is the table's title, so every amount carries it), its paragraphs as text; then each of its questions through `kb.ask`'s engine. The
prediction is the answer's `values` with its `scale` (`hyrag.answer.values`: a reader's value,
a derivation's result, the committed cell, or the year a "which year" question names); an
answer whose decision is not `answer` has none: an abstention (empty prediction). Scoring re-implements TAT-QA's published conventions: numbers
normalised to four decimals after multiplying by the scale (percent 0.01), so the scale must
match; multi-span answers compared as a bag; arithmetic and count F1 equal to EM.

Printed: EM/F1 by answer type and by source, the table-cell lookup / arithmetic subset, the
abstention rate, the share of answers whose numbers all pass grounding, the precision of
non-abstained answers, TagOp's published figures beside ours, and — with `--calibrate` — the
abstention threshold calibrated on the even-numbered documents and a reliability table on the
odd-numbered ones. `--out FILE` writes every prediction (uid, answer, scale, decision) as JSON.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import string
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

TAGOP = {"EM": 50.1, "F1": 58.0, "split": "test"}
_VALUE = re.compile(r"^[\s$€£¥(]*[-−]?[\d,]*\d(?:\.\d+)?\s*%?\)?\s*$")
_SCALE_MULT = {"": 1.0, "thousand": 1e3, "million": 1e6, "billion": 1e9, "percent": 0.01}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", required=False, default=None,
                   help="tatqa_dataset_dev.json (TAT-QA's dataset_raw format)")
    p.add_argument("--out", default=None, help="write every prediction as JSON")
    p.add_argument("--limit", type=int, default=None, help="the first N questions")
    p.add_argument("--policy", default="relevance", choices=("relevance", "random", "ecr"),
                   help="claim-selection policy (seed 003 Table 4); relevance only offline")
    p.add_argument("--trust", default="balanced")
    p.add_argument("--plot", default=None, metavar="DIR",
                   help="write reliability and accuracy-by-answer-type PNGs (needs matplotlib)")
    p.add_argument("--calibrate", action="store_true",
                   help="calibrate the abstention threshold on even documents, report on odd")
    from hyrag.llm.bench import add_arguments as llm_arguments  # --llm, --llm-steps

    llm_arguments(p)


# -- the document as a user would load it ----------------------------------------------------
def _is_amount(s: str) -> bool:
    s = (s or "").strip()
    return bool(s) and bool(_VALUE.match(s)) and not re.fullmatch(r"(?:19|20)\d{2}", s)


_SCALES = (("billions", r"billion|[$€£]\s?bn\b"),
           ("thousands", r"thousand|[$€£]\s?[’']?000|\b000s?\b|\$k\b"),
           ("millions", r"million|[$€£]\s?m\b|\b(?:usd|eur|gbp)\s?m\b"))
_SCALE_WORDS = "|".join(rx for _, rx in _SCALES)


def table_frame(grid: list[list[str]]):  # noqa: ANN201 - pandas.DataFrame
    """The table as a DataFrame: leading rows without an amount are the header; each column's
    name joins its own header cells (a caption spanning the columns — "Years Ended December
    31," — is left out, so the period stays readable); a scale the captions name ("$ in
    millions", "$'000") becomes the frame's title "(in millions)" (`df.attrs`), which
    ingestion gives every amount, as it does a title line above a sheet's table — the column
    names stay bare periods, so the wide table still melts into (line item, period) claims.
    A header block the body repeats (one table per period, stacked) is read as such
    (`_repeated_headers`, `_stack_blocks`): not as line items."""
    import pandas as pd

    width = max(len(r) for r in grid)
    rows = [[str(c or "") for c in r] + [""] * (width - len(r)) for r in grid]
    k = 0
    while k < len(rows) - 1 and not any(_is_amount(c) for c in rows[k][1:]):
        k += 1
    k = max(k, 1)
    while k > 1 and rows[k - 1][0].strip() and not any(c.strip() for c in rows[k - 1][1:]) \
            and not re.search(r"^\(.*\)$|thousand|million|billion|\b000s?\b",
                              rows[k - 1][0].strip(), re.I) \
            and any(c.strip() for r in rows[:k - 1] for c in r[1:]):
        # labels alone right under the column headings ("Current:", "Revenue:") head the
        # first rows' section, as the same rows lower down do: body rows, not captions
        k -= 1
    head = _spread_groups(rows[:k])
    caption, scale, cols = _column_names(head, width)
    body = [r for r in rows[k:] if any(x.strip() for x in r)]
    blocks = _repeated_headers(rows, k)
    if blocks:
        cols, body = _stack_blocks(rows, k, blocks, (caption, cols))
    seen: dict[str, int] = {}
    uniq = []
    for c in cols:
        seen[c] = seen.get(c, 0) + 1
        uniq.append(c if seen[c] == 1 else f"{c} ({seen[c]})")
    frame = pd.DataFrame(body, columns=uniq)
    title = [f"(in {scale})"] if scale else []
    if not blocks and _one_year(caption) and not any(_one_year(c) for c in cols[1:]):
        # a caption naming the table's one year ("Common Stock Price Range 2018" over "Low |
        # High") is its title, as a sheet's title line is: it dates the figures of a table
        # whose own columns and rows name no period (`tableqa_rows.title_year`)
        title.insert(0, re.sub(r"\s*\((?:in|\$|amounts)[^)]*\)", "", caption).strip())
    if title:
        frame.attrs["title"] = " ".join(title)
    return frame


def _one_year(text: str) -> bool:
    return len(set(re.findall(r"(?<!\d)(?:19|20)\d{2}(?!\d)", text))) == 1


def _column_names(head: list[list[str]], width: int) -> tuple[str, str, list[str]]:
    """(caption, scale, column names) of a header block: each column's name joins its own
    header cells; a caption spanning the columns is left out of the names (`table_frame`)."""
    caption = " ".join(r[0].strip() for r in head if r[0].strip())
    # a caption spans the columns: one heading alone in its row, or one scale repeated over
    # every column ("RMB'Million | RMB'Million | ..."), which says the same of each of them
    spanning = _spanning(head, width)
    caption += " " + " ".join(c.strip() for h, sp in zip(head, spanning, strict=True) if sp
                              for c in h[1:] if c.strip())
    scale = next((name for name, rx in _SCALES if re.search(rx, caption, re.I)), "")
    cols = []
    for j in range(width):
        if j == 0:
            parts = [h[0].strip() for h in head if h[0].strip()]
            cols.append(" ".join(parts) or "item")
            continue
        parts = [h[j].strip() for h, sp in zip(head, spanning, strict=True)
                 if h[j].strip() and not sp]
        if not parts:  # only a spanning caption above: it is this column's header
            parts = [h[j].strip() for h in head if h[j].strip()]
        cols.append(" ".join(parts) or f"column {j}")
    return caption.strip(), scale, cols


def _spanning(head: list[list[str]], width: int) -> list[bool]:
    return [width > 2 and (sum(1 for c in h[1:] if c.strip()) <= 1 or (
        len({c.strip() for c in h[1:]}) == 1 and bool(re.search(_SCALE_WORDS, h[1], re.I))))
        for h in head]


def _shape(row: list[str]) -> frozenset[int]:
    return frozenset(j for j, c in enumerate(row) if j and c.strip())


def _repeated_headers(rows: list[list[str]], k: int) -> list[int]:
    """Where the body repeats the header block: the first rows of the second, third ...
    stacked table. A report prints one table per period one under the other ("As of December
    31, 2019" over "Amortized Cost | Unrealized Gains ..." and its rows, then "As of December
    31, 2018" over the same headings and its rows); a run of body rows without a label or an
    amount, laid out cell for cell as the header rows are (the same columns filled, row by
    row), and followed by a row with an amount, is such a header again — not line items."""
    if k < 2:
        return []
    shape = [_shape(r) for r in rows[:k]]
    if rows[0][0].strip() or any(r[0].strip() for r in rows[:k]) or not all(shape):
        return []
    out = []
    i = k
    while i + k < len(rows):
        run = rows[i:i + k]
        if [_shape(r) for r in run] == shape and not any(r[0].strip() for r in run) \
                and not any(_is_amount(c) for r in run for c in r[1:]) \
                and any(_is_amount(c) for c in rows[i + k][1:]):
            out.append(i)
            i += k
            continue
        i += 1
    return out


def _stack_blocks(rows: list[list[str]], k: int, starts: list[int],
                  first: tuple[str, list[str]]) -> tuple[list[str], list[list[str]]]:
    """(column names, body rows) of tables stacked one per period (`_repeated_headers`).
    When the blocks name their columns alike ("Amortized Cost | ..." under "As of December 31,
    2019", then under "As of December 31, 2018") the columns are one table's, and what tells
    the blocks apart is their spanning caption: it becomes a heading row above its block's
    rows, as "As of December 31, 2018" heads them in the report (`ingest.sections` reads the
    rows beneath in that period). When the blocks name their columns differently (dates of
    2019 above, of 2018 below), each block's columns are columns of their own, side by side,
    and a line item the blocks share ("High", "Low" in each) is one row across them."""
    bounds = [0, *starts]
    ends = [*starts, len(rows)]
    blocks = []
    for a, b in zip(bounds, ends, strict=True):
        head = _spread_groups(rows[a:a + k])
        caption, _, cols = _column_names(head, len(rows[0]))
        body = [r for r in rows[a + k:b] if any(x.strip() for x in r)]
        blocks.append((caption, cols, body))
    width = len(rows[0])
    if all(cols == first[1] for _, cols, _ in blocks):
        captions = [c for c, _, _ in blocks]
        headed = all(captions) and len(set(captions)) == len(captions)
        out = []
        for caption, _, body in blocks:
            if headed:
                out.append([caption] + [""] * (width - 1))
            out += body
        return first[1], out
    cols = [first[1][0]] + [c for _, cs, _ in blocks for c in cs[1:]]
    labels = [[r[0].strip() for r in body] for _, _, body in blocks]
    if all(ls == labels[0] for ls in labels) and len(set(labels[0])) == len(labels[0]):
        return cols, [[r[0]] + [c for _, _, body in blocks for c in body[i][1:]]
                      for i, r in enumerate(blocks[0][2])]
    out = []
    for n, (_, _, body) in enumerate(blocks):
        for r in body:
            out.append([r[0]] + [c for m in range(len(blocks)) for c in (
                r[1:] if m == n else [""] * (width - 1))])
    return cols, out


def _spread_groups(head: list[list[str]]) -> list[list[str]]:
    """The header rows with each group heading spread over the columns it stands over: a row
    naming two or more groups ("Financial assets | | Financial liabilities | " above "2019 |
    2018 | 2019 | 2018") writes each group once, in its first column, as a merged cell shows
    it; the columns after it, up to the next group, are that group's too. So "2018" under
    "Financial liabilities" is named "Financial liabilities 2018", not a bare "2018" that
    reads as the first group's. Only a row whose groups tile the amount columns from the
    first one in equal widths is read so (the same sub-columns under each group): a heading
    centred over its columns ("| | Fiscal year | | % Change") or groups of uneven widths
    ("F19 | F18 | | " over "53 weeks | 52 weeks | Change | Change normalised") do not show
    which columns are whose, and stay as they were. A row with one heading only is the
    table's caption."""
    out = [list(h) for h in head]
    width = len(out[0]) if out else 0
    for h in out[:-1]:
        at = [j for j in range(1, width) if h[j].strip()]
        spans = {b - a for a, b in zip(at, [*at[1:], width], strict=False)}
        if len(at) < 2 or at[0] != 1 or len(spans) != 1 or spans.pop() < 2:
            continue
        for j in range(1, width):
            if not h[j].strip():
                h[j] = h[j - 1]
    return out


def table_caption(paragraphs: list[str], grid: list[list[str]] | None = None) -> str:
    """The scale the report's prose declares for its table ("Other assets consist of the
    following (in thousands):"), as the table's title "(in thousands)" — what a reader carries
    from the caption to every amount. Only a declaration counts (`ingest.captions`), reduced
    to its scale so the caption's other words do not become the table's subject; paragraphs
    that declare different scales leave the table without one (which one is the table's is
    not knowable). With no declaration, the scale under which the prose quotes the table's
    own cells ("net income of $24.2 million" beside 24,193: thousands;
    `captions.scale_from_prose`)."""
    from ingest.captions import scale_declaration, scale_from_prose

    found = {scale_declaration(p)[0] for p in paragraphs} - {""}
    if len(found) == 1:
        return f"(in {found.pop()}s)"
    if found or not grid:
        return ""
    cells = [n for row in grid for c in row[1:] if _is_amount(c) and "%" not in c
             and (n := _to_number(c)) is not None]
    inferred = scale_from_prose(cells, paragraphs)
    return f"(in {inferred}s)" if inferred else ""


# -- TAT-QA's scoring conventions (re-implemented) -------------------------------------------
def _to_number(s: str) -> float | None:
    t = str(s).strip().replace(",", "").replace("$", "").replace("€", "").replace("£", "")
    t = t.replace("−", "-").strip()
    neg = t.startswith("(") and t.endswith(")")
    t = t.strip("()").strip()
    t = t.rstrip("%").strip()
    try:
        v = float(t)
    except ValueError:
        return None
    return -v if neg else v


def _answer_str(answers: list, scale: str) -> str:
    """The answers as one string, each number at four decimals after its scale, in a canonical
    order — the order of the *normalised* spans, so that a bag compares equal whatever order
    and formatting its members come in ("$1,910" and "1910" sort alike)."""
    out = []
    for a in (str(x) for x in answers):
        n = _to_number(a)
        if n is None:
            out.append(f"{a} {scale}".strip())
        elif "%" in a:
            out.append(f"{n:.4f}")
        else:
            out.append(f"{round(n, 2) * _SCALE_MULT.get(scale, 1.0):.4f}")
    return " ".join(sorted(out))


def _normalise(s: str) -> str:
    toks = []
    for w in s.lower().split():
        n = _to_number(w)
        if n is not None:
            toks.append(f"{n:.4f}" if "." in w or n != int(n) else str(float(n)))
            continue
        w = "".join(ch for ch in w if ch not in set(string.punctuation) - {"-"})
        if w and w not in ("a", "an", "the"):
            toks.append(w)
    return " ".join(toks)


def _f1(pred: str, gold: str) -> float:
    p, g = set(pred.split()), set(gold.split())
    inter = len(p & g)
    if not p or not g:
        return float(p == g)
    if inter == 0:
        return 0.0
    pr, rc = inter / len(p), inter / len(g)
    return 2 * pr * rc / (pr + rc)


def score(q: dict, pred: list | None, pred_scale: str) -> tuple[float, float]:
    """(EM, F1) of a prediction under TAT-QA's conventions."""
    if not pred:
        return 0.0, 0.0
    gold = q["answer"] if isinstance(q["answer"], list) else [
        str(int(q["answer"])) if q["answer_type"] == "count" else str(q["answer"])]
    g = _normalise(_answer_str(gold, q["scale"]))
    cands = [_normalise(_answer_str(pred, pred_scale))]
    if len(pred) == 1 and not pred_scale and _to_number(str(pred[0])) is not None \
            and "%" not in str(pred[0]):
        cands.append(_normalise(f"{_to_number(str(pred[0])):.4f}"))
    em = max(float(c == g) for c in cands)
    f1 = max(_f1(c, g) for c in cands)
    if q["answer_type"] in ("arithmetic", "count"):
        f1 = em
    return em, round(f1, 2)


def gold_operation(q: dict) -> str:
    """The gold operation from the annotated derivation (for the per-operation table)."""
    d = (q.get("derivation") or "").replace(" ", "")
    if q["answer_type"] in ("span", "multi-span"):
        return "lookup" if q["answer_from"] == "table" and not d else (
            "compare" if ">" in d or "vs" in d else "span")
    if q["answer_type"] == "count":
        return "count"
    if re.fullmatch(r"\(?\(([^()]+)-([^()]+)\)/\2\)?(\*100)?", d) or re.fullmatch(
            r"\(([^()]+)-([^()]+)\)/\2", d):
        return "change ratio"
    if re.fullmatch(r"\(([^()]+\+)+[^()]+\)/\d+", d):
        return "average"
    if re.fullmatch(r"[^()+\-*/]+-[^()+\-*/]+", d):
        return "difference"
    if re.fullmatch(r"\(?([^()+\-*/]+\+)+[^()+\-*/]+\)?", d):
        return "sum"
    if re.fullmatch(r"[^()+\-*/]+/[^()+\-*/]+(\*100)?", d):
        return "ratio"
    return "other"


# -- predictions -----------------------------------------------------------------------------
def predict(engine, kb, question: str, trust: str):  # noqa: ANN001, ANN201
    """(answer, prediction, scale): the answer's own `values` and `scale` (`hyrag.answer.values`),
    numbers written as TAT-QA's answers are (at most four decimals); an answer whose decision
    is not `answer` has no values, an abstention (None)."""
    ans = engine.ask(question, trust=trust)
    if not ans.values:
        return ans, None, ""
    return ans, [v if isinstance(v, str) else _num_str(v) for v in ans.values], ans.scale


def _num_str(v: float) -> str:
    v = float(v)
    return str(int(v)) if v.is_integer() else f"{v:.4f}".rstrip("0").rstrip(".")


def _predict_llm(kb, q: dict, args, llm) -> dict:  # noqa: ANN001
    """--llm: the same question with the LLM route on (`hyrag.llm.bench`), scored the same."""
    from hyrag.answer.engine import AnswerEngine
    from hyrag.llm.bench import audit_outcomes, with_llm

    t0 = time.perf_counter()
    try:
        ans, pred, pscale = predict(AnswerEngine(with_llm(kb, llm, args)), kb, q["question"],
                                    args.trust)
    except Exception as e:  # noqa: BLE001 - one failing question is a miss
        print(f"{q['uid']} (LLM): {type(e).__name__}: {e}", file=sys.stderr)
        ans, pred, pscale = None, None, ""
    em, f1 = score(q, pred, pscale)
    toks = ans.verification.get("tokens", []) if ans is not None else []
    steps = audit_outcomes(kb, ans) if ans is not None else {}
    return {"answer": pred, "scale": pscale, "decision": ans.decision if ans else "error",
            "em": em, "f1": f1, "grounded": not any(
                t["status"] in ("ungrounded", "derivation_mismatch") for t in toks),
            "steps": {f"{s}/{how}": n for (s, how), n in steps.items()},
            "seconds": round(time.perf_counter() - t0, 2)}


def _program(ans) -> dict:  # noqa: ANN001 - hyrag.Answer or None
    return (ans.program or {}) if ans is not None else {}


def _route(ans) -> str:  # noqa: ANN001 - hyrag.Answer or None
    """The route written beside a prediction: the table reader's operation when a reader
    answered ("tableqa:lookup"), else the engine's route."""
    p = _program(ans)
    if p.get("kind") == "table_reader":
        return f"tableqa:{p['operation']}"
    return ans.route if ans is not None else ""


def run(args: argparse.Namespace) -> int:  # noqa: C901, PLR0912, PLR0915
    import hyrag
    from hyrag.answer.engine import AnswerEngine
    from hyrag.llm import bench as llm_bench
    from hyrag.settings import Settings
    from verify import calibrate, reliability_table

    if not args.data:
        print("hyrag: error: --data PATH to tatqa_dataset_dev.json is required", file=sys.stderr)
        return 1
    docs = json.loads(Path(args.data).read_text(encoding="utf-8"))
    settings = Settings(answer_use_search=False)
    llm = llm_bench.client(args, settings)  # --llm: the configured endpoint, else None
    results: list[dict] = []
    t0 = time.perf_counter()
    budget = args.limit
    for di, doc in enumerate(docs):
        if budget is not None and budget <= 0:
            break
        with tempfile.TemporaryDirectory(prefix="hyrag-tatqa-") as tmp:
            kb = hyrag.open(Path(tmp) / "kb", settings=settings)
            try:
                try:
                    frame = table_frame(doc["table"]["table"])
                    cap = table_caption([p["text"] for p in doc["paragraphs"]],
                                        doc["table"]["table"])
                    if cap and "(in " not in frame.attrs.get("title", ""):
                        frame.attrs["title"] = f"{frame.attrs.get('title', '')} {cap}".strip()
                    kb.ingest(frame, name="report_table")
                except Exception as e:  # noqa: BLE001 - a table the reader rejects: text only
                    print(f"doc {di}: table not ingested: {e}", file=sys.stderr)
                paras = [p["text"] for p in sorted(doc["paragraphs"], key=lambda p: p["order"])]
                if paras:
                    kb.ingest_text(paras, source="report_text")
                engine = AnswerEngine(kb)
                for q in doc["questions"]:
                    if budget is not None and budget <= 0:
                        break
                    if budget is not None:
                        budget -= 1
                    try:
                        ans, pred, pscale = predict(engine, kb, q["question"], args.trust)
                    except Exception as e:  # noqa: BLE001 - one failing question is a miss
                        print(f"{q['uid']}: {type(e).__name__}: {e}", file=sys.stderr)
                        ans, pred, pscale = None, None, ""
                    em, f1 = score(q, pred, pscale)
                    ver = ans.verification if ans is not None else {}
                    results.append({
                        "uid": q["uid"], "doc": di, "question": q["question"],
                        "answer": pred, "scale": pscale,
                        "decision": ans.decision if ans is not None else "error",
                        "gold": q["answer"], "gold_scale": q["scale"],
                        "answer_type": q["answer_type"], "answer_from": q["answer_from"],
                        "operation": gold_operation(q), "em": em, "f1": f1,
                        "em_any_scale": score(q, pred, q["scale"])[0] if pred else 0.0,
                        "grounded": not any(t["status"] in ("ungrounded", "derivation_mismatch")
                                            for t in ver.get("tokens", [])),
                        "verdict": ver.get("verdict"), "confidence": ver.get("confidence"),
                        "residue": _program(ans).get("residue"),
                        "route": _route(ans),
                        # the question a CRAG rewrite answered instead, when one did
                        "asked": ver["crag"]["attempts"][-1]["question"] if ver.get("crag") and
                        ver["crag"]["stop"].startswith("passed after") else None,
                    })
                    if llm is not None:  # the LLM twin of this prediction, side by side
                        results[-1]["llm"] = _predict_llm(kb, q, args, llm)
            finally:
                kb.close()
    elapsed = time.perf_counter() - t0
    _report(results, elapsed, args, calibrate, reliability_table)
    if llm is not None:
        print("\n".join(llm_bench.tatqa_lines(results, llm)))
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1, ensure_ascii=False,
                                             default=str), encoding="utf-8")
    if getattr(args, "plot", None):
        _plots(results, Path(args.plot))
    cmd = f"hyrag bench tatqa --data {shlex.quote(args.data)}" + (
        f" --limit {args.limit}" if args.limit else "") + (
        " --calibrate" if args.calibrate else "") + (
        f" --policy {args.policy}" if args.policy != "relevance" else "") + llm_bench.flags(args)
    print(f"\nreproduce: {cmd}")
    return 0


def _plots(results: list[dict], folder: Path) -> None:
    """The abstention reliability diagram and accuracy by answer type, as PNGs."""
    try:
        from hyrag.display import plots
    except ImportError as e:  # matplotlib is the `plot` extra
        print(f"--plot skipped: {e} (pip install 'hyrag[plot]')", file=sys.stderr)
        return
    folder.mkdir(parents=True, exist_ok=True)
    answered = [r["decision"] not in ("abstain", "error") and r["answer"] is not None
                for r in results]
    conf = [float(r["confidence"] or 0.0) for r in results]
    fig = plots.reliability_diagram(conf, [bool(r["em"]) for r in results], answered=answered,
                                    title="TAT-QA dev: confidence vs exact match (answered)")
    plots.save(fig, folder / "tatqa_reliability.png")
    groups: dict[str, list[bool]] = {}
    for r in results:
        groups.setdefault(r["answer_type"], []).append(bool(r["em"]))
    fig = plots.accuracy_by_type(groups, title="TAT-QA dev: exact match by answer type")
    plots.save(fig, folder / "tatqa_accuracy_by_type.png")
    print(f"plots: {folder / 'tatqa_reliability.png'}, {folder / 'tatqa_accuracy_by_type.png'}")


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _report(results: list[dict], elapsed: float, args, calibrate, reliability_table) -> None:  # noqa: ANN001
    n = len(results)
    answered = [r for r in results if r["answer"]]
    print(f"TAT-QA dev, {n} questions, {len({r['doc'] for r in results})} documents, "
          f"{elapsed:.1f} s (offline, no LLM, policy {args.policy}"
          f"{' — random/ecr not wired offline: relevance used' if args.policy != 'relevance' else ''})")
    print(f"\n{'':<26}{'n':>6}{'EM':>8}{'F1':>8}")
    print(f"{'overall':<26}{n:>6}{_mean([r['em'] for r in results]):>8.3f}"
          f"{_mean([r['f1'] for r in results]):>8.3f}")
    for key in ("answer_type", "answer_from", "operation"):
        groups = defaultdict(list)
        for r in results:
            groups[r[key]].append(r)
        for g, rs in sorted(groups.items(), key=lambda x: -len(x[1])):
            print(f"{key[7:] if key.startswith('answer_') else 'op'}={g:<20}{len(rs):>6}"
                  f"{_mean([r['em'] for r in rs]):>8.3f}{_mean([r['f1'] for r in rs]):>8.3f}")
    core = [r for r in results if r["answer_from"] == "table" and r["operation"] in (
        "lookup", "difference", "change ratio", "average", "sum", "ratio")]
    core_ans = [r for r in core if r["answer"]]
    print(f"\ntable cells, lookup/difference/change ratio/average/sum/ratio: n={len(core)} "
          f"EM {_mean([r['em'] for r in core]):.3f}; answered {len(core_ans)}, precision "
          f"{_mean([r['em'] for r in core_ans]):.3f}")
    print(f"abstention rate           {1 - len(answered) / max(n, 1):.3f}  "
          f"({n - len(answered)}/{n})")
    print(f"answers fully grounded    {_mean([float(r['grounded']) for r in answered]):.3f}  "
          f"({sum(r['grounded'] for r in answered)}/{len(answered)})")
    print(f"precision (answered)      {_mean([r['em'] for r in answered]):.3f}")
    print(f"EM if the scale were right  {_mean([r['em_any_scale'] for r in results]):.3f}  "
          "(diagnostic only: the official metric requires the scale)")
    print(f"TagOp (published, {TAGOP['split']}): EM {TAGOP['EM']:.1f} / F1 {TAGOP['F1']:.1f}; "
          f"ours (dev): EM {100 * _mean([r['em'] for r in results]):.1f} / F1 "
          f"{100 * _mean([r['f1'] for r in results]):.1f}")
    if args.calibrate and answered:
        cal = [r for r in answered if r["doc"] % 2 == 0 and r["confidence"] is not None]
        rep = [r for r in answered if r["doc"] % 2 == 1 and r["confidence"] is not None]
        t = calibrate([r["confidence"] for r in cal], [bool(r["em"]) for r in cal],
                      target_precision=0.9)
        kept = [r for r in rep if r["confidence"] >= t]
        cal_kept = [r for r in cal if r["confidence"] >= t]
        reached = _mean([r["em"] for r in cal_kept]) >= 0.9 if cal_kept else False
        print(f"\nabstention threshold calibrated on even documents ({len(cal)} answers, target "
              f"precision 0.90): {t:.3f}"
              + ("" if reached else f" — target not reached; best effort, calibration "
                 f"precision {_mean([r['em'] for r in cal_kept]):.3f} on {len(cal_kept)}"))
        print(f"held-out odd documents: {len(rep)} answers; at the threshold {len(kept)} kept, "
              f"precision {_mean([r['em'] for r in kept]):.3f} (before "
              f"{_mean([r['em'] for r in rep]):.3f})")
        print(f"\n{'confidence bin':<16}{'n':>6}{'mean conf':>11}{'accuracy':>10}  (held-out)")
        for row in reliability_table([r["confidence"] for r in rep], [bool(r["em"]) for r in rep],
                                     bins=5):
            print(f"{row['bin']:<16}{row['n']:>6}{row['mean_confidence']:>11.3f}"
                  f"{row['accuracy']:>10.3f}")
