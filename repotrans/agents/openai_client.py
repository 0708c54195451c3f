"""An AutoGen ChatCompletionClient for any OpenAI-compatible endpoint (OpenAI, DeepSeek, vLLM, Ollama, ...).

Written over the openai SDK rather than autogen's client so that what real servers send survives:
`reasoning_content` (or `reasoning`), tool calls whose arguments are an object, `finish_reason`,
server-side prompt-cache hits (`prompt_tokens_details.cached_tokens`, DeepSeek's
`prompt_cache_hit_tokens`), a missing `usage` (reported as such, never as 0 tokens), and an answer
without `choices` (a one-line TaskError).

The SDK's own retries are off: a timed-out request is never sent again (a single-slot local server is
still busy with it; the next call waits out its estimated remaining time instead), while 5xx answers,
refused connections and 429s are retried `max_retries` times with backoff. Each call's time limit is
the `[model] timeout` setting (connect, first byte and the whole answer; never lengthened), else scaled to
its max_tokens and the measured generation speed plus what an abandoned request may still hold the server
(window.ServerLimits); a 400 naming the context window comes back as a ContextOverflow.
"""
from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any, Literal, Mapping, Optional, Sequence

from autogen_core import CancellationToken, FunctionCall
from autogen_core.models import (AssistantMessage, CreateResult, FunctionExecutionResultMessage,
                                 LLMMessage, ModelCapabilities, ModelInfo, RequestUsage, SystemMessage, UserMessage)
from autogen_core.tools import Tool, ToolSchema
from pydantic import BaseModel

from repotrans.agents.one_shot import OneShotClient
from repotrans.agents.config import ModelConfig
from repotrans.agents.window import ModelTimeout, ServerLimits, overflow_from
from repotrans.errors import TaskError

RETRY_STATUSES = (429, 500, 502, 503, 504)
log = logging.getLogger("repotrans.model")

FINISH = {"stop": "stop", "length": "length", "tool_calls": "function_calls", "function_call": "function_calls",
          "content_filter": "content_filter", "eos": "stop", "end_turn": "stop", "max_tokens": "length"}


class ModelResult(CreateResult):
    """A CreateResult plus what the server said about caching and usage."""
    cached_prompt_tokens: int = 0        # prompt tokens the server served from its prompt cache
    usage_reported: bool = True          # False: the server sent no usage (counts are unknown, not 0)
    reasoning: Optional[str] = None      # reasoning_content / reasoning, as the server sent it
    text_with_calls: str = ""            # text content that came along with tool calls


