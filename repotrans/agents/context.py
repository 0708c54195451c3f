"""Context agent: a loop in which the model names one tool per turn until it has enough context."""
from __future__ import annotations

from typing import AsyncGenerator

from autogen_agentchat.messages import BaseAgentEvent
from autogen_core import CancellationToken
from autogen_core.models import LLMMessage, UserMessage

from repotrans.agents import parse
from repotrans.agents.base import StepAgent
from repotrans.agents.state import TranslationState
from repotrans.prompts.slots import tool_slots

FIXED_TOOLS = ("get_source_class_info", "get_target_class_info", "find_target_imports")
ENOUGH = "enough"


def check_call(state: TranslationState, tool: object, args: object) -> str | None:
    """Why a requested tool call cannot run (unknown tool, bad arguments, a repeat), or None."""
    known = [t["name"] for t in tool_slots()]
    if not isinstance(tool, str) or tool not in known:
        return f"unknown tool {tool!r}; the tools are {', '.join(known)}"
    if not isinstance(args, dict):
        return '"arguments" must be a JSON object'
    if any(e["tool"] == tool and e["args"] == args for e in state.last_commands):
        return f"{tool}({args}) was already called; its result is listed under Last Command"
    return None


class ContextAgent(StepAgent):
    def __init__(self, state, client, trajectory):
        super().__init__("context", "Gathers repository context with the five tools.", state, client, trajectory)

    async def steps(self, ct: CancellationToken) -> AsyncGenerator[BaseAgentEvent | str, None]:
        switches = self.state.config.agents
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
        retry: tuple[list[LLMMessage], str, str] | None = None
        for _ in range(switches.max_context_iterations):
            if retry is None:
                messages: list[LLMMessage] = [UserMessage(content=self.prompt("context"), source="user")]
            else:
                messages = self.correction(*retry)
            text, event = await self.ask("context", messages, ct)
            yield event
            obj = parse.json_object(text)
            tool = obj.get("tool", obj.get("name")) if obj else None
            args = (obj.get("arguments", {}) if obj else None) or {}
            if tool == ENOUGH:
                stop = f"model has enough ({obj.get('reason', '')})"
                break
            problem = "no JSON object found" if obj is None else check_call(self.state, tool, args)
            if problem is not None:
                self.state.notes.append(f"context: {problem}")
                retry = (messages, text, f"{problem}. Answer with exactly one JSON object: "
                                         '{"tool": "<tool name>", "arguments": {...}} or {"tool": "enough", "reason": "..."}')
                continue
            retry = None
            async for event in self.gather(tool, args):
                yield event
        yield f"context: {len(self.state.last_commands)} tool calls, stopped: {stop}"
