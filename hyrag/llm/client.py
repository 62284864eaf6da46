"""One LLM client over the `openai` package, for any OpenAI-compatible endpoint.

OpenAI itself, llama.cpp's server, Ollama (`/v1`), vLLM: base URL, model and key come from the
arguments, else the environment (`HYRAG_LLM_BASE_URL`, `HYRAG_LLM_MODEL`, `HYRAG_LLM_API_KEY`,
else `OPENAI_API_KEY`; CONTRACT.md "Settings and environment"). Every request is logged with its
step, tokens, cost, latency, attempts and outcome (`LLMClient.log`, `LLMClient.usage()`).

A response the engine cannot use is a typed error, never a crash and never a silent empty
answer: the endpoint unreachable or timing out (`LLMUnavailable`), an HTTP error status
(`LLMUnavailable` for 408/409/429/5xx, else `LLMRequestRejected`), a body without a choice, an
empty message, tool arguments that are not JSON (`LLMMalformed`), a completion cut at the token
limit (`LLMTruncated`), a refusal or a content filter (`LLMRefused`). Transient failures are
retried with exponential backoff; whatever is still failing after the retries reaches the
caller, which degrades to the offline twin and records why (`hyrag.llm.steps.run_step`).
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from hyrag.errors import HyragError


# -- errors ------------------------------------------------------------------------------------
class LLMError(HyragError):
    """Anything the LLM route could not use; `kind` names it for the audit record."""

    kind = "error"
    retryable = False


class LLMNotConfigured(LLMError):
    """No base URL / model: the LLM route is off and the offline twin runs."""

    kind = "not_configured"


class LLMUnavailable(LLMError):
    """Connection refused, timeout, 408/409/429/5xx: retried, then degraded."""

    kind = "unavailable"
    retryable = True


class LLMRequestRejected(LLMError):
    """The endpoint refused the request itself (400, 401, 404 ...): not retried."""

    kind = "rejected"


class LLMMalformed(LLMError):
    """No choice, an empty message, tool arguments or a JSON answer that do not parse."""

    kind = "malformed"
    retryable = True


class LLMTruncated(LLMError):
    """The completion stopped at the token limit (finish_reason "length")."""

    kind = "truncated"
    retryable = True


class LLMRefused(LLMError):
    """The model refused or a content filter stopped it: not retried."""

    kind = "refused"


# -- configuration -----------------------------------------------------------------------------
@dataclass(frozen=True)
class LLMConfig:
    base_url: str | None = None
    model: str | None = None
    api_key: str | None = None
    timeout_s: float = 60.0
    max_retries: int = 2  # attempts after the first, for retryable errors
    backoff_s: float = 0.5  # first wait; doubles each retry
    max_tokens: int = 512
    temperature: float = 0.0
    # cost per 1,000 tokens (prompt, completion) in USD; 0 for a local server
    price_in_per_1k: float = 0.0
    price_out_per_1k: float = 0.0

    @classmethod
    def from_env(cls, settings: object | None = None, **over: object) -> LLMConfig:
        env = os.environ
        kw: dict[str, object] = {
            "base_url": env.get("HYRAG_LLM_BASE_URL") or None,
            "model": env.get("HYRAG_LLM_MODEL") or None,
            "api_key": env.get("HYRAG_LLM_API_KEY") or env.get("OPENAI_API_KEY") or None,
        }
        for name, attr in (("timeout_s", "llm_timeout_s"), ("max_retries", "llm_max_retries"),
                           ("max_tokens", "llm_max_tokens"),
                           ("temperature", "llm_temperature")):
            if settings is not None and hasattr(settings, attr):
                kw[name] = getattr(settings, attr)
        for name, var in (("price_in_per_1k", "HYRAG_LLM_PRICE_IN"),
                          ("price_out_per_1k", "HYRAG_LLM_PRICE_OUT")):
            if env.get(var):
                try:
                    kw[name] = float(env[var])
                except ValueError as e:
                    raise LLMError(f"{var} must be a number, got {env[var]!r}") from e
        kw.update({k: v for k, v in over.items() if v is not None})
        return cls(**kw)  # type: ignore[arg-type]

    @property
    def configured(self) -> bool:
        # OpenAI itself needs no base URL; a model and a key (or a base URL) make it usable
        return bool(self.model) and bool(self.base_url or self.api_key)


# -- results -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: dict  # parsed JSON; the raw text is kept in `raw`
    raw: str = ""


@dataclass(frozen=True)
class ChatResult:
    content: str
    tool_calls: tuple[ToolCall, ...]
    finish_reason: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    message: dict = field(default_factory=dict)  # the assistant message, to send back


@dataclass
class RequestLog:
    step: str
    model: str
    outcome: str  # ok | <error kind>
    attempts: int
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    latency_ms: float = 0.0
    finish_reason: str = ""
    error: str = ""

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


# -- the client --------------------------------------------------------------------------------
class LLMClient:
    """Chat completions (plain, JSON, tool calling) with typed errors, retries and a log."""

    def __init__(self, config: LLMConfig | None = None, *, http_client: object = None,
                 sleep=time.sleep) -> None:
        self.config = config or LLMConfig.from_env()
        if not self.config.configured:
            raise LLMNotConfigured(
                "no LLM configured: set HYRAG_LLM_BASE_URL and HYRAG_LLM_MODEL (and "
                "HYRAG_LLM_API_KEY or OPENAI_API_KEY for a hosted endpoint)")
        import openai

        self._openai = openai
        kw: dict[str, object] = {
            "api_key": self.config.api_key or "not-needed",  # local servers ignore it
            "timeout": self.config.timeout_s,
            "max_retries": 0,  # retries are ours: counted, logged, typed
        }
        if self.config.base_url:
            kw["base_url"] = self.config.base_url
        if http_client is not None:  # tests capture every outgoing payload here
            kw["http_client"] = http_client
        self._client = openai.OpenAI(**kw)
        self._sleep = sleep
        self.log: list[RequestLog] = []

    @classmethod
    def from_env(cls, settings: object | None = None, **kw: object) -> LLMClient:
        http_client = kw.pop("http_client", None)
        return cls(LLMConfig.from_env(settings, **kw), http_client=http_client)

    @property
    def model(self) -> str:
        return str(self.config.model)

    def usage(self) -> dict[str, object]:
        """Totals over every request so far (what benchmarks print beside their columns)."""
        return {
            "requests": len(self.log),
            "failed": sum(r.outcome != "ok" for r in self.log),
            "prompt_tokens": sum(r.prompt_tokens for r in self.log),
            "completion_tokens": sum(r.completion_tokens for r in self.log),
            "cost_usd": round(sum(r.cost_usd for r in self.log), 6),
        }

    # -- requests --------------------------------------------------------------------------
    def chat(self, messages: Sequence[dict], *, step: str = "chat",
             tools: Sequence[dict] | None = None, max_tokens: int | None = None,
             temperature: float | None = None) -> ChatResult:
        """One chat completion. With `tools`, `tool_choice="auto"` (the only choice every
        OpenAI-compatible server accepts, llama.cpp's chatml-function-calling included)."""
        kw: dict[str, object] = {
            "model": self.model,
            "messages": list(messages),
            "max_tokens": max_tokens or self.config.max_tokens,
            "temperature": self.config.temperature if temperature is None else temperature,
        }
        if tools:
            kw["tools"] = list(tools)
            kw["tool_choice"] = "auto"
        return self._with_retries(step, lambda: self._once(kw))

    def chat_json(self, messages: Sequence[dict], *, step: str = "json",
                  max_tokens: int | None = None) -> object:
        """A completion whose content must be one JSON value (code fences tolerated)."""
        def once() -> tuple[ChatResult, object]:
            res = self._once({"model": self.model, "messages": list(messages),
                              "max_tokens": max_tokens or self.config.max_tokens,
                              "temperature": self.config.temperature})
            return res, parse_json(res.content)
        out = self._with_retries(step, once)
        return out[1]

    # -- internals -------------------------------------------------------------------------
    def _with_retries(self, step: str, fn):
        attempts = 0
        t0 = time.perf_counter()
        wait = self.config.backoff_s
        while True:
            attempts += 1
            try:
                out = fn()
            except LLMError as e:
                if e.retryable and attempts <= self.config.max_retries:
                    self._sleep(wait)
                    wait *= 2
                    continue
                self._record(step, e.kind, attempts, t0, None, error=str(e))
                raise
            res = out[0] if isinstance(out, tuple) else out
            self._record(step, "ok", attempts, t0, res)
            return out

    def _record(self, step: str, outcome: str, attempts: int, t0: float,
                res: ChatResult | None, error: str = "") -> None:
        pt = res.prompt_tokens if res else 0
        ct = res.completion_tokens if res else 0
        cost = pt / 1000 * self.config.price_in_per_1k + ct / 1000 * self.config.price_out_per_1k
        self.log.append(RequestLog(step, self.model, outcome, attempts, pt, ct, round(cost, 6),
                                   round((time.perf_counter() - t0) * 1000, 1),
                                   res.finish_reason if res else "", error[:300]))

    def _once(self, kw: dict) -> ChatResult:
        o = self._openai
        try:
            resp = self._client.chat.completions.create(**kw)
        except o.APITimeoutError as e:
            raise LLMUnavailable(f"LLM request timed out after {self.config.timeout_s}s") from e
        except o.APIConnectionError as e:
            raise LLMUnavailable(f"LLM endpoint unreachable: {e}") from e
        except o.APIStatusError as e:
            code = getattr(e, "status_code", 0) or 0
            msg = f"LLM endpoint answered HTTP {code}: {_short(e)}"
            if code in (408, 409, 429) or code >= 500:
                raise LLMUnavailable(msg) from e
            raise LLMRequestRejected(msg) from e
        except o.OpenAIError as e:  # a body the SDK could not read
            raise LLMMalformed(f"LLM response could not be read: {_short(e)}") from e
        except (ValueError, TypeError, KeyError) as e:
            raise LLMMalformed(f"LLM response could not be read: {e}") from e
        return to_result(resp)


def to_result(resp: object) -> ChatResult:
    """Check the response's shape and turn it into a `ChatResult` (typed errors otherwise)."""
    choices = getattr(resp, "choices", None)
    if not choices:
        raise LLMMalformed("LLM response has no choices")
    ch = choices[0]
    msg = getattr(ch, "message", None)
    if msg is None:
        raise LLMMalformed("LLM response choice has no message")
    finish = str(getattr(ch, "finish_reason", "") or "")
    refusal = getattr(msg, "refusal", None)
    if refusal or finish == "content_filter":
        raise LLMRefused(f"the model refused: {refusal or finish}")
    calls: list[ToolCall] = []
    for tc in getattr(msg, "tool_calls", None) or []:
        fn = getattr(tc, "function", None)
        name = getattr(fn, "name", None)
        raw = getattr(fn, "arguments", None) or ""
        if not name:
            raise LLMMalformed("a tool call without a function name")
        try:
            args = json.loads(raw) if raw.strip() else {}
        except ValueError as e:
            if finish == "length":
                raise LLMTruncated("tool call arguments cut at the token limit") from e
            raise LLMMalformed(f"tool call {name} has arguments that are not JSON: "
                               f"{raw[:120]!r}") from e
        if not isinstance(args, dict):
            raise LLMMalformed(f"tool call {name} arguments are not an object: {raw[:120]!r}")
        calls.append(ToolCall(str(getattr(tc, "id", "") or f"call_{len(calls)}"), name, args,
                              raw))
    content = getattr(msg, "content", None) or ""
    if finish == "length" and not calls:
        raise LLMTruncated("the completion stopped at the token limit")
    if not content.strip() and not calls:
        raise LLMMalformed("LLM response is empty: no content and no tool call")
    usage = getattr(resp, "usage", None)
    # content "" (not None) with tool calls: llama.cpp's server validates it as a string
    message: dict[str, object] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [{"id": c.id, "type": "function",
                                  "function": {"name": c.name, "arguments": c.raw or "{}"}}
                                 for c in calls]
    return ChatResult(content, tuple(calls), finish,
                      int(getattr(usage, "prompt_tokens", 0) or 0),
                      int(getattr(usage, "completion_tokens", 0) or 0), message)


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


def parse_json(text: str) -> object:
    """The first JSON object or array in a completion (inside a code fence or bare)."""
    text = text or ""
    m = _FENCE.search(text)
    cands = [m.group(1)] if m else []
    cands.append(text)
    dec = json.JSONDecoder()
    for c in cands:
        c = c.strip()
        for i, ch in enumerate(c):
            if ch in "{[":
                try:
                    return dec.raw_decode(c[i:])[0]
                except ValueError:
                    continue
    raise LLMMalformed(f"expected JSON in the completion, got {text[:120]!r}")


def _short(e: Exception) -> str:
    return str(e).replace("\n", " ")[:200]


__all__ = ["ChatResult", "LLMClient", "LLMConfig", "LLMError", "LLMMalformed",
           "LLMNotConfigured", "LLMRefused", "LLMRequestRejected", "LLMTruncated",
           "LLMUnavailable", "RequestLog", "ToolCall", "parse_json", "to_result"]
