"""What the three agents share: one TranslationState, one model client, the trajectory, AutoGen events."""
from __future__ import annotations

import json
import time
from abc import abstractmethod
from typing import AsyncGenerator, Sequence

from autogen_agentchat.agents import BaseChatAgent
from autogen_agentchat.base import Response
from autogen_agentchat.messages import (BaseAgentEvent, BaseChatMessage, TextMessage, ThoughtEvent,
                                        ToolCallExecutionEvent, ToolCallRequestEvent)
from autogen_core import CancellationToken, FunctionCall
from autogen_core.models import (AssistantMessage, ChatCompletionClient, FunctionExecutionResult, LLMMessage,
                                 RequestUsage, UserMessage)

from repotrans.agents.state import ContextEntry, TranslationState
from repotrans.agents.trajectory import Trajectory
from repotrans.errors import RepotransError, TaskError
from repotrans.prompts import render
from repotrans.prompts.slots import build_slots

Event = BaseAgentEvent | BaseChatMessage | Response
MAX_FORMAT_RETRIES = 2      # a format error re-asks the model this many times
FAILED = "TRANSLATION_FAILED"


class StepAgent(BaseChatAgent):
    """Base for the RAG, Context and Refine agents; subclasses implement `steps`."""

    def __init__(self, name: str, description: str, state: TranslationState, client: ChatCompletionClient,
                 trajectory: Trajectory):
        super().__init__(name, description)
        self.state = state
        self.client = client
        self.trajectory = trajectory
        self._calls = 0

    @property
    def produced_message_types(self) -> Sequence[type[BaseChatMessage]]:
        return (TextMessage,)

    async def on_messages(self, messages: Sequence[BaseChatMessage], cancellation_token: CancellationToken
                          ) -> Response:
        async for item in self.on_messages_stream(messages, cancellation_token):
            if isinstance(item, Response):
                return item
        raise TaskError(f"agent {self.name} ended without a response")

    async def on_messages_stream(self, messages: Sequence[BaseChatMessage], cancellation_token: CancellationToken
                                 ) -> AsyncGenerator[Event, None]:
        inner: list[BaseAgentEvent | BaseChatMessage] = []
        summary = ""
        try:
            async for item in self.steps(cancellation_token):
                if isinstance(item, str):
                    summary = item
                    continue
                inner.append(item)
                yield item
        except RepotransError as exc:   # kept on the state, re-raised by the session after the team stops
            self.state.error = exc
            summary = f"{FAILED} {type(exc).__name__}: {exc}"
        self.trajectory.record("agent_done", agent=self.name, summary=summary)
        yield Response(chat_message=TextMessage(content=summary, source=self.name), inner_messages=inner)

    async def on_reset(self, cancellation_token: CancellationToken) -> None:
        """The state belongs to the session; nothing agent-local to reset."""

    @abstractmethod
    def steps(self, cancellation_token: CancellationToken) -> AsyncGenerator[BaseAgentEvent | str, None]:
        """The agent's work: yields AutoGen events, and strings (the last one is the agent's reply)."""

    # -- model ---------------------------------------------------------------------------------------
    def prompt(self, step: str, **extra) -> str:
        self.state.step = step
        return render(step, build_slots(self.state, step, **extra))

    async def ask(self, step: str, messages: list[LLMMessage], cancellation_token: CancellationToken
                  ) -> tuple[str, ThoughtEvent]:
        """One model call; usage, timing and the exchange go to the state and the trajectory."""
        self.state.step = step
        started = time.time()
        try:
            result = await self.client.create(messages, cancellation_token=cancellation_token)
        except RepotransError:
            raise
        except Exception as exc:  # server gone after retries, bad key, exhausted script: the task fails
            raise TaskError(f"model call failed during {step}: {type(exc).__name__}: {exc}") from exc
        text = result.content if isinstance(result.content, str) else json.dumps(
            [c.model_dump() for c in result.content])
        usage = result.usage or RequestUsage(prompt_tokens=0, completion_tokens=0)
        self.state.record_usage(usage.prompt_tokens, usage.completion_tokens, bool(result.cached))
        self.trajectory.record(
            "model", agent=self.name, step=step,
            messages=[{"role": type(m).__name__, "content": m.content} for m in messages],
            response=text, usage={"prompt": usage.prompt_tokens, "completion": usage.completion_tokens},
            cached=bool(result.cached), seconds=round(time.time() - started, 3))
        return text, ThoughtEvent(content=text, source=self.name, models_usage=usage,
                                  metadata={"step": step})

    @staticmethod
    def correction(messages: list[LLMMessage], answer: str, note: str) -> list[LLMMessage]:
        """The conversation with the bad answer and a correction appended."""
        return [*messages, AssistantMessage(content=answer, source="model"), UserMessage(content=note, source="user")]

    # -- tools -----------------------------------------------------------------------------------------
    def tool_request(self, name: str, args: dict) -> tuple[FunctionCall, ToolCallRequestEvent]:
        self._calls += 1
        call = FunctionCall(id=f"{self.name}-{self._calls}", name=name, arguments=json.dumps(args))
        return call, ToolCallRequestEvent(content=[call], source=self.name)

    def tool_result(self, call: FunctionCall, output: dict) -> ToolCallExecutionEvent:
        self.trajectory.record("tool", agent=self.name, step=self.state.step, tool=call.name,
                               args=json.loads(call.arguments), output=output)
        result = FunctionExecutionResult(call_id=call.id, name=call.name, is_error="error" in output,
                                         content=json.dumps(output, ensure_ascii=False))
        return ToolCallExecutionEvent(content=[result], source=self.name)

    async def gather(self, tool: str, args: dict) -> AsyncGenerator[BaseAgentEvent, None]:
        """Run one context tool as an AutoGen tool call and add its output to the gathered context."""
        call, request = self.tool_request(tool, args)
        yield request
        services = self.state.services
        if services is None:
            raise TaskError("no services attached to the translation state")
        output = services.run_tool(tool, args)
        if "error" in output:
            hints = output.get("did_you_mean") or []
            outcome = f"error: {output['error']}" + (f" (did you mean: {', '.join(map(str, hints[:5]))})" if hints else "")
        else:
            self.state.context.append(ContextEntry(tool=tool, args=args, output=output))
            outcome = f"ok, see Gathered Context {len(self.state.context)}"
        self.state.last_commands.append({"tool": tool, "args": args, "outcome": outcome})
        yield self.tool_result(call, output)
