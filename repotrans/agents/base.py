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
                                 RequestUsage, SystemMessage, UserMessage)

from repotrans.agents.reply import Reply, read_reply
from repotrans.agents.state import ContextEntry, TranslationState
from repotrans.agents.trajectory import Trajectory
from repotrans.errors import RepotransError, TaskError
from repotrans.prompts import render
from repotrans.prompts.slots import build_slots, system_prompt

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
        except Exception as exc:        # a bug on an unforeseen answer fails this task, with its trajectory
            self.state.error = TaskError(f"{self.name} agent failed on {self.state.step}: {type(exc).__name__}: "
                                         f"{_one_line(exc)}")
            summary = f"{FAILED} {self.state.error}"
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

    def messages(self, prompt: str) -> list[LLMMessage]:
        """The system message with the stable instructions, then the step's prompt."""
        return [SystemMessage(content=system_prompt(self.state)), UserMessage(content=prompt, source="user")]

    @property
    def native_tools(self) -> bool:
        """Send tools as OpenAI `tools`: declared in model_info, or seen in an answer (detected)."""
        if self.state.native_tools is None:
            self.state.native_tools = bool(self.client.model_info.get("function_calling"))
        return self.state.native_tools

    @property
    def json_mode(self) -> bool:
        return bool(self.client.model_info.get("json_output"))

    async def ask(self, step: str, messages: list[LLMMessage], cancellation_token: CancellationToken,
                  tools: Sequence[dict] = (), json_mode: bool = False) -> tuple[Reply, ThoughtEvent]:
        """One model call (a cut-off answer is asked again once with twice the room); usage, timing,
        reasoning and the exchange go to the state and the trajectory."""
        self.state.step = step
        tools = list(tools) if tools and self.native_tools else []
        extra: dict = {}
        for attempt in range(3):
            started = time.time()
            try:
                result = await self.client.create(messages, tools=tools, json_output=True if json_mode else None,
                                                  extra_create_args=extra, cancellation_token=cancellation_token)
            except RepotransError:
                raise
            except Exception as exc:  # server gone after retries, bad key, exhausted script: the task fails
                if tools and _refuses_tools(exc):
                    self.state.native_tools, tools = False, []
                    self.state.notes.append(f"{step}: the server refuses tools; using the text protocol")
                    continue
                raise TaskError(f"model call failed during {step}: {type(exc).__name__}: {_one_line(exc)}") from exc
            reply = read_reply(result)
            if reply.calls and not self.state.native_tools:
                self.state.native_tools = True
                self.state.notes.append(f"{step}: the model answers with tool calls; tools go as function calls now")
            self._record(step, messages, result, reply, tools, time.time() - started)
            if reply.finish != "length" or attempt == 2 or extra:
                break
            extra = {"max_tokens": 2 * self.state.config.model.max_tokens}
            self.state.notes.append(f"{step}: answer cut off at max_tokens; asked again with {extra['max_tokens']}")
        return reply, ThoughtEvent(content=reply.text or reply.summary(), source=self.name,
                                   models_usage=result.usage, metadata={"step": step})

    def _record(self, step: str, messages: list[LLMMessage], result, reply: "Reply", tools: list,
                seconds: float) -> None:
        usage = result.usage or RequestUsage(prompt_tokens=0, completion_tokens=0)
        reported = getattr(result, "usage_reported", True) and result.usage is not None
        server_cached = getattr(result, "cached_prompt_tokens", 0)
        self.state.record_usage(usage.prompt_tokens, usage.completion_tokens, bool(result.cached),
                                server_cached=server_cached, reported=reported)
        if not reported and not result.cached:
            self.state.notes.append(f"{step}: the server reported no token usage")
        self.trajectory.record(
            "model", agent=self.name, step=step,
            messages=[{"role": type(m).__name__, "content": m.content if isinstance(m.content, str)
                       else str(m.content)} for m in messages],
            tools=[t["name"] for t in tools],
            response=reply.text, reasoning=reply.reasoning or None,
            tool_calls=[{"id": c.id, "name": c.name, "arguments": c.arguments} for c in reply.calls] or None,
            finish_reason=reply.finish,
            usage={"prompt": usage.prompt_tokens, "completion": usage.completion_tokens,
                   "server_cached_prompt": server_cached, "reported": reported},
            cached=bool(result.cached), seconds=round(seconds, 3))

    @staticmethod
    def correction(messages: list[LLMMessage], answer: "Reply | str", note: str) -> list[LLMMessage]:
        """The conversation with the bad answer (its reasoning left out) and a correction appended."""
        text = answer if isinstance(answer, str) else answer.text or answer.summary()
        return [*messages, AssistantMessage(content=text, source="model"), UserMessage(content=note, source="user")]

    # -- tools -----------------------------------------------------------------------------------------
    def tool_request(self, name: str, args: dict, call_id: str | None = None
                     ) -> tuple[FunctionCall, ToolCallRequestEvent]:
        self._calls += 1
        call = FunctionCall(id=call_id or f"{self.name}-{self._calls}", name=name, arguments=json.dumps(args))
        return call, ToolCallRequestEvent(content=[call], source=self.name)

    def tool_result(self, call: FunctionCall, output: dict) -> ToolCallExecutionEvent:
        self.trajectory.record("tool", agent=self.name, step=self.state.step, tool=call.name,
                               args=json.loads(call.arguments), output=output)
        result = FunctionExecutionResult(call_id=call.id, name=call.name, is_error="error" in output,
                                         content=json.dumps(output, ensure_ascii=False))
        return ToolCallExecutionEvent(content=[result], source=self.name)

    async def gather(self, tool: str, args: dict, call_id: str | None = None) -> AsyncGenerator[BaseAgentEvent, None]:
        """Run one context tool as an AutoGen tool call and add its output to the gathered context."""
        call, request = self.tool_request(tool, args, call_id)
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


def _refuses_tools(exc: Exception) -> bool:
    """An HTTP 400 saying the model does not do tools (Ollama: "... does not support tools")."""
    return getattr(exc, "status_code", None) == 400 and "tool" in str(exc).lower()


def _one_line(exc: Exception) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= 300 else text[:297] + "..."
