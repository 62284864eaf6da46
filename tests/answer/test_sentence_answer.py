"""A prose claim that states no figure is answered with its sentence, quoted and cited — never
rendered as "X was ." (a value slot left empty)."""

from __future__ import annotations

import hyrag
from hyrag.settings import Settings


def test_a_figureless_sentence_is_quoted(tmp_path) -> None:
    with hyrag.open(tmp_path / "kb", settings=Settings(answer_use_search=False)) as kb:
        kb.ingest_text(["In May 2014, the FASB issued new authoritative guidance for revenue "
                        "from contracts with customers. Revenue was $12.5 million in 2019."],
                       source="notes")
        a = kb.ask("When did the FASB issue new authoritative guidance for revenue from "
                   "contracts with customers?")
    assert " was  [" not in a.text and " was [" not in a.text
    assert a.decision == "answer", a.brief
    assert "In May 2014, the FASB issued new authoritative guidance" in a.text
    assert "[1]" in a.text
