"""Context agent: a loop in which the model names tools (one JSON object, or native tool calls) until it has enough.

A model that gives MAX_UNUSABLE unusable answers in a row (code or prose where a tool call was asked, a
call already made), or would be sent a request it was already answered, makes no progress: the step
ends there and gathers the tools' deterministic plan (FIXED_TOOLS) instead (agents.progress)."""
from __future__ import annotations

from typing import AsyncGenerator

from autogen_agentchat.messages import BaseAgentEvent
from autogen_core import CancellationToken
from autogen_core.models import LLMMessage

from repotrans.agents import lenient_json, parse
from repotrans.agents.base import StepAgent
from repotrans.agents.budget import BudgetError
from repotrans.agents.progress import MAX_UNUSABLE, RepeatedRequest, wrong_kind
from repotrans.agents.state import Handoff
from repotrans.prompts.slots import function_tools, tool_slots

FIXED_TOOLS = ("get_source_class_info", "get_target_class_info", "find_target_imports")
ENOUGH = "enough"
MAX_CALLS_PER_ANSWER = 3
ASKED = 'one JSON object {"tool": "<tool name>", "arguments": {...}} or {"tool": "enough", "reason": "..."}'
FORMAT = f"Answer with exactly {ASKED}."
PLAN = "the tools' deterministic plan"


def check_call(handoff: Handoff, tool: object, args: object) -> str | None:
    """Why a requested tool call cannot run (unknown tool, bad arguments, a repeat), or None."""
    known = [t["name"] for t in tool_slots()]
    if not isinstance(tool, str) or tool not in known:
        hint = "" if tool is not None else ' (the object needs a "tool" key)'
        return f"unknown tool {tool!r}{hint}; the tools are {', '.join(known)}"
    if not isinstance(args, dict):
        return '"arguments" must be a JSON object'
    if any(e["tool"] == tool and e["args"] == args for e in handoff.last_commands):
        return f"{tool}({args}) was already called; its result is listed under Last Command"
    return None


class ContextAgent(StepAgent):
    """Adds the context it gathers (and the calls it made) to the hand-off it received."""

    def __init__(self, brief, client, trajectory):
        super().__init__("context", "Gathers repository context with the five tools.", brief, client, trajectory)

    async def steps(self, ct: CancellationToken) -> AsyncGenerator[BaseAgentEvent | str, None]:
        switches = self.brief.config.agents
        if not switches.context:
            yield "context: disabled"
            return
        if not switches.dynamic_prompt:
            for tool in FIXED_TOOLS:
                async for event in self.gather(tool, {}):
                    yield event
            yield f"context: fixed context from {len(FIXED_TOOLS)} tools"
            return
        stop = f"limit of {switches.max_context_iterations} iterations"
        retry: tuple[list[LLMMessage], object, str] | None = None
        stuck = None                      # why the model makes no progress: the plan is gathered instead
        for _ in range(switches.max_context_iterations):
            messages = self.messages(self.prompt("context")) if retry is None else self.correction(*retry)
            try:
                reply, event = await self.ask("context", messages, ct, tools=function_tools("context"),
                                              json_mode=self.json_mode and not self.native_tools)
            except RepeatedRequest as exc:
                stuck = str(exc)
                break
            except BudgetError as exc:    # the window is full: translate with what was gathered
                self.notes.append(f"context: stopped gathering: {exc}")
                stop = "the context window is full"
                break
            yield event
            requests, problem = self._requests(reply)
            retry = None
            done, ran = False, 0
            for call_id, tool, args in requests:
                if tool == ENOUGH:
                    stop, done = f"model has enough ({args.get('reason', '') if isinstance(args, dict) else ''})", True
                    continue
                why = check_call(self.handoff, tool, args)
                if why is not None:
                    problem = problem or why
                    continue
                ran += 1
                async for event in self.gather(tool, args, call_id):
                    yield event
            if done or ran:
                self.ledger.usable("context")
            if done:
                break
            if not ran:
                problem = problem or "no tool call in the answer"
                self.notes.append(f"context: {problem}")
                self.keep_draft("context", reply.text)
                if self.ledger.unusable("context"):
                    stuck = f"{MAX_UNUSABLE} unusable answers in a row, the last: {problem}"
                    break
                retry = (messages, reply, f"{self.not_usable('context', problem)} {FORMAT}")
        if stuck is not None:
            self.fall_back("context", stuck, PLAN)
            stop = f"no progress ({stuck}); gathered {PLAN}"
            for tool in FIXED_TOOLS:
                if check_call(self.handoff, tool, {}) is None:
                    async for event in self.gather(tool, {}):
                        yield event
        yield f"context: {len(self.handoff.last_commands)} tool calls, stopped: {stop}"

    def _requests(self, reply) -> tuple[list[tuple[str | None, object, object]], str | None]:
        """(call id, tool, arguments) of every request in the answer, and the first problem reading them."""
        if reply.calls:
            out, problem = [], None
            for call in reply.calls:
                args, why = reply.call_args(call)
                if why is not None:
                    problem = problem or why
                    continue
                out.append((call.id, call.name, args))
            return out, problem
        obj, problem = parse.json_answer(reply.text, keys=("tool", "name", "function"))
        if obj is None:
            return [], wrong_kind(reply.text, str(problem), ASKED)
        objects = [o for o in lenient_json.values(reply.text) if isinstance(o, dict)
                   and any(k in o for k in ("tool", "name", "function"))][:MAX_CALLS_PER_ANSWER] or [obj]
        out = []
        for o in objects:                 # several calls written in one answer run in order
            tool, args = parse.tool_call(o)
            out.append((None, tool, {"reason": o.get("reason", "")} if tool == ENOUGH else args))
        return out, None
