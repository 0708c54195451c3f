"""One model answer as the agents read it: text without reasoning, native tool calls, finish reason."""
from __future__ import annotations

from dataclasses import dataclass, field

from autogen_core import FunctionCall
from autogen_core.models import CreateResult

from repotrans.agents import lenient_json, parse


@dataclass
class Reply:
    text: str                                   # the answer, reasoning set aside
    reasoning: str = ""                         # <think> blocks, reasoning_content: kept for the trajectory
    calls: list[FunctionCall] = field(default_factory=list)
    finish: str = "stop"

    def summary(self) -> str:
        """The tool calls as text, for events and corrections when there is no text."""
        return "\n".join(f'{{"tool": "{c.name}", "arguments": {c.arguments or "{}"}}}' for c in self.calls)

    def call_args(self, call: FunctionCall) -> tuple[dict | None, str | None]:
        """A native call's arguments (read leniently), or why they cannot be read."""
        raw = call.arguments or "{}"
        try:
            value = lenient_json.loads(raw)
        except ValueError as exc:
            return None, f"the arguments of {call.name} are not valid JSON: {exc}"
        if isinstance(value, dict) and set(value) in ({"arguments"}, {"parameters"}) and isinstance(
                next(iter(value.values())), dict):
            value = next(iter(value.values()))       # {"parameters": {...}} wrapped once more
        if not isinstance(value, dict):
            return None, f"the arguments of {call.name} must be a JSON object"
        return value, None


def read_reply(result: CreateResult) -> Reply:
    """Split any CreateResult (ours, autogen's, the replay client's) into a Reply."""
    reasoning = getattr(result, "reasoning", None)
    if isinstance(result.content, str):
        answer = parse.split_reasoning(result.content, reasoning if reasoning is not None else result.thought)
        return Reply(text=answer.text, reasoning=answer.reasoning, finish=result.finish_reason)
    calls = [c for c in result.content if isinstance(c, FunctionCall)]
    side_text = getattr(result, "text_with_calls", None)
    if side_text is None:                     # other clients put the text beside tool calls in `thought`
        side_text, reasoning = result.thought or "", None
    answer = parse.split_reasoning(side_text or "", reasoning)
    return Reply(text=answer.text, reasoning=answer.reasoning, calls=calls, finish=result.finish_reason)
