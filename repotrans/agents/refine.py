"""Refine agent: generate, test, then rounds of reflect -> (more context) -> repair; keeps the best candidate."""
from __future__ import annotations

import asyncio
from typing import AsyncGenerator

from autogen_agentchat.messages import BaseAgentEvent
from autogen_core import CancellationToken
from repotrans.agents import candidate, parse
from repotrans.agents.base import MAX_FORMAT_RETRIES, StepAgent
from repotrans.agents.budget import BudgetError
from repotrans.agents.context import check_call
from repotrans.agents.progress import RepeatedRequest
from repotrans.agents.state import Attempt, best_attempt
from repotrans.errors import InputError
from repotrans.verdicts.results import TestResult
from repotrans.verdicts.status import BLOCKED, PASSED, UNTESTED
from repotrans.prompts.slots import function_tools, member_phrase

DONE = "TRANSLATION_DONE"
MAX_REFLECTION_CALLS = 3     # tool calls one reflection may request
VERDICT_LINES = 3            # lines of an earlier verdict a repeated candidate's correction quotes


class RefineAgent(StepAgent):
    """Owns the attempts and the repair rounds; more context from a reflection extends its hand-off."""

    def __init__(self, brief, client, trajectory):
        super().__init__("refine", "Writes the C# method, tests it and repairs it from the test results.",
                         brief, client, trajectory)
        self.attempts: list[Attempt] = []
        self.rounds = 0                     # repair rounds used
        self.stalled: str | None = None     # why the last ask gave no new candidate (it repeated a judged one)

    async def steps(self, ct: CancellationToken) -> AsyncGenerator[BaseAgentEvent | str, None]:
        switches = self.brief.config.agents
        async for item in self._candidate("generate", self.prompt("generate"), ct):
            yield item
        rounds = switches.max_repair_rounds if switches.refine else 0
        for n in range(1, rounds + 1):
            if not self.attempts:
                break
            last = self.attempts[-1]
            if last.result is None or last.result.status in (PASSED, BLOCKED):     # nothing left to repair
                break
            self.rounds = n
            reflection = None
            if switches.reflection:
                async for item in self._reflect(last, ct):
                    yield item
                reflection = last.reflection
            prompt = self.prompt("repair", code=last.code, result=result_text(last),
                                 attempt=len(self.attempts), reflection=reflection)
            try:
                async for item in self._candidate("repair", prompt, ct):
                    yield item
            except BudgetError as exc:       # the candidate and its result fill the window: keep the best so far
                self.notes.append(f"refine: repairs stopped: {exc}")
                break
            if self.stalled is not None:     # the model is going round in circles: stop
                self.notes.append(f"refine: repairs stopped: {self.stalled}")
                break
        best = best_attempt(self.attempts)
        status = best.result.status if best and best.result else UNTESTED
        yield f"{DONE} status={status} attempts={len(self.attempts)} repair_rounds={self.rounds}"

    async def _candidate(self, step: str, prompt: str, ct: CancellationToken):
        """Ask for the C# member (bounded re-asks), reduce the answer to a candidate, test it; appends an Attempt."""
        brief = self.brief
        messages = self.messages(prompt)
        found, text, same = None, "", None
        self.stalled = None
        for _ in range(MAX_FORMAT_RETRIES + 1):
            try:
                reply, event = await self.ask(step, messages, ct, tools=function_tools(step))
            except RepeatedRequest as exc:
                self.notes.append(f"{step}: not asked again: {exc}")
                break
            except BudgetError as exc:
                if len(messages) <= 2:      # the step's own prompt does not fit: the task cannot go on
                    raise
                self.notes.append(f"{step}: the correction does not fit the context window; not asked again ({exc})")
                break
            yield event
            text = reply.text
            for call in reply.calls:                 # native: run_tests(code=...)
                args, _ = reply.call_args(call)
                if call.name == "run_tests" and isinstance((args or {}).get("code"), str):
                    text = f"```csharp\n{args['code']}\n```"
            text, entities = candidate.unescape(text)
            if entities:
                self.notes.append(f"{step}: HTML entities decoded in the answer ("
                                  + ", ".join(f"{e} x{n}" for e, n in entities.items()) + ")")
            found = candidate.extract(text, brief.target_method, brief.class_members)
            if isinstance(found, candidate.Candidate):
                again = same is not None
                same = self._judged(step, found)
                if same is None:
                    break
                if again:                  # told once that it repeats itself: it does not move on
                    break
                messages = self.correction(messages, reply, self._same_as(same))
                continue
            drafted = self._draft(step)
            if drafted is not None:
                found = drafted
                break
            if isinstance(found, candidate.Mismatch):
                self.notes.append(f"{step}: the answer declares `{found.found}`, not `{found.asked}`")
                problem = found.correction().rstrip(".")
            else:
                self.notes.append(f"{step}: no C# code block")
                problem = "No ```csharp code block found"
            messages = self.correction(messages, reply, f"{self.not_usable(step, problem, lead='')} Answer with one markdown "
                                                        f"code block tagged csharp holding {member_phrase(brief)}.")
        if isinstance(found, candidate.Mismatch):     # never inserted, never a candidate
            self.notes.append(f"{step}: no candidate: the model kept answering with another member")
            return
        if found is None and not text.strip():         # nothing was answered (a repeated request was not sent)
            return
        if same is not None:                           # judged already: never compiled and tested again
            self.stalled = f"candidate of {step} repeats attempt {same} (whitespace and comments aside)"
            return
        code = found.code if found is not None else text.strip()
        attempt = Attempt(code=code, additions=found.to_json() if found is not None else {})
        if found is not None and (found.helpers or found.usings or found.dropped or found.shape != "member"):
            self.notes.append(f"{step}: candidate {len(self.attempts) + 1}: {describe(found)}")
        self.attempts.append(attempt)
        call, request = self.tool_request("run_tests", {"attempt": len(self.attempts)})
        yield request
        try:
            attempt.result = await asyncio.to_thread(brief.services.run_test, attempt.code)
        except InputError as exc:   # the candidate cannot even be put in place (empty, not a member)
            attempt.result = TestResult(status="compile_error", reason=f"candidate not applied: {exc}")
        self.trajectory.record("attempt", agent=self.name, step=step, n=len(self.attempts),
                               code=attempt.code, additions=attempt.additions, result=attempt.result.to_json())
        yield self.tool_result(call, {"status": attempt.result.status, "brief": attempt.result.brief()})

    def _judged(self, step: str, found: "candidate.Candidate") -> int | None:
        """The number of the attempt `found` repeats (whitespace and comments aside), counted and recorded
        with that attempt's verdict; None for a new candidate."""
        key = candidate.normalised(found.code)
        same = next((n for n, a in enumerate(self.attempts, 1) if candidate.normalised(a.code) == key), None)
        if same is None:
            return None
        earlier = self.attempts[same - 1]
        self.ledger.saved["repeated_candidates_avoided"] += 1
        self.notes.append(f"{step}: the candidate is attempt {same} again (whitespace and comments aside): "
                          "its verdict stands, not tested again")
        self.trajectory.record("repeated_candidate", agent=self.name, step=step, same_as=same, code=found.code,
                               result=earlier.result.to_json() if earlier.result is not None else None)
        return same

    def _same_as(self, same: int) -> str:
        """The correction for a candidate already judged: its verdict, and what to answer instead."""
        result = self.attempts[same - 1].result
        verdict = "\n".join(result.brief().splitlines()[:VERDICT_LINES]) if result is not None else UNTESTED
        return (f"This is the same as attempt {same}, which failed with {verdict}\nIt was not tested again. "
                f"Answer with one markdown code block tagged csharp holding {member_phrase(self.brief)} "
                "with a change that fixes this.")

    def _draft(self, step: str) -> "candidate.Candidate | None":
        """The code a planning step answered with (Handoff.draft), when generate's own answer held no
        candidate and the draft holds the member asked; used once."""
        if step != "generate" or self.handoff.draft is None:
            return None
        draft, self.handoff.draft = self.handoff.draft, None
        found = candidate.extract(draft, self.brief.target_method, self.brief.class_members)
        if not isinstance(found, candidate.Candidate):
            return None
        self.notes.append(f"{step}: the answer held no candidate; the draft a planning step wrote is tested instead")
        return found

    async def _reflect(self, attempt: Attempt, ct: CancellationToken):
        switches = self.brief.config.agents
        prompt = self.prompt("reflect", code=attempt.code, result=result_text(attempt),
                             attempt=len(self.attempts))
        use_tools = switches.dynamic_prompt and switches.context
        try:
            reply, event = await self.ask("reflect", self.messages(prompt), ct,
                                          tools=function_tools("reflect") if use_tools else ())
        except (BudgetError, RepeatedRequest) as exc:   # a reflection is optional: the repair goes on without one
            self.notes.append(f"reflect: skipped: {exc}")
            return
        yield event
        attempt.reflection = parse.reflection_text(reply.text)
        if not use_tools:
            return
        requests = parse.more_context(reply.text)
        for c in reply.calls:
            args, why = reply.call_args(c)
            if why is None:
                requests.append({"tool": c.name, "arguments": args, "id": c.id})
        for req in requests[:MAX_REFLECTION_CALLS]:
            problem = check_call(self.handoff, req["tool"], req["arguments"])
            if problem is not None:
                self.notes.append(f"reflect: {problem}")
                continue
            async for event in self.gather(req["tool"], req["arguments"], req.get("id")):
                yield event


