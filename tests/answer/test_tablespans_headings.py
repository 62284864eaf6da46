"""`tablespans_headings.heading_rows`: the lines under the heading a question names — each
time the heading heads the same lines (a block per period) they are its lines; when it heads
different ones, or a subtotal without a name closes it, the reading is what an analyst sees."""

from __future__ import annotations

from dataclasses import dataclass

from hyrag.answer.readers import tableqa_rows as tr
from hyrag.answer.readers.tablespans_headings import heading_rows


@dataclass
class Ln:
    table: str
    row: int
    label: str
    section: str


def q(text: str) -> set[str]:
    return tr.content(text)


def test_a_heading_repeated_per_period_heads_the_same_lines() -> None:
    lines = [Ln("t", 3, "Customer relationships", "Finite-lived"),
             Ln("t", 4, "Other rights", "Finite-lived"),
             Ln("t", 5, "Total", "Finite-lived"),
             Ln("t", 7, "Certifications", "Indefinite-lived"),
             Ln("t", 10, "Customer relationships", "Finite-lived"),
             Ln("t", 11, "Other rights", "Finite-lived"),
             Ln("t", 12, "", "Finite-lived")]
    head, rows = heading_rows(q("types of finite-lived assets"), lines)
    assert head == "Finite-lived"
    assert [ln.label for ln in rows] == ["Customer relationships", "Other rights"]
    lines[4].label = "Licences"
    assert heading_rows(q("types of finite-lived assets"), lines) is None


def test_no_heading_named_or_too_few_lines() -> None:
    lines = [Ln("t", 1, "Cash", "Current assets"), Ln("t", 2, "Debtors", "Current assets"),
             Ln("t", 4, "Loans", "Non-current assets")]
    assert heading_rows(q("components of assets"), lines) is None
    assert heading_rows(q("components of non-current assets"), lines) is None  # one line
    head, rows = heading_rows(q("components of current assets"), lines)
    assert [ln.label for ln in rows] == ["Cash", "Debtors"]
