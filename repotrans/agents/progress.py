"""Whether a step is still making progress: what it asked and was answered, and what its answers were.

A small model at temperature 0 answers the same request the same way, so a request that already got
an answer in a step is never sent again (`RepeatedRequest`); an answer that repeats an earlier one is
named as such in the correction; and after `MAX_UNUSABLE` unusable answers in a row an optional step
takes its deterministic default instead of asking again (`Ledger.unusable`). An answer of the wrong
kind is told what it was: code or prose where one JSON object was asked, not "invalid JSON" about a
method body's braces (`wrong_kind`).
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Sequence

from repotrans.agents import parse
from repotrans.errors import TaskError

MAX_UNUSABLE = 2          # unusable answers in a row before an optional step falls back to its default
SAVINGS = ("identical_requests_avoided", "repeated_answers_named", "repeated_candidates_avoided")


class RepeatedRequest(TaskError):
    """The request about to be sent already got an answer in this step (`earlier`, call `number`)."""

    def __init__(self, step: str, number: int, earlier: str):
        super().__init__(f"{step}: the same request was answered before (call {number} of the step); "
                         "at temperature 0 it would get the same answer")
        self.step, self.number, self.earlier = step, number, earlier


def request_key(messages: Sequence[dict], tools: Sequence[dict], json_mode: bool, max_tokens: int | None) -> str:
    """The identity of one request as the server sees it (OpenAI-shaped messages)."""
    data = {"messages": list(messages), "tools": [t.get("name") for t in tools], "json": bool(json_mode),
            "max_tokens": max_tokens}
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def same_text(text: str) -> str:
    """An answer compared whitespace aside."""
    return " ".join((text or "").split())


@dataclass
class StepRecord:
    """One step's requests (key -> call number), answers (normalised, in order) and unusable run."""
    requests: dict[str, int] = field(default_factory=dict)
    answers: list[str] = field(default_factory=list)
    unusable: int = 0


@dataclass
class Ledger:
    """An agent's record of its steps, and what the rules saved (counts for the report)."""
    steps: dict[str, StepRecord] = field(default_factory=dict)
    saved: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SAVINGS, 0))
    fallbacks: list[dict] = field(default_factory=list)       # {"step", "reason", "default"}

    def record(self, step: str) -> StepRecord:
        return self.steps.setdefault(step, StepRecord())

    def check(self, step: str, key: str) -> None:
        """Raise RepeatedRequest when `key` was already answered in `step` (and count the call saved)."""
        number = self.record(step).requests.get(key)
        if number is not None:
            self.saved["identical_requests_avoided"] += 1
            raise RepeatedRequest(step, number, "")

    def answered(self, step: str, key: str, text: str) -> int | None:
        """Note an answer; returns the number of the earlier identical answer of the step, if any."""
        rec = self.record(step)
        rec.requests[key] = len(rec.requests) + 1
        norm = same_text(text)
        earlier = next((n for n, a in enumerate(rec.answers, 1) if a == norm and norm), None)
        rec.answers.append(norm)
        return earlier

    def unusable(self, step: str) -> bool:
        """Count an unusable answer; True when the step has had MAX_UNUSABLE of them in a row."""
        rec = self.record(step)
        rec.unusable += 1
        return rec.unusable >= MAX_UNUSABLE

    def usable(self, step: str) -> None:
        self.record(step).unusable = 0

    def repeated_answer(self, step: str) -> int | None:
        """The number of the earlier answer the step's last answer repeats, or None."""
        answers = self.record(step).answers
        if not answers or not answers[-1]:
            return None
        return next((n for n, a in enumerate(answers[:-1], 1) if a == answers[-1]), None)

    def to_json(self) -> dict:
        return {**self.saved, "fallbacks": list(self.fallbacks)}


_CODE_WORD = re.compile(r"\b(return|public|private|protected|internal|static|void|new|var|if|else|for|foreach|"
                        r"while|throw|using|namespace|class)\b")


def answer_kind(text: str) -> str:
    """`code` (a code fence of a language other than JSON, or lines that read as C#), `prose` (no
    brace at all), `empty`, else `json` (something that tries to be JSON)."""
    stripped = (text or "").strip()
    if not stripped:
        return "empty"
    if any(tag not in ("json", "jsonc", "json5", "") for tag, _ in parse.fences(stripped)):
        return "code"
    if any(tag == "" and _reads_as_code(body) for tag, body in parse.fences(stripped)):
        return "code"
    if "{" not in stripped:
        return "prose"
    return "code" if _reads_as_code(stripped) and not stripped.lstrip("`json \n").startswith("{\"") else "json"


def _reads_as_code(text: str) -> bool:
    return ";" in text and _CODE_WORD.search(text) is not None


def wrong_kind(text: str, problem: str, asked: str) -> str:
    """What was wrong with an answer that gave no usable JSON object, in the model's terms: it wrote
    code, or prose, where `asked` (e.g. "one JSON object naming a tool") was asked; else the JSON problem."""
    kind = answer_kind(text)
    if kind == "code":
        return (f"your answer is code, but this step does not write the translation (a later step does): "
                f"it asks for {asked}, and no code")
    if kind == "prose":
        return f"your answer is prose with no JSON object; this step asks for {asked}"
    if kind == "empty":
        return f"your answer is empty; this step asks for {asked}"
    return problem
