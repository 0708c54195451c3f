"""What the agents know of one task: the brief every agent is given (TaskBrief), the hand-off one agent
passes to the next in its reply (Handoff), and what the team gathers from them at the end (TranslationRun).
Each agent keeps its own work (attempts, usage, notes) on itself (agents.base.StepAgent)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from repotrans.agents.config import AgentConfig
from repotrans.verdicts.status import COMPILE_ERROR, TEST_FAILURE, severity

if TYPE_CHECKING:
    from repotrans.verdicts.results import TestResult
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
    run_test: Callable[[str], "TestResult"]             # repotrans.execution.judge.runner.Runner.run bound
    retrieve: Callable[[int], tuple[list, str]]         # k -> (candidates, reason)


@dataclass
class TaskBrief:
    """What every agent is told about its task, fixed for the run: no agent changes it. (A caller may
    rebind `services`, e.g. how a test run is judged, before the run starts.)"""
    task: "TranslationTask"
    java_method: "Method"
    target_method: "Method"              # only its signature is ever shown to the model
    lang_version: str
    config: AgentConfig
    services: Services | None = None
    class_members: frozenset[str] = frozenset()   # names of the target class's members, fields, nested types
    conventions: list[str] = field(default_factory=list)      # repository conventions for the prompt
    port_calls: list[dict] = field(default_factory=list)      # the learned API map on this method's calls


@dataclass
class Handoff:
    """What an agent passes on in its reply (agents.base.HandoffMessage): the examples kept, the context
    gathered, the tool calls made, and what the model turned out to take (tools as function calls, JSON
mode). The next agent
    starts from a copy; nobody changes a handoff once sent."""
    examples: list = field(default_factory=list)                   # retrieval.stores.PairHit kept by rag
    context: list[ContextEntry] = field(default_factory=list)
    last_commands: list[dict] = field(default_factory=list)        # tool calls so far, with short outcomes
    native_tools: bool | None = None                               # None: not decided yet
    json_mode: bool | None = None      # False: the server answered {} in JSON mode; JSON steps go without it
    draft: str | None = None           # code a planning step answered with (agents.progress): generate may use it

    def copy(self) -> "Handoff":
        return Handoff(list(self.examples), list(self.context), list(self.last_commands), self.native_tools,
                       self.json_mode, self.draft)


@dataclass(frozen=True)
class PromptView:
    """An agent's view for the prompt slots (prompts.slots.SlotSource): its brief and what it was handed."""
    brief: TaskBrief
    handoff: Handoff

    java_method = property(lambda self: self.brief.java_method)
    target_method = property(lambda self: self.brief.target_method)
    lang_version = property(lambda self: self.brief.lang_version)
    config = property(lambda self: self.brief.config)
    conventions = property(lambda self: self.brief.conventions)
    port_calls = property(lambda self: self.brief.port_calls)
    context = property(lambda self: self.handoff.context)
    last_commands = property(lambda self: self.handoff.last_commands)
    kept_examples = property(lambda self: self.handoff.examples)


@dataclass
class TranslationRun:
    """What the agents kept of one run, gathered by the team when it ends (or fails): read-only for callers."""
    attempts: list[Attempt] = field(default_factory=list)
    rounds: int = 0                      # repair rounds used
    rag_decision: dict | None = None     # {"retrieve": bool, "reason": str}
    rag_candidates: list = field(default_factory=list)
    handoff: Handoff = field(default_factory=Handoff)     # the last one sent (examples, context, calls)
    usage: dict[str, Usage] = field(default_factory=dict)     # per step, in the order the steps ran
    notes: list[str] = field(default_factory=list)            # format corrections, skipped steps, in order
    error: Exception | None = None       # the RepotransError that stopped the run
    progress: dict = field(default_factory=dict)    # agents.progress: fallbacks and the calls and runs saved

    def add_progress(self, ledger: dict) -> None:
        """Sum one agent's Ledger.to_json() into `progress`."""
        for key, value in ledger.items():
            self.progress[key] = self.progress.get(key, [] if isinstance(value, list) else 0) + value

    @property
    def total_tokens(self) -> dict[str, int]:
        """Spent prompt/completion tokens and calls, plus replayed, server-cached and unreported figures."""
        u = self.usage.values()
        return {"prompt": sum(x.prompt_tokens for x in u), "completion": sum(x.completion_tokens for x in u),
                "calls": sum(x.calls for x in u), "cached_calls": sum(x.cached_calls for x in u),
                "replayed_prompt": sum(x.replayed_prompt_tokens for x in u),
                "server_cached_prompt": sum(x.server_cached_prompt_tokens for x in u),
                "unreported_calls": sum(x.unreported_calls for x in u)}

    def cost(self, config: AgentConfig) -> float | None:
        m = config.model
        if m.price_prompt is None or m.price_completion is None:
            return None
        t = self.total_tokens
        return (t["prompt"] * m.price_prompt + t["completion"] * m.price_completion) / 1e6

    def best_attempt(self) -> Attempt | None:
        return best_attempt(self.attempts)


def best_attempt(attempts: list[Attempt]) -> Attempt | None:
    """passed > test_failure (fewer failures) > runtime_error/timeout > compile_error (fewer errors)."""
    tested = [a for a in attempts if a.result is not None]
    if not tested:
        return attempts[-1] if attempts else None
    return max(enumerate(tested), key=lambda ia: (*attempt_rank(ia[1].result), ia[0]))[1]


def attempt_rank(result: Any) -> tuple[int, int]:
    """Higher is better; ties on status are broken by fewer failures or fewer error diagnostics."""
    status = result.status
    if status == TEST_FAILURE:
        return -severity(status), -max(result.tests_failed, len(result.failures))
    if status == COMPILE_ERROR:
        return -severity(status), -sum(1 for d in result.diagnostics if d.severity == "error")
    return -severity(status), 0
