"""Refine agent: generate, test, then rounds of reflect -> (more context) -> repair; keeps the best candidate."""
from __future__ import annotations

import asyncio
from typing import AsyncGenerator

from autogen_agentchat.messages import BaseAgentEvent
from autogen_core import CancellationToken
from autogen_core.models import UserMessage

from repotrans.agents import parse
from repotrans.agents.base import MAX_FORMAT_RETRIES, StepAgent
from repotrans.agents.context import check_call
from repotrans.agents.state import Attempt
from repotrans.errors import InputError
from repotrans.execution.results import TestResult

DONE = "TRANSLATION_DONE"
MAX_REFLECTION_CALLS = 3     # tool calls one reflection may request


class RefineAgent(StepAgent):
    def __init__(self, state, client, trajectory):
        super().__init__("refine", "Writes the C# method, tests it and repairs it from the test results.",
                         state, client, trajectory)

    async def steps(self, ct: CancellationToken) -> AsyncGenerator[BaseAgentEvent | str, None]:
        state, switches = self.state, self.state.config.agents
        async for item in self._candidate("generate", self.prompt("generate"), ct):
            yield item
        rounds = switches.max_repair_rounds if switches.refine else 0
        for n in range(1, rounds + 1):
            last = state.attempts[-1]
            if last.result is None or last.result.status == "passed":
                break
            state.rounds = n
            reflection = None
            if switches.reflection:
                async for item in self._reflect(last, ct):
                    yield item
                reflection = last.reflection
            prompt = self.prompt("repair", code=last.code, result=last.result.brief(),
                                 attempt=len(state.attempts), reflection=reflection)
            async for item in self._candidate("repair", prompt, ct):
                yield item
        best = state.best_attempt()
        status = best.result.status if best and best.result else "untested"
        yield f"{DONE} status={status} attempts={len(state.attempts)} repair_rounds={state.rounds}"

    async def _candidate(self, step: str, prompt: str, ct: CancellationToken):
        """Ask for a ```csharp block (bounded re-asks), then test it; appends an Attempt."""
        messages = [UserMessage(content=prompt, source="user")]
        code = None
        for _ in range(MAX_FORMAT_RETRIES + 1):
            text, event = await self.ask(step, messages, ct)
            yield event
            code = parse.csharp_block(text)
            if code is not None:
                break
            self.state.notes.append(f"{step}: no csharp code block")
            messages = self.correction(messages, text, "No ```csharp code block found. Answer with one markdown "
                                                       "code block tagged csharp holding the whole method.")
        attempt = Attempt(code=code if code is not None else text.strip())
        self.state.attempts.append(attempt)
        call, request = self.tool_request("run_tests", {"attempt": len(self.state.attempts)})
        yield request
        try:
            attempt.result = await asyncio.to_thread(self.state.services.run_test, attempt.code)
        except InputError as exc:   # the candidate cannot even be put in place (empty, not a member)
            attempt.result = TestResult(status="compile_error", reason=f"candidate not applied: {exc}")
        self.trajectory.record("attempt", agent=self.name, step=step, n=len(self.state.attempts),
                               code=attempt.code, result=attempt.result.to_json())
        yield self.tool_result(call, {"status": attempt.result.status, "brief": attempt.result.brief()})

    async def _reflect(self, attempt: Attempt, ct: CancellationToken):
        state = self.state
        prompt = self.prompt("reflect", code=attempt.code, result=attempt.result.brief(),
                             attempt=len(state.attempts))
        text, event = await self.ask("reflect", [UserMessage(content=prompt, source="user")], ct)
        yield event
        attempt.reflection = parse.reflection_text(text)
        if not (state.config.agents.dynamic_prompt and state.config.agents.context):
            return
        for call in parse.more_context(text)[:MAX_REFLECTION_CALLS]:
            problem = check_call(state, call["tool"], call["arguments"])
            if problem is not None:
                state.notes.append(f"reflect: {problem}")
                continue
            async for event in self.gather(call["tool"], call["arguments"]):
                yield event
