"""BuiltinChatClient: an AutoGen ChatCompletionClient answered by the offline deterministic policy.

It ignores the prompt text and answers from the shared TranslationState (`state.step` says which
step is asking); see repotrans.policy.steps. Token counts are whitespace word counts, so the
agents' usage bookkeeping stays meaningful without a tokenizer.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Mapping, Optional, Sequence

from autogen_core import CancellationToken
from autogen_core.models import (CreateResult, LLMMessage, ModelCapabilities, ModelInfo,
                                 RequestUsage)
from autogen_core.tools import Tool, ToolSchema
from pydantic import BaseModel

from repotrans.agents.one_shot import OneShotClient
from repotrans.agents.models import register_client
from repotrans.errors import TaskError
from repotrans.policy.steps import ANSWERS

if TYPE_CHECKING:
    from repotrans.agents.state import TranslationState

MODEL_INFO = ModelInfo(vision=False, function_calling=False, json_output=True, family="builtin",
                       structured_output=False)
CONTEXT_WINDOW = 1_000_000


def _words(messages: Sequence[LLMMessage]) -> int:
    return sum(len(str(m.content).split()) for m in messages)


class BuiltinChatClient(OneShotClient):
    """Deterministic offline 'model': same state, same answer."""

    def __init__(self, state: "TranslationState"):
        self.state = state
        self._last = RequestUsage(prompt_tokens=0, completion_tokens=0)
        self._total = RequestUsage(prompt_tokens=0, completion_tokens=0)

    async def create(self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = [],
                     tool_choice: Tool | Literal["auto", "required", "none"] = "auto",
                     json_output: Optional[bool | type[BaseModel]] = None,
                     extra_create_args: Mapping[str, Any] = {},
                     cancellation_token: Optional[CancellationToken] = None) -> CreateResult:
        answer = ANSWERS.get(self.state.step)
        if answer is None:
            raise TaskError(f"the builtin policy has no answer for step {self.state.step!r}")
        text = answer(self.state)
        self._last = RequestUsage(prompt_tokens=_words(messages), completion_tokens=len(text.split()))
        self._total = RequestUsage(prompt_tokens=self._total.prompt_tokens + self._last.prompt_tokens,
                                   completion_tokens=self._total.completion_tokens + self._last.completion_tokens)
        return CreateResult(finish_reason="stop", content=text, usage=self._last, cached=False)

    async def close(self) -> None:
        """Nothing to release."""

    def actual_usage(self) -> RequestUsage:
        return self._last

    def total_usage(self) -> RequestUsage:
        return self._total

    def count_tokens(self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = []) -> int:
        return _words(messages)

    def remaining_tokens(self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = []) -> int:
        return CONTEXT_WINDOW - _words(messages)

    @property
    def capabilities(self) -> ModelCapabilities:  # type: ignore[override]
        return ModelCapabilities(vision=False, function_calling=False, json_output=True)  # type: ignore[typeddict-item]

    @property
    def model_info(self) -> ModelInfo:
        return MODEL_INFO


def _make(config, state: "TranslationState") -> BuiltinChatClient:
    return BuiltinChatClient(state)


register_client("builtin", _make)
