"""The answer engine (issue 6): routing, a schema-aware question parser, text-to-SQL,
Horizon -> Warrant -> Commitment with Knowledge Gaps, ECR on the analytical route, numeric
grounding and structured synthesis. `kb.ask(question)` is the entry point."""

from hyrag.answer.answer import Answer
from hyrag.answer.engine import AnswerEngine
from hyrag.answer.link.warrant import KnowledgeGapRefused
from hyrag.answer.parse.router import Route, Trust, parse_route, parse_trust

__all__ = ["Answer", "AnswerEngine", "KnowledgeGapRefused", "Route", "Trust", "parse_route",
           "parse_trust"]
