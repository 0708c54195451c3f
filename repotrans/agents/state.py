"""TranslationState: the per-task structured state the three agents share and mutate."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from repotrans.agents.config import AgentConfig
from repotrans.execution.status import COMPILE_ERROR, TEST_FAILURE, severity

if TYPE_CHECKING:
    from repotrans.execution.results import TestResult
    from repotrans.index.model import Method
    from repotrans.mapping.task import TranslationTask


@dataclass
class ContextEntry:
    tool: str
    args: dict
    output: dict


@dataclass
class Attempt:
    code: str
    result: "TestResult | None" = None
    reflection: str | None = None
    additions: dict = field(default_factory=dict)   # usings, helpers, dropped members, answer shape


@dataclass
class Usage:
    """Tokens of one step. Spent tokens are those of calls that reached the server; a call answered by
    the response cache is `cached` and its tokens count as replayed, not spent."""
    prompt_tokens: int = 0               # spent
    completion_tokens: int = 0           # spent
    calls: int = 0
    cached_calls: int = 0                # answered by the response cache
    replayed_prompt_tokens: int = 0
    replayed_completion_tokens: int = 0
    server_cached_prompt_tokens: int = 0 # part of the spent prompt tokens that the server's prompt cache served
    unreported_calls: int = 0            # calls whose server sent no usage (their tokens are unknown)

    def add(self, prompt: int, completion: int, cached: bool, server_cached: int = 0,
            reported: bool = True) -> None:
        self.calls += 1
        if cached:
            self.cached_calls += 1
            self.replayed_prompt_tokens += prompt
            self.replayed_completion_tokens += completion
            return
        self.prompt_tokens += prompt
        self.completion_tokens += completion
        self.server_cached_prompt_tokens += server_cached
        self.unreported_calls += int(not reported)


@dataclass
class Services:
    """What the agents call outside the model; the team builds real ones, tests may pass fakes."""
    run_tool: Callable[[str, dict], dict]               # repotrans.tools.run_tool bound to a ToolContext
    run_test: Callable[[str], "TestResult"]             # repotrans.execution.runner.run_candidate bound
    retrieve: Callable[[int], tuple[list, str]]         # k -> (candidates, reason)


@dataclass
class TranslationState:
    task: "TranslationTask"
    java_method: "Method"
    target_method: "Method"              # only its signature is ever shown to the model
    lang_version: str
    config: AgentConfig
    services: Services | None = None
    class_members: frozenset[str] = frozenset()   # names of the target class's members, fields, nested types
    native_tools: bool | None = None     # tools as OpenAI function calls (None: not decided yet)
    json_mode: bool | None = None        # False: the server answered {} in JSON mode; JSON steps go without it
    conventions: list[str] = field(default_factory=list)      # repository conventions for the prompt
    step: str = "rag_decide"
    rag_decision: dict | None = None     # {"retrieve": bool, "reason": str}
    rag_candidates: list = field(default_factory=list)
    kept_examples: list = field(default_factory=list)
    context: list[ContextEntry] = field(default_factory=list)
    last_commands: list[dict] = field(default_factory=list)   # tool calls so far, with short outputs
    attempts: list[Attempt] = field(default_factory=list)
    usage: dict[str, Usage] = field(default_factory=dict)     # per step
    rounds: int = 0                      # repair rounds used
    notes: list[str] = field(default_factory=list)            # format corrections, skipped steps
    error: Exception | None = None       # a RepotransError that stopped the run

    def record_usage(self, prompt: int, completion: int, cached: bool, server_cached: int = 0,
                     reported: bool = True) -> None:
        self.usage.setdefault(self.step, Usage()).add(prompt, completion, cached, server_cached, reported)

    @property
    def total_tokens(self) -> dict[str, int]:
        """Spent prompt/completion tokens and calls, plus replayed, server-cached and unreported figures."""
        u = self.usage.values()
        return {"prompt": sum(x.prompt_tokens for x in u), "completion": sum(x.completion_tokens for x in u),
                "calls": sum(x.calls for x in u), "cached_calls": sum(x.cached_calls for x in u),
                "replayed_prompt": sum(x.replayed_prompt_tokens for x in u),
                "server_cached_prompt": sum(x.server_cached_prompt_tokens for x in u),
                "unreported_calls": sum(x.unreported_calls for x in u)}

    def cost(self) -> float | None:
        m = self.config.model
        if m.price_prompt is None or m.price_completion is None:
            return None
        t = self.total_tokens
        return (t["prompt"] * m.price_prompt + t["completion"] * m.price_completion) / 1e6

    def best_attempt(self) -> Attempt | None:
        """passed > test_failure (fewer failures) > runtime_error/timeout > compile_error (fewer errors)."""
        tested = [a for a in self.attempts if a.result is not None]
        if not tested:
            return self.attempts[-1] if self.attempts else None
        return max(enumerate(tested), key=lambda ia: (*attempt_rank(ia[1].result), ia[0]))[1]


def attempt_rank(result: Any) -> tuple[int, int]:
    """Higher is better; ties on status are broken by fewer failures or fewer error diagnostics."""
    status = result.status
    if status == TEST_FAILURE:
        return -severity(status), -max(result.tests_failed, len(result.failures))
    if status == COMPILE_ERROR:
        return -severity(status), -sum(1 for d in result.diagnostics if d.severity == "error")
    return -severity(status), 0
