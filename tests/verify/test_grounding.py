"""Numeric grounding over generated drafts: grounded, off by one digit, rounded (right and
wrong), rescaled, derived and correct, derived and wrong — and one invented number never
passes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verify import Computation, Evidence, computation_ok, verify
from verify.tokens import numbers

# (entity, attribute, period, value, value_text, scale) — cells as ingestion parses them
FACTS = [
    ("Total sales", "sales", "2019", 1496.5, "$1,496.5", "million"),
    ("Other", "sales", "2018", 56.7, "56.7", "million"),
    ("Northgate", "revenue", "2024", 4396.0, "4,396", "million"),
    ("Riverside Clinic", "registered nurses", "2024", 412.0, "412", ""),
    ("Crestwood", "operating margin", "2023", 13.1, "13.1%", "percent"),
    ("Acme", "net income", "2022", -620.0, "(620.0)", "thousand"),
    ("West", "revenue", "2024Q1", 181069.0, "181,069", ""),
    ("Fixed Price", "sales", "2017", 1036.9, "$ 1,036.9", "million"),
    ("Harbor", "headcount", "2021", 2750.0, "2,750", ""),
]
OTHER = {"sales": 1202.9, "revenue": 3980.0, "registered nurses": 398.0,
         "operating margin": 11.9, "net income": -410.0, "headcount": 2500.0}


def _ev(f: tuple, n: int = 1, value: float | None = None, period: str | None = None,
        ref: str = "c1") -> Evidence:
    ent, attr, per, v, vt, sc = f
    v = v if value is None else value
    vt = vt if value is None else f"{value:,}"
    return Evidence(ref, f"{ent} {attr} in {period or per} was {vt}.", v, vt, sc, "", ent, attr,
                    period or per, n=n)


def _shown(v: float, dec: int = 1) -> str:
    return f"({abs(v):,.{dec}f})" if v < 0 else f"{v:,.{dec}f}"


def _dec(vt: str) -> int:
    return len(vt.split(".")[1].rstrip(")%")) if "." in vt else 0


def _drafts() -> list[tuple[str, str, list, list, bool]]:
    out = []
    for f in FACTS:
        ent, attr, per, v, vt, sc = f
        ev = [_ev(f)]
        d = _dec(vt)
        pct = "%" if sc == "percent" else ""
        word = f" {sc}" if sc in ("thousand", "million") else ""
        s = f"{ent} {attr} in {per} was "
        out.append(("grounded", s + f"{vt}{word} [1].", ev, [], True))
        wrong = v + (10 ** -d if d else 1) * (1 if v > 0 else -1)
        out.append(("off by one digit", s + f"{_shown(wrong, d)}{pct}{word} [1].", ev, [], False))
        # rounded: one digit fewer when there is one, else to the nearest ten written as such
        if d:
            out.append(("rounded", s + f"{_shown(round(v, d - 1), d - 1)}{pct}{word} [1].", ev,
                        [], True))
            out.append(("rounded wrongly", s + f"{_shown(round(v, d - 1) + 2 * 10 ** -(d - 1), d - 1)}{pct}{word}"
                        " [1].", ev, [], False))
        elif sc in ("million", "thousand"):
            nxt = {"thousand": "million", "million": "billion"}[sc]
            out.append(("rescaled", s + f"{v / 1000:.3f} {nxt} [1].", ev, [], True))
            out.append(("rescaled wrongly", s + f"{v / 100:.3f} {nxt} [1].", ev, [], False))
        # derived over two grounded cells of the same attribute
        other = OTHER[attr]
        ev2 = [_ev(f, 1), _ev(f, 2, value=other, period="2000", ref="c2")]
        diff = round(v - other, 2)
        comp = [Computation("difference", (v, other), diff)]
        out.append(("derived", f"The difference in {attr} ({per} minus 2000) is {diff:,} [1][2].",
                    ev2, comp, True))
        out.append(("derived wrong", f"The difference in {attr} is {diff + 3:,} [1][2].", ev2,
                    [Computation("difference", (v, other), diff + 3)], False))
        g = round((v - other) / abs(other) * 100, 2)
        out.append(("derived growth", f"Growth in {attr} from 2000 to {per} was {g:.2f}% [1][2].",
                    ev2, [Computation("growth", (other, v), g, "%")], True))
        out.append(("derived over an invented operand",
                    f"Growth in {attr} from 2000 to {per} was {g + 1:.2f}% [1][2].", ev2,
                    [Computation("growth", (other, v + 5), g + 1, "%")], False))
    return out


DRAFTS = _drafts()


def test_at_least_fifty_drafts() -> None:
    assert len(DRAFTS) >= 50
    kinds = {k for k, *_ in DRAFTS}
    assert {"grounded", "off by one digit", "rounded", "rescaled", "derived",
            "derived wrong"} <= kinds


@pytest.mark.parametrize(("kind", "draft", "ev", "comps", "ok"), DRAFTS,
                         ids=[f"{i}-{d[0]}" for i, d in enumerate(DRAFTS)])
def test_grounding(kind: str, draft: str, ev: list, comps: list, ok: bool) -> None:
    r = verify(draft, ev, comps)
    if ok:
        assert r.verdict == "pass", (kind, draft, r.failures)
        assert r.all_grounded
    else:
        assert r.verdict == "fail", (kind, draft, r.tokens)
        assert r.failures and any("number" in x for x in r.failures)
        assert r.score <= 0.4


def test_failures_name_token_and_sentence() -> None:
    ev = [_ev(FACTS[0])]
    r = verify("Total sales in 2019 was $1,496.5 million [1]. It grew by 12.5 million [1].", ev)
    assert r.verdict == "fail"
    assert any("12.5 million" in x and "sentence 2" in x for x in r.failures)
    assert [t.status for t in r.tokens if t.token.startswith("12.5")] == ["ungrounded"]


def test_strict_is_verbatim_only() -> None:
    ev = [_ev(FACTS[0])]
    assert verify("Total sales in 2019 was 1,497 million [1].", ev).verdict == "pass"
    assert verify("Total sales in 2019 was 1,497 million [1].", ev, strict=True).verdict == "fail"
    assert verify("Total sales in 2019 was $1,496.5 million [1].", ev,
                  strict=True).verdict == "pass"


def test_tokenizer() -> None:
    toks = numbers("Revenue was $4.4 billion [2] in 2024Q1, down (620.0) or -3.5%; 12k users, "
                   "E1005 and Q3 are not numbers; 2023 is a year.")
    got = [(t.value, t.scale, t.year) for t in toks]
    assert got == [(4.4, "billion", False), (-620.0, "", False), (-3.5, "percent", False),
                   (12.0, "thousand", False), (2023.0, "", True)]


def test_computation_recompute() -> None:
    assert computation_ok(Computation("difference", (44.1, 56.7), -12.6))
    assert computation_ok(Computation("growth", (56.7, 44.1), -22.22, "%"))
    assert computation_ok(Computation("mean", (1.0, 2.0, 4.0), 2.33))
    assert not computation_ok(Computation("difference", (44.1, 56.7), -12.7))
    assert not computation_ok(Computation("unknown-op", (1.0,), 1.0))
    # parts summed over the last operand, the whole: (150 + 100) / 1000 x 100
    assert computation_ok(Computation("ratio", (150.0, 100.0, 1000.0), 25.0, "%"))
    assert not computation_ok(Computation("ratio", (150.0, 100.0, 1000.0), 15.0, "%"))


def test_counter_evidence_contradicts_an_uncited_sentence() -> None:
    ev = [Evidence("a", "Acme revenue in 2024 was 100.", 100.0, "100", entity="Acme",
                   attribute="revenue", period="2024"),
          Evidence("b", "Acme revenue in 2024 was 120.", 120.0, "120", entity="Acme",
                   attribute="revenue", period="2024", role="counter")]
    r = verify("Acme revenue in 2024 was 100.", ev)
    assert r.sentences[0].status == "contradicted" and r.verdict != "pass"


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(FACTS), st.floats(min_value=-1e7, max_value=1e7, allow_nan=False),
       st.sampled_from(["", "%", " million", " thousand"]))
def test_one_invented_number_never_passes(f: tuple, x: float, suffix: str) -> None:
    ev = [_ev(f)]
    invented = round(x, 1)
    known = {abs(f[3]), round(abs(f[3]), 0), round(abs(f[3]), -1), round(abs(f[3]), 1)}
    if abs(invented) in known or abs(round(invented)) in known or 1900 <= abs(invented) <= 2100:
        return
    if suffix.strip() in ("million", "thousand") and f[5] in ("million", "thousand"):
        mult = {"million": 1e6, "thousand": 1e3}
        if abs(abs(invented) * mult[suffix.strip()] - abs(f[3]) * mult[f[5]]) <= mult[
                suffix.strip()]:
            return
    draft = (f"{f[0]} {f[1]} in {f[2]} was {f[4]} [1]. The other figure was "
             f"{invented:,.1f}{suffix} [1].")
    r = verify(draft, ev)
    assert r.verdict == "fail", (draft, r.tokens)


def test_a_written_out_date_is_checked_as_the_period_it_names() -> None:
    """"January 31, 2018" names the period 2018-01-31: its day is no quantity to ground, and
    the date must be a period of the evidence (a cell's ISO period, or a date its sentence
    writes out) — another day of the year is not."""
    cell = Evidence("c1", "Costs on 2018-01-31 was $53.0.", 53.0, "$53.0", "", "", "Costs",
                    "Balances", "2018-01-31")
    assert verify("Costs at January 31, 2018 was $53.0 [1].", [cell]).verdict == "pass"
    assert verify("Costs at 31 Jan 2018 was $53.0 [1].", [cell]).verdict == "pass"
    bad = verify("Costs at March 31, 2018 was $53.0 [1].", [cell])
    assert bad.verdict != "pass" and any("2018-03-31" in x for x in bad.failures)
    said = Evidence("t1", "As of September 30, 2019, backlog was $4.1 million.", 4.1,
                    "$4.1 million", "million", "", "backlog", "backlog", "2019")
    assert verify("Backlog as of September 30, 2019 was $4.1 million [1].",
                  [said]).verdict == "pass"
    assert [t.text for t in numbers("As of September 30, 2019, 12 sites.")] == ["12"]


def test_a_date_a_label_states_with_its_columns_year_is_grounded() -> None:
    """"Outstanding at 1 April" in the column 2019 is the draft's "1 April 2019": its day and
    month are the label's words and its year the cell's period."""
    cell = Evidence("c1", "Outstanding at 1 April in 2019 was 421,825.", 421825.0, "421,825",
                    "", "", "Outstanding at 1 April", "Outstanding at 1 April", "2019")
    assert verify("Outstanding at 1 April 2019 was 421,825 [1].", [cell]).verdict == "pass"
    assert verify("Outstanding at 2 April 2019 was 421,825 [1].", [cell]).verdict != "pass"


def test_a_derived_result_is_read_at_the_magnitude_its_operands_are_stated_in() -> None:
    """A difference of figures displayed in thousands is written "10,300 thousand": grounded
    when the computation says its terms are thousands, and at no other magnitude."""
    ev = [Evidence(f"c{i}", f"Revenue in {y} was {t} thousand.", v, t, "thousand", "", "Acme",
                   "revenue", y) for i, (y, v, t) in enumerate(
                       [("2019", 120500.0, "120,500"), ("2018", 110200.0, "110,200")])]
    diff = Computation("difference", (120500.0, 110200.0), 10300.0, scale="thousand")
    assert verify(["The change was 10,300 thousand [1][2]."], ev, [diff]).verdict == "pass"
    assert verify(["The change was 10,300 million [1][2]."], ev, [diff]).verdict != "pass"
    # the same result without its terms stated grounds the bare figure only
    bare = Computation("difference", (120500.0, 110200.0), 10300.0)
    assert verify(["The change was 10,300 thousand [1][2]."], ev, [bare]).verdict != "pass"
