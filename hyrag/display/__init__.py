"""Notebook display: HTML/Markdown for answers, knowledge bases and SQL results (`html`), and
matplotlib figures on the headless Agg canvas (`plots`, needs the `plot` extra)."""

from hyrag.display.html import (
    answer_html,
    answer_markdown,
    entropy_svg,
    entropy_trace_of,
    format_locator,
    kb_html,
    query_result_html,
)

__all__ = [
    "answer_html",
    "answer_markdown",
    "entropy_svg",
    "entropy_trace_of",
    "format_locator",
    "kb_html",
    "query_result_html",
]
