"""Routes and trust modes (seed 003, section 4.2 "Trust modes"; DESIGN.md "Query path").

A route names the evidence path a question takes; a trust mode sets how hard verification is
and how the answer is written (DESIGN.md, "Decisions the seeds leave open"):

- strict: numbers, regulation, money — every sentence cited, partial support never passes, a
  question without the period it needs is sent back for clarification;
- balanced (default): answers with its limits stated;
- exploratory: may pick the latest period when none is named, and summarise and rank.
"""

from __future__ import annotations

from enum import Enum, StrEnum

from hyrag.errors import HyragError


class Route(StrEnum):
    LOOKUP = "LOOKUP"  # one entity's attribute in a period: claims
    RELATIONAL = "RELATIONAL"  # who owns / acquired / is headquartered: relations
    SEMANTIC = "SEMANTIC"  # nothing maps onto the schema: ranked claims only
    TOOL = "TOOL"  # growth, CAGR, share, difference, ratio, mean, median, stdev over values
    SQL = "SQL"  # aggregates, counts, rankings: text-to-SQL over the typed tables
    CSGR_PLUS = "CSGR_PLUS"  # analytical: comparisons, conflicts, ECR when triggered


class Trust(StrEnum):
    STRICT = "strict"
    BALANCED = "balanced"
    EXPLORATORY = "exploratory"


def _parse(enum: type[Enum], value: object, what: str) -> Enum:
    if isinstance(value, enum):
        return value
    text = str(value).strip()
    for m in enum:  # type: ignore[attr-defined]
        if text.lower() in (m.value.lower(), m.name.lower()):
            return m
    valid = ", ".join(m.value for m in enum)  # type: ignore[attr-defined]
    raise HyragError(f"unknown {what} {value!r}; valid: {valid}")


def parse_route(value: object) -> Route:
    return _parse(Route, value, "route")  # type: ignore[return-value]


def parse_trust(value: object) -> Trust:
    return _parse(Trust, value, "trust mode")  # type: ignore[return-value]


def choose_route(parsed) -> Route:  # hyrag.answer.parse.parser.ParsedQuestion
    """The route for a parsed question: the first rule that applies."""
    if parsed.relation and not parsed.measure:
        return Route.RELATIONAL
    if parsed.operation in ("growth", "cagr", "difference", "ratio", "share", "stdev") \
            or parsed.trend:
        return Route.TOOL
    if parsed.group_by or parsed.ranking:
        return Route.SQL
    if parsed.comparison and (len(parsed.entities) > 1 or len(parsed.periods) > 1):
        return Route.CSGR_PLUS
    if parsed.sql_only:
        return Route.SQL
    if parsed.entities and parsed.measure:
        return Route.LOOKUP
    if parsed.measure and parsed.operation:
        return Route.SQL
    return Route.SEMANTIC
