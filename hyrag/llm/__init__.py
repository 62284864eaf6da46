"""The LLM route (issue 9): one client for any OpenAI-compatible endpoint, the Warrant gate as
a function-calling loop, and the other LLM steps behind their offline twins' interfaces.

Offline stays the default: a step runs on the LLM only when `Settings.llm_steps` names it and a
client is configured (`HYRAG_LLM_BASE_URL`, `HYRAG_LLM_MODEL`, `HYRAG_LLM_API_KEY` else
`OPENAI_API_KEY`). The structural rules — RRR, KGRR, committing only retrieved ids, the call
limit, the SQL guard and literal grounding, numeric grounding of the draft, governance (the
model only ever sees claims the subject's views return; no policy text is ever sent) — are
enforced in code on both routes.
"""

from hyrag.llm.client import (
    ChatResult,
    LLMClient,
    LLMConfig,
    LLMError,
    LLMMalformed,
    LLMNotConfigured,
    LLMRefused,
    LLMRequestRejected,
    LLMTruncated,
    LLMUnavailable,
    ToolCall,
)

__all__ = ["ChatResult", "LLMClient", "LLMConfig", "LLMError", "LLMMalformed",
           "LLMNotConfigured", "LLMRefused", "LLMRequestRejected", "LLMTruncated",
           "LLMUnavailable", "ToolCall"]