def to_openai(messages: Sequence[LLMMessage]) -> list[dict]:
    """AutoGen messages as OpenAI chat messages."""
    out: list[dict] = []
    for m in messages:
        if isinstance(m, SystemMessage):
            out.append({"role": "system", "content": m.content})
        elif isinstance(m, UserMessage):
            out.append({"role": "user", "content": m.content if isinstance(m.content, str) else str(m.content)})
        elif isinstance(m, AssistantMessage):
            if isinstance(m.content, str):
                out.append({"role": "assistant", "content": m.content})
            else:
                out.append({"role": "assistant", "content": m.thought or None, "tool_calls": [
                    {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                    for c in m.content]})
        elif isinstance(m, FunctionExecutionResultMessage):
            out += [{"role": "tool", "tool_call_id": r.call_id, "content": r.content} for r in m.content]
        else:
            raise TaskError(f"cannot send a {type(m).__name__} to an OpenAI-compatible server")
    return out


def tool_param(tool: Tool | ToolSchema) -> dict:
    schema = tool.schema if isinstance(tool, Tool) else tool
    return {"type": "function", "function": {k: schema[k] for k in ("name", "description", "parameters")
                                             if k in schema}}


class OpenAICompatibleClient(OneShotClient):
    def __init__(self, model: ModelConfig, info: ModelInfo, api_key: str | None,
                 limits: ServerLimits | None = None):
        from openai import AsyncOpenAI

        self.model = model
        self._info = info
        self._client = AsyncOpenAI(api_key=api_key or "not-needed", base_url=model.base_url, max_retries=0)
        self.limits: ServerLimits = limits if limits is not None else ServerLimits(model)
        self._total = RequestUsage(prompt_tokens=0, completion_tokens=0)
        self._last = RequestUsage(prompt_tokens=0, completion_tokens=0)

    def request_body(self, messages: Sequence[LLMMessage], tools: Sequence[Tool | ToolSchema],
                     json_output: Optional[bool | type[BaseModel]], extra: Mapping[str, Any]) -> dict:
        body: dict[str, Any] = {"model": self.model.name, "messages": to_openai(messages),
                                "temperature": self.model.temperature, "max_tokens": self.model.max_tokens}
        if self.model.seed is not None:
            body["seed"] = self.model.seed
        if tools:
            body["tools"] = [tool_param(t) for t in tools]
        if json_output is True:
            body["response_format"] = {"type": "json_object"}
        body.update(extra)
        return body

    async def create(self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = [],
                     tool_choice: Tool | Literal["auto", "required", "none"] = "auto",
                     json_output: Optional[bool | type[BaseModel]] = None,
                     extra_create_args: Mapping[str, Any] = {},
                     cancellation_token: Optional[CancellationToken] = None) -> ModelResult:
        body = self.request_body(messages, tools, json_output, extra_create_args)
        for attempt in range(2):       # an answer without choices (an overloaded server) is asked once more
            started = time.monotonic()
            raw = await self._send(body)
            try:
                data = json.loads(raw.text) if raw.text else {}
            except json.JSONDecodeError:
                raise TaskError(f"the model server answered with invalid JSON: {raw.text[:120]!r}") from None
            if attempt == 0 and isinstance(data, dict) and not data.get("error") and not data.get("choices"):
                continue
            break
        result = self.read(data)
        if result.usage_reported:
            self.limits.calibrate(self.limits.raw_count(body["messages"], body.get("tools") or ()),
                                  result.usage.prompt_tokens)
            self.limits.observe(result.usage.completion_tokens, time.monotonic() - started)
        return result

    async def _send(self, body: dict):
        """One request: retried after 5xx, 429 and refused connections, never after a timeout."""
        import openai

        seconds, how = self.limits.timeout(int(body.get("max_tokens") or self.model.max_tokens),
                                           self.limits.prompt_tokens(body["messages"], body.get("tools") or ()))
        if self.model.timeout is None:         # the user's --model-timeout is the bound, never lengthened
            seconds += self.limits.busy_for()
        for attempt in range(self.model.max_retries + 1):
            try:                               # connect, first byte and the whole answer within `seconds`
                return await asyncio.wait_for(self._client.chat.completions.with_raw_response.create(
                    **body, timeout=seconds), timeout=seconds)
            except (openai.APITimeoutError, asyncio.TimeoutError):
                self.limits.abandoned(int(body.get("max_tokens") or self.model.max_tokens))
                raise ModelTimeout(f"the model server did not answer within {seconds:.0f} s ({how}); "
                                f"not sent again, the server may still be working on it") from None
            except openai.APIStatusError as exc:
                overflow = overflow_from(exc.status_code, _json(exc.response))
                if overflow is not None:
                    raise overflow from None
                if exc.status_code not in RETRY_STATUSES or attempt == self.model.max_retries:
                    raise
                wait = _retry_after(exc) or 2 ** attempt
                self._waiting(f"HTTP {exc.status_code}", wait, attempt)
                await asyncio.sleep(wait)
            except openai.APIConnectionError:
                if attempt == self.model.max_retries:
                    raise
                self._waiting("unreachable", 2 ** attempt, attempt)
                await asyncio.sleep(2 ** attempt)
        raise AssertionError("unreachable")

    def _waiting(self, what: str, seconds: float, attempt: int) -> None:
        """Say, while it waits, that a request is retried (the `repotrans.model` logger; the CLI prints it)."""
        log.warning("model server %s (model %r): %s; retrying in %.0f s (attempt %d of %d)",
                    self.model.base_url or "https://api.openai.com/v1", self.model.name, what, seconds,
                    attempt + 2, self.model.max_retries + 1)

    def read(self, data: dict) -> ModelResult:
        """A chat.completion JSON body as a ModelResult."""
        if not isinstance(data, dict):
            raise TaskError("the model server answered with something that is not a chat completion")
        if data.get("error"):
            err = data["error"]
            raise TaskError(f"the model server reported an error: {err.get('message', err) if isinstance(err, dict) else err}")
        choices = data.get("choices") or []
        if not choices:
            raise TaskError(f"the model server answered without choices (model {data.get('model', self.model.name)!r}, "
                            f"id {data.get('id', '?')}); is the model loaded and the request within its context?")
        choice = choices[0] or {}
        message = choice.get("message") or {}
        content = message.get("content") or ""
        if isinstance(content, list):       # content parts
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        reasoning = message.get("reasoning_content") or message.get("reasoning") or None
        calls = []
        for n, call in enumerate(message.get("tool_calls") or []):
            fn = call.get("function") or {}
            args = fn.get("arguments", fn.get("parameters", {}))
            calls.append(FunctionCall(id=call.get("id") or f"call-{n}", name=str(fn.get("name", "")),
                                      arguments=args if isinstance(args, str) else json.dumps(args)))
        usage = data.get("usage")
        prompt = int((usage or {}).get("prompt_tokens") or 0)
        completion = int((usage or {}).get("completion_tokens") or 0)
        details = (usage or {}).get("prompt_tokens_details") or {}
        cached = int(details.get("cached_tokens") or (usage or {}).get("prompt_cache_hit_tokens") or 0)
        finish = FINISH.get(str(choice.get("finish_reason") or "stop"), "unknown")
        result_content: str | list[FunctionCall] = content
        if calls:
            result_content = calls
            finish = "function_calls" if finish != "length" else finish
        self._last = RequestUsage(prompt_tokens=prompt, completion_tokens=completion)
        self._total = RequestUsage(prompt_tokens=self._total.prompt_tokens + prompt,
                                   completion_tokens=self._total.completion_tokens + completion)
        return ModelResult(finish_reason=finish, content=result_content, usage=self._last, cached=False,
                           thought=reasoning or (content.strip() if calls else None) or None,
                           cached_prompt_tokens=cached, usage_reported=usage is not None, reasoning=reasoning,
                           text_with_calls=content if calls else "")

    async def close(self) -> None:
        await self._client.close()

    def actual_usage(self) -> RequestUsage:
        return self._last

    def total_usage(self) -> RequestUsage:
        return self._total

    def count_tokens(self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = []) -> int:
        return self.limits.prompt_tokens(to_openai(messages), [tool_param(t) for t in tools])

    def remaining_tokens(self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = []) -> int:
        return max(0, self.limits.window().tokens - self.count_tokens(messages, tools=tools))

    @property
    def capabilities(self) -> ModelCapabilities:  # type: ignore[override]
        return ModelCapabilities(vision=False, function_calling=self._info["function_calling"],  # type: ignore
                                 json_output=self._info["json_output"])

    @property
    def model_info(self) -> ModelInfo:
        return self._info


def _json(response) -> object:
    try:
        return response.json()
    except Exception:       # not JSON: the text is all there is
        return getattr(response, "text", "")


def _retry_after(exc) -> float | None:
    try:
        return float(exc.response.headers.get("retry-after"))
    except (TypeError, ValueError, AttributeError):
        return None
