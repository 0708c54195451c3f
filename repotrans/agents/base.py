"""What the three agents have in common: each is given the task's brief, the model client and the
trajectory, keeps its own work (current step, usage, notes, error), starts from the hand-off in the
last reply it receives and ends its turn with a reply that carries its own (HandoffMessage)."""
from __future__ import annotations

import asyncio
import json
import re
import time
from abc import abstractmethod
from typing import Any, AsyncGenerator, Literal, Sequence

from autogen_agentchat.agents import BaseChatAgent
from autogen_agentchat.base import Response
from autogen_agentchat.messages import (BaseAgentEvent, BaseChatMessage, BaseTextChatMessage, ThoughtEvent,
                                        ToolCallExecutionEvent, ToolCallRequestEvent)
from autogen_core import CancellationToken, FunctionCall
from autogen_core.models import (AssistantMessage, ChatCompletionClient, FunctionExecutionResult, LLMMessage,
                                 RequestUsage, SystemMessage, UserMessage)

from repotrans.agents.budget import MARGIN, OPTIONAL, BudgetError, Fit, fit_call, is_reasoning, trim_slots
from repotrans.agents.progress import Ledger, answer_kind, request_key
from repotrans.agents.reply import Reply, read_reply
from repotrans.agents.server_errors import describe
from repotrans.agents.state import ContextEntry, Handoff, PromptView, TaskBrief, Usage
from repotrans.agents.trajectory import Trajectory
from repotrans.agents.window import ContextOverflow, ModelTimeout, limits_of
from repotrans.errors import RepotransError, TaskError
from repotrans.prompts import render
from repotrans.prompts.slots import build_slots, system_prompt

Event = BaseAgentEvent | BaseChatMessage | Response
MAX_FORMAT_RETRIES = 2      # a format error re-asks the model this many times
FAILED = "TRANSLATION_FAILED"


class HandoffMessage(BaseTextChatMessage):
    """An agent's reply: a one-line summary (`content`, what termination conditions read) and the
    hand-off (agents.state.Handoff) the next agent starts from."""
    handoff: Any = None
    type: Literal["HandoffMessage"] = "HandoffMessage"


