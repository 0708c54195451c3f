"""The one streaming behaviour our clients share: the stream is the whole answer, once."""
from __future__ import annotations

from typing import Any, AsyncGenerator, Literal, Mapping, Optional, Sequence

from autogen_core import CancellationToken
from autogen_core.models import ChatCompletionClient, CreateResult, LLMMessage
from autogen_core.tools import Tool, ToolSchema
from pydantic import BaseModel


class OneShotClient(ChatCompletionClient):
    """A ChatCompletionClient whose `create_stream` yields the result of `create` (no partial chunks)."""

    async def create_stream(self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = [],
                            tool_choice: Tool | Literal["auto", "required", "none"] = "auto",
                            json_output: Optional[bool | type[BaseModel]] = None,
                            extra_create_args: Mapping[str, Any] = {},
                            cancellation_token: Optional[CancellationToken] = None
                            ) -> AsyncGenerator[str | CreateResult, None]:
        yield await self.create(messages, tools=tools, tool_choice=tool_choice, json_output=json_output,
                                extra_create_args=extra_create_args, cancellation_token=cancellation_token)
