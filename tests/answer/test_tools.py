"""Deterministic operators record their derivation."""

from __future__ import annotations

import pytest

from hyrag.answer.execute.tools import (
    Operand,
    ToolError,
    cagr,
    difference,
    growth,
    mean,
    median,
    ratio,
    share,
    stdev,
    years_between,
)

A, B, C = Operand("c1", 100.0, "2022", 1), Operand("c2", 121.0, "2024", 2), Operand("c3", 79.0)


def test_growth_cagr_difference_ratio():
    g = growth(A, B)
    assert g.result == 21.0 and g.unit == "%" and [o.ref for o in g.operands] == ["c1", "c2"]
    assert "121 - 100" in g.expression
    assert cagr(A, B, years_between("2022", "2024")).result == 10.0
    assert difference(B, A).result == 21.0 and ratio(B, A).result == 1.21
    assert years_between("2024Q1", "2024Q3") == 0.5


def test_statistics_and_share():
    assert mean([A, B, C]).result == pytest.approx(100.0)
    assert median([A, B, C]).result == 100.0
    assert stdev([A, B, C]).result == pytest.approx(21.0)
    s = share(A, [A, B, C])
    assert s.result == pytest.approx(33.33) and s.to_dict()["operands"][0]["ref"] == "c1"


def test_operator_errors():
    with pytest.raises(ToolError):
        growth(Operand("z", 0.0), B)
    with pytest.raises(ToolError):
        cagr(Operand("n", -1.0), B, 2)
    with pytest.raises(ToolError):
        stdev([A])
