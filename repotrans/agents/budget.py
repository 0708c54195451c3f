"""Fit one model call into the context window: what is cut, in which order, and how much room is left.

A call's prompt is the system message, the step's prompt and any correction turns, plus the tool
definitions when tools go as function calls. When prompt + the least answer the step can use does not
fit the window, these are cut, in this order, until it fits:

1. earlier correction turns (the first prompt and the last correction stay);
2. the last wrong answer, shortened to its head and tail;
3. retrieved examples, the lowest ranked first;
4. retrieval candidates shown to rag_filter, the lowest ranked first (one stays);
5. gathered context outputs shortened: every list keeps its first items (the tools rank them: the
   members the Java method uses come first), then the entries themselves, the latest first;
6. the tool-call history, the oldest first;
7. the repository conventions; for a reflection, the tool descriptions (it then asks for no context);
8. the test result a reflection or repair reads, and the reflection a repair reads, to their first lines.

What cannot be cut (the system message, the input method, the code and result a repair works on) is
the step's required part: if that alone does not fit, the call fails with one line naming the window,
the prompt size and the setting. `max_tokens` is what the window leaves, capped by the setting (and,
for JSON steps of non-reasoning models, by what a JSON answer needs).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

from autogen_core.models import AssistantMessage, LLMMessage

from repotrans.agents.window import ServerLimits, Window
from repotrans.errors import TaskError

RESERVE = {"rag_decide": 48, "rag_filter": 96, "context": 64, "reflect": 160, "generate": 256, "repair": 256}
JSON_CAP = {"rag_decide": 256, "rag_filter": 512, "context": 384}   # an answer of one small JSON object
OPTIONAL = ("rag_decide", "rag_filter")   # steps whose cut answers are given up rather than asked again
REASONING_FAMILIES = ("r1", "o1", "o3", "o4", "gpt-5", "qwq", "reasoning")
MARGIN = 16                 # tokens kept free for the count's own error
SHORT_ANSWER = 600          # characters of a wrong answer kept when history is cut

Rerender = Callable[[dict], str]     # trims -> the step's prompt rendered with them


class BudgetError(TaskError):
    """The step's required part does not fit the model's context window."""


@dataclass
class Fit:
    messages: list[LLMMessage]
    max_tokens: int
    prompt_tokens: int
    window: Window
    cuts: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"window": self.window.tokens, "window_source": self.window.source, "prompt": self.prompt_tokens,
                "max_tokens": self.max_tokens, "cuts": self.cuts}


def is_reasoning(family: str | None) -> bool:
    return any(str(family or "").lower().startswith(f) for f in REASONING_FAMILIES)


def trim_slots(slots: dict, trims: dict) -> dict:
    """The slots with `trims` applied: {"examples": n kept, "candidates": n, "shorten": level,
    "gathered_context": n, "last_command": n kept (the newest)}."""
    out = dict(slots)
    for key in ("examples", "candidates", "gathered_context"):
        if key in trims and key in out:
            out[key] = list(out[key])[:trims[key]]
    if trims.get("shorten") and out.get("gathered_context"):
        out["gathered_context"] = [dict(c, output=_shorten(c["output"], 2 ** trims["shorten"]))
                                   for c in out["gathered_context"]]
    if "last_command" in trims and out.get("last_command"):
        keep = trims["last_command"]
        out["last_command"] = list(out["last_command"])[-keep:] if keep else []
    for key in ("conventions", "port_calls", "tools"):
        if key in trims and out.get(key):
            out[key] = list(out[key])[:trims[key]]
    for key in ("result", "reflection"):
        if trims.get(key) and isinstance(out.get(key), str):
            lines = out[key].splitlines()
            keep = max(1, len(lines) // 2 ** trims[key])
            out[key] = "\n".join(lines[:keep]) + (f"\n... {len(lines) - keep} more lines left out to fit the "
                                                  "context window" if keep < len(lines) else "")
    return out


def _shorten(value, divisor: int):
    """Every list longer than one item keeps its first 1/divisor (at least one) and says how many went."""
    if isinstance(value, dict):
        return {k: _shorten(v, divisor) for k, v in value.items()}
    if isinstance(value, list) and len(value) > 1:
        keep = max(1, len(value) // divisor)
        rest = len(value) - keep
        return [_shorten(v, divisor) for v in value[:keep]] + ([f"... {rest} more left out to fit the context "
                                                                 "window"] if rest else [])
    if isinstance(value, str) and len(value) > 400 * 2 // divisor:
        return value[:max(200, 800 // divisor)] + " ..."
    return value


def slot_levels(slots: dict, step: str = "") -> Iterator[tuple[dict, str]]:
    """Ever stronger trims in the stated order, each with the cut it adds (for the trajectory)."""
    trims: dict = {}
    n = len(slots.get("examples") or [])
    for keep in range(n - 1, -1, -1):
        trims = {**trims, "examples": keep}
        yield trims, f"retrieved examples {n} -> {keep}"
    n = len(slots.get("candidates") or [])
    for keep in range(n - 1, 0, -1):
        trims = {**trims, "candidates": keep}
        yield trims, f"retrieval candidates shown {n} -> {keep}"
    if slots.get("gathered_context"):
        for level in (1, 2, 3):
            trims = {**trims, "shorten": level}
            yield trims, f"gathered context outputs cut to 1/{2 ** level} of each list"
        n = len(slots["gathered_context"])
        for keep in range(n - 1, -1, -1):
            trims = {**trims, "gathered_context": keep}
            yield trims, f"gathered context entries {n} -> {keep}"
    n = len(slots.get("last_command") or [])
    for keep in range(n - 1, -1, -1):
        trims = {**trims, "last_command": keep}
        yield trims, f"tool-call history {n} -> {keep}"
    n = len(slots.get("port_calls") or [])
    for keep in (n // 2, 0) if n > 1 else (0,) if n else ():
        trims = {**trims, "port_calls": keep}
        yield trims, f"the port's call idioms {n} -> {keep}"
    if slots.get("conventions"):
        trims = {**trims, "conventions": 0}
        yield trims, "repository conventions left out"
    if step == "reflect" and slots.get("tools"):
        trims = {**trims, "tools": 0}
        yield trims, "tool descriptions left out (the reflection asks for no more context)"
    for key in ("result", "reflection"):
        if isinstance(slots.get(key), str) and slots[key].count("\n") > 1:
            for level in (1, 2, 3):
                trims = {**trims, key: level}
                yield trims, f"{'test result' if key == 'result' else 'reflection'} cut to its first 1/{2 ** level}"


def history_levels(messages: list[LLMMessage]) -> Iterator[tuple[list[LLMMessage], str]]:
    """The conversation with earlier corrections dropped, then the last wrong answer shortened."""
    if len(messages) > 4:
        messages = [*messages[:2], *messages[-2:]]
        yield messages, "earlier correction turns dropped"
    if len(messages) == 4 and isinstance(messages[2], AssistantMessage) and isinstance(messages[2].content, str) \
            and len(messages[2].content) > SHORT_ANSWER:
        text = messages[2].content
        short = text[:SHORT_ANSWER * 2 // 3] + "\n[... cut to fit the context window ...]\n" + text[-SHORT_ANSWER // 3:]
        messages = [*messages[:2], messages[2].model_copy(update={"content": short}), messages[3]]
        yield messages, "the last wrong answer shortened"


def fit_call(step: str, messages: list[LLMMessage], limits: ServerLimits, max_tokens: int,
             tools: Sequence[dict], rerender: Rerender | None, slots: dict | None, reasoning: bool) -> Fit:
    """`messages` fitted into the window (see the module docstring); BudgetError if they cannot be."""
    from repotrans.agents.openai_client import to_openai

    window = limits.window()
    tool_defs = [{"type": "function", "function": t} for t in tools]
    reserve = RESERVE.get(step, 256)
    cap = max_tokens if reasoning else min(max_tokens, JSON_CAP.get(step, max_tokens))

    def size(msgs: list[LLMMessage]) -> int:
        return limits.prompt_tokens(to_openai(msgs), tool_defs)

    def fits(n: int) -> bool:
        return n + min(reserve, cap) + MARGIN <= window.tokens

    cuts: list[str] = []
    tokens = size(messages)
    if not fits(tokens):
        for shorter, cut in history_levels(messages):
            messages, tokens = shorter, size(shorter)
            cuts.append(cut)
            if fits(tokens):
                break
    if not fits(tokens) and rerender is not None and slots is not None:
        for trims, cut in slot_levels(slots, step):
            prompt = rerender(trims)
            candidate = [messages[0], messages[1].model_copy(update={"content": prompt}), *messages[2:]]
            messages, tokens = candidate, size(candidate)
            cuts.append(cut)
            if fits(tokens):
                break
    if not fits(tokens):
        raise BudgetError(f"{step}: the prompt needs {tokens} tokens and its answer at least {min(reserve, cap)}, "
                          f"but the model's context window is {window.tokens} tokens ({window.source}); "
                          f"start the server with a larger context (llama.cpp: --ctx-size / n_ctx) and set "
                          f"[model] context_window to match")
    room = window.tokens - tokens - MARGIN
    if room < cap:
        cuts.append(f"max_tokens {cap} -> {room}")
    return Fit(messages=messages, max_tokens=min(cap, room), prompt_tokens=tokens, window=window, cuts=cuts)