class StepAgent(BaseChatAgent):
    """Base for the RAG, Context and Refine agents; subclasses implement `steps`."""

    def __init__(self, name: str, description: str, brief: TaskBrief, client: ChatCompletionClient,
                 trajectory: Trajectory):
        super().__init__(name, description)
        self.brief = brief
        self.client = client
        self.trajectory = trajectory
        self.handoff = Handoff()            # received at the start of a turn, passed on at its end
        self.step = ""                      # the step being asked
        self.usage: dict[str, Usage] = {}   # per step
        self.notes: list[str] = []
        self.error: Exception | None = None
        self.turns = 0
        self._calls = 0
        self._rendered: dict[str, tuple[str, dict]] = {}    # prompt text -> (step, extra slots), to refit it
        self.ledger = Ledger()              # requests and answers per step, fallbacks, calls saved

    @property
    def produced_message_types(self) -> Sequence[type[BaseChatMessage]]:
        return (HandoffMessage,)

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
        handed = [m.handoff for m in messages if isinstance(m, HandoffMessage) and m.handoff is not None]
        self.handoff = handed[-1].copy() if handed else Handoff()
        self.turns += 1
        try:
            async for item in self.steps(cancellation_token):
                if isinstance(item, str):
                    summary = item
                    continue
                inner.append(item)
                yield item
        except RepotransError as exc:   # kept on the agent, re-raised by the team after it stops
            self.error = exc
            summary = f"{FAILED} {type(exc).__name__}: {exc}"
        except Exception as exc:        # a bug on an unforeseen answer fails this task, with its trajectory
            self.error = TaskError(f"{self.name} agent failed on {self.step}: {type(exc).__name__}: "
                                   f"{_one_line(exc)}")
            summary = f"{FAILED} {self.error}"
        self.trajectory.record("agent_done", agent=self.name, summary=summary)
        yield Response(chat_message=HandoffMessage(content=summary, source=self.name, handoff=self.handoff.copy()),
                       inner_messages=inner)

    async def on_reset(self, cancellation_token: CancellationToken) -> None:
        """A team runs one task once; an agent is made per task, so there is nothing to reset."""

    @abstractmethod
    def steps(self, cancellation_token: CancellationToken) -> AsyncGenerator[BaseAgentEvent | str, None]:
        """The agent's work: yields AutoGen events, and strings (the last one is the agent's reply)."""

    # -- model ---------------------------------------------------------------------------------------
    def prompt(self, step: str, **extra) -> str:
        self.step = step
        text = render(step, build_slots(PromptView(self.brief, self.handoff), step, **extra),
                      self.brief.config.prompts.folder)
        if len(self._rendered) > 64:
            self._rendered.clear()
        self._rendered[text] = (step, extra)
        return text

    def messages(self, prompt: str) -> list[LLMMessage]:
        """The system message with the stable instructions, then the step's prompt."""
        return [SystemMessage(content=system_prompt(self.brief, self.brief.config.prompts.folder)), UserMessage(content=prompt, source="user")]

    def record_usage(self, prompt: int, completion: int, cached: bool, server_cached: int = 0,
                     reported: bool = True) -> None:
        self.usage.setdefault(self.step, Usage()).add(prompt, completion, cached, server_cached, reported)

    @property
    def native_tools(self) -> bool:
        """Send tools as OpenAI `tools`: declared in model_info, or seen in an answer (detected)."""
        if self.handoff.native_tools is None:
            self.handoff.native_tools = bool(self.client.model_info.get("function_calling"))
        return self.handoff.native_tools

    @property
    def json_mode(self) -> bool:
        """response_format JSON: declared in model_info, and not switched off by an empty `{}` answer."""
        return bool(self.client.model_info.get("json_output")) and self.handoff.json_mode is not False

    async def ask(self, step: str, messages: list[LLMMessage], cancellation_token: CancellationToken,
                  tools: Sequence[dict] = (), json_mode: bool = False) -> tuple[Reply, ThoughtEvent]:
        """One model call, fitted into the context window first (budget.fit_call; a 400 naming the window
        refits it). A cut-off answer is asked again once: with more room when the window has it and the
        model reasons (or the cut answer was code), else briefly; an optional step's or a reflection's
        cut answer comes back as it is. A JSON-mode answer of `{}` switches JSON mode off and asks again.
        Usage, timing, budget, reasoning and the exchange go to this agent's record and the trajectory."""
        self.step = step
        tools = list(tools) if tools and self.native_tools else []
        limits = limits_of(self.client)
        reasoning = is_reasoning(self.client.model_info.get("family"))
        want = self.brief.config.model.max_tokens
        extra: dict = {}
        refits, more_room, brief = 0, False, False
        reply = result = None
        for _ in range(8):
            try:
                fit = await self._fit(step, messages, tools, want, reasoning) if limits is not None else None
            except BudgetError:
                if not tools:
                    raise
                tools = []          # the prompt's Tools slot describes them as text: the text protocol works
                self.notes.append(f"{step}: the tool definitions do not fit the context window; "
                                  "this call uses the text protocol")
                continue
            sent = fit.messages if fit is not None else messages
            if fit is not None:
                extra["max_tokens"] = fit.max_tokens
            key = request_key(_openai(sent), tools, json_mode, extra.get("max_tokens"))
            self.ledger.check(step, key)    # RepeatedRequest: the caller changes its request or moves on
            started = time.time()
            try:
                result = await self.client.create(sent, tools=tools, json_output=True if json_mode else None,
                                                  extra_create_args=extra, cancellation_token=cancellation_token)
            except ContextOverflow as exc:
                if limits is None or refits == 2:
                    raise
                refits += 1
                if exc.prompt_tokens and fit is not None:
                    limits.calibrate(limits.raw_count(_openai(sent), [{"type": "function", "function": t}
                                                                      for t in tools]), exc.prompt_tokens)
                limits.learn(exc)
                self.notes.append(f"{step}: the server's context window is {limits.window().tokens} tokens "
                                        f"(it refused {fit.prompt_tokens if fit else '?'} + {extra.get('max_tokens')}); "
                                        "prompt fitted again")
                self.trajectory.record("budget", agent=self.name, step=step, refused=str(exc),
                                       window=limits.window().tokens)
                continue
            except ModelTimeout as exc:
                raise describe(exc, self.brief.config.model) from exc
            except RepotransError:
                raise
            except Exception as exc:  # server gone after retries, bad key, exhausted script: the task fails
                if tools and _refuses_tools(exc):
                    self.handoff.native_tools, tools = False, []
                    self.notes.append(f"{step}: the server refuses tools; using the text protocol")
                    continue
                raise describe(exc, self.brief.config.model) from exc
            reply = read_reply(result)
            if reply.calls and not self.handoff.native_tools:
                self.handoff.native_tools = True
                self.notes.append(f"{step}: the model answers with tool calls; tools go as function calls now")
            self._record(step, sent, result, reply, tools, time.time() - started, fit)
            self.ledger.answered(step, key, reply.text or reply.summary())
            if json_mode and not reply.calls and re.fullmatch(r"\s*\{\s*\}\s*", reply.text or ""):
                json_mode, self.handoff.json_mode = False, False
                self.notes.append(f"{step}: the server answered {{}} in JSON mode (no answer); "
                                        "JSON mode is off for this task")
                continue
            if reply.finish != "length" or step in OPTIONAL or step == "reflect":
                break
            used = extra.get("max_tokens", want)
            room = fit.window.tokens - fit.prompt_tokens - MARGIN if fit is not None else 2 * used
            if not more_room and (reasoning or _looks_like_code(reply.text)) and room >= used * 3 // 2:
                more_room, want = True, min(2 * used, room)
                extra["max_tokens"] = want
                self.notes.append(f"{step}: answer cut off at {used} tokens; asked again with {want}")
                continue
            if brief:
                break
            brief = True
            messages = self.correction(messages, reply, f"Your answer was cut off at {used} tokens. Answer again, "
                                                        "briefly: only what the Output Format asks for, "
                                                        "no explanation.")
            self.notes.append(f"{step}: answer cut off at {used} tokens; asked again to be brief")
        if reply is None or result is None:
            raise TaskError(f"model call failed during {step}: no answer after fitting the prompt again")
        return reply, ThoughtEvent(content=reply.text or reply.summary(), source=self.name,
                                   models_usage=result.usage, metadata={"step": step})

    async def _fit(self, step: str, messages: list[LLMMessage], tools: list, want: int, reasoning: bool) -> Fit:
        """budget.fit_call in a worker thread (counting may ask the server's tokenizer); the step's prompt
        re-rendered with fewer slots when it was rendered by `prompt`."""
        prompt = messages[1].content if len(messages) > 1 and isinstance(messages[1].content, str) else None
        known = self._rendered.get(prompt) if prompt is not None else None
        rerender, slots = None, None
        if known is not None:
            kind, extra = known
            slots = build_slots(PromptView(self.brief, self.handoff), kind, **extra)
            override = self.brief.config.prompts.folder
            rerender = lambda trims: render(kind, trim_slots(slots, trims), override)  # noqa: E731
        limits = limits_of(self.client)
        fit = await asyncio.to_thread(fit_call, step, messages, limits, want, tools, rerender, slots, reasoning)
        cuts = [c for c in fit.cuts if not c.startswith("max_tokens")]
        if cuts:
            self.notes.append(f"{step}: fitted into the {fit.window.tokens}-token window "
                                    f"({fit.window.source}): {'; '.join(cuts)}")
        return fit

    def _record(self, step: str, messages: list[LLMMessage], result, reply: "Reply", tools: list,
                seconds: float, fit: Fit | None = None) -> None:
        usage = result.usage or RequestUsage(prompt_tokens=0, completion_tokens=0)
        reported = getattr(result, "usage_reported", True) and result.usage is not None
        server_cached = getattr(result, "cached_prompt_tokens", 0)
        self.record_usage(usage.prompt_tokens, usage.completion_tokens, bool(result.cached),
                                server_cached=server_cached, reported=reported)
        if not reported and not result.cached:
            self.notes.append(f"{step}: the server reported no token usage")
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
            cached=bool(result.cached), seconds=round(seconds, 3),
            budget=fit.to_json() if fit is not None else None)

    def not_usable(self, step: str, problem: str, lead: str = "Your answer was not usable: ") -> str:
        """The first sentence of a correction: what was wrong with the last answer, and that it repeats
        an earlier answer of the step when it does (so the corrected request differs from the last one)."""
        same = self.ledger.repeated_answer(step)
        if same is not None:
            return f"This answer is the same as your answer {same} of this step, which was not usable either: {problem}."
        return f"{lead}{problem}."

    def fall_back(self, step: str, reason: str, default: str) -> None:
        """An optional step takes its deterministic default: noted, counted and in the trajectory."""
        self.ledger.fallbacks.append({"step": step, "reason": reason, "default": default})
        self.notes.append(f"{step}: fell back to {default} ({reason})")
        self.trajectory.record("fallback", agent=self.name, step=step, reason=reason, default=default)

    def keep_draft(self, step: str, text: str) -> None:
        """A code answer in a planning step: kept for the generate step (Handoff.draft)."""
        if answer_kind(text) == "code":
            if self.handoff.draft is None:
                self.notes.append(f"{step}: the code in the answer is kept as a draft for the generate step")
            self.handoff.draft = text

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
        self.trajectory.record("tool", agent=self.name, step=self.step, tool=call.name,
                               args=json.loads(call.arguments), output=output)
        result = FunctionExecutionResult(call_id=call.id, name=call.name, is_error="error" in output,
                                         content=json.dumps(output, ensure_ascii=False))
        return ToolCallExecutionEvent(content=[result], source=self.name)

    async def gather(self, tool: str, args: dict, call_id: str | None = None) -> AsyncGenerator[BaseAgentEvent, None]:
        """Run one context tool as an AutoGen tool call and add its output to the gathered context."""
        call, request = self.tool_request(tool, args, call_id)
        yield request
        services = self.brief.services
        if services is None:
            raise TaskError("no services attached to the task brief")
        output = services.run_tool(tool, args)
        if "error" in output:
            hints = output.get("did_you_mean") or []
            outcome = f"error: {output['error']}" + (f" (did you mean: {', '.join(map(str, hints[:5]))})" if hints else "")
        else:
            self.handoff.context.append(ContextEntry(tool=tool, args=args, output=output))
            outcome = f"ok, see Gathered Context {len(self.handoff.context)}"
        self.handoff.last_commands.append({"tool": tool, "args": args, "outcome": outcome})
        yield self.tool_result(call, output)


def _openai(messages: list[LLMMessage]) -> list[dict]:
    from repotrans.agents.openai_client import to_openai

    return to_openai(messages)


def _looks_like_code(text: str) -> bool:
    """A fence, or C#-ish lines (braces and semicolons)."""
    return "```" in text or (text.count(";") >= 2 and "{" in text)


def _refuses_tools(exc: Exception) -> bool:
    """An HTTP 400 saying the model does not do tools (Ollama: "... does not support tools")."""
    return getattr(exc, "status_code", None) == 400 and "tool" in str(exc).lower()


def _one_line(exc: Exception) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= 300 else text[:297] + "..."