def repeats(attempts: list[Attempt]) -> int | None:
    """The number of the earlier attempt the last one repeats (whitespace and comments aside), or None."""
    if not attempts:
        return None
    last = candidate.normalised(attempts[-1].code)
    return next((n for n, a in enumerate(attempts[:-1], 1) if candidate.normalised(a.code) == last), None)


def describe(found: "candidate.Candidate") -> str:
    """One line on what a candidate brought besides the member."""
    parts = [f"answer shape {found.shape}"]
    if found.usings:
        parts.append("usings " + ", ".join(u.removeprefix("using ").rstrip(";") for u in found.usings))
    if found.helpers:
        parts.append("helpers " + ", ".join(found.helpers))
    if found.dropped:
        parts.append("left out " + "; ".join(found.dropped))
    return "; ".join(parts)


def result_text(attempt: Attempt) -> str:
    """The test result as the reflect/repair prompts show it, with what was done to the answer."""
    brief = attempt.result.brief() if attempt.result is not None else UNTESTED
    adds = attempt.additions
    notes = []
    if adds.get("shape", "member").endswith("class"):
        notes.append("Your answer held a whole class; only the member (and new private helpers) was used. "
                     "Answer with the member only.")
    if adds.get("helpers"):
        notes.append("Added beside the member: " + ", ".join(adds["helpers"]) + ".")
    if adds.get("dropped"):
        notes.append("Left out of your answer: " + "; ".join(adds["dropped"]) + ".")
    return brief + ("\n" + "\n".join(notes) if notes else "")
