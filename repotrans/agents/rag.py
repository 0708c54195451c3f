"""RAG agent: decide whether this function needs retrieved examples, then keep or drop each candidate.

Both steps are optional: one that does not fit the context window, times out or comes back cut off is
given up (a note says why) instead of being asked again with more room or failing the task. One whose
model gives MAX_UNUSABLE unusable answers in a row (code or prose where JSON was asked), or would be
sent a request it was already answered, takes its deterministic default (agents.progress): rag_decide
retrieves by the fused ranking, rag_filter keeps the ranking's top FALLBACK_KEEP."""
from __future__ import annotations

from typing import AsyncGenerator

from autogen_agentchat.messages import BaseAgentEvent
from autogen_core import CancellationToken

from repotrans.agents import parse
from repotrans.agents.base import MAX_FORMAT_RETRIES, StepAgent
from repotrans.agents.budget import BudgetError
from repotrans.agents.progress import MAX_UNUSABLE, RepeatedRequest, wrong_kind
from repotrans.agents.window import ModelTimeout
from repotrans.prompts.slots import example_slot


KEYS = {"rag_decide": ("retrieve",), "rag_filter": ("decisions",)}
ASKED = {"rag_decide": 'one JSON object {"retrieve": true or false, "reason": "..."}',
         "rag_filter": 'one JSON object {"decisions": [{"candidate": 1, "keep": true or false, "reason": "..."}, ...]}'}
FALLBACK_KEEP = 2       # rag_filter's default: the fused ranking's best examples


class GaveUp(str):
    """Why an optional step was given up (yielded by `_ask_json` instead of an answer)."""


class FellBack(str):
    """Why an optional step takes its deterministic default: its answers were unusable, or the next
    request would repeat one already answered (yielded by `_ask_json` instead of an answer)."""


class RagAgent(StepAgent):
    """Owns its decision and the candidates it saw; hands on the examples it kept."""

    def __init__(self, brief, client, trajectory):
        super().__init__("rag", "Retrieves similar translated method pairs and keeps the useful ones.",
                         brief, client, trajectory)
        self.decision: dict | None = None   # {"retrieve": bool, "reason": str}
        self.candidates: list = []          # retrieval.stores.PairHit, as retrieved

    async def steps(self, ct: CancellationToken) -> AsyncGenerator[BaseAgentEvent | str, None]:
        switches = self.brief.config.agents
        if not switches.rag:
            yield "rag: disabled"
            return
        decision = None
        async for item in self._ask_json("rag_decide", self.prompt("rag_decide"), _valid_decision, ct):
            if isinstance(item, FellBack):
                self.fall_back("rag_decide", item, "retrieval by the fused ranking")
                decision = {"retrieve": True, "reason": f"default after unusable answers: {item}"}
            elif isinstance(item, GaveUp) and not item.startswith("cut off"):
                yield f"rag: no retrieval (rag_decide given up: {item})"
                return
            elif isinstance(item, dict):
                decision = item
            elif not isinstance(item, GaveUp):
                yield item
        if decision is None:   # no usable answer: retrieving is the safe default
            decision = {"retrieve": True, "reason": "no valid decision from the model"}
        self.decision = decision
        if not decision["retrieve"]:
            yield f"rag: no retrieval ({decision.get('reason', '')})"
            return
        call, request = self.tool_request("retrieve", {"k": switches.rag_k})
        yield request
        candidates, reason = self.brief.services.retrieve(switches.rag_k)
        self.candidates = list(candidates)
        yield self.tool_result(call, {"reason": reason, "candidates": [
            {"source_id": c.source_id, "target_id": c.target_id} for c in candidates]})
        if not candidates:
            yield f"rag: nothing retrieved ({reason})"
            return
        prompt = self.prompt("rag_filter", candidates=[example_slot(c) for c in candidates])
        answer = None
        async for item in self._ask_json("rag_filter", prompt, _valid_filter(len(candidates)), ct):
            if isinstance(item, dict):
                answer = item
            elif isinstance(item, FellBack):
                self.fall_back("rag_filter", item, f"the top {FALLBACK_KEEP} of the fused ranking")
                answer = {"decisions": [{"candidate": i, "keep": True} for i in range(1, FALLBACK_KEEP + 1)]}
            elif not isinstance(item, GaveUp):
                yield item
        if answer is None:
            self.notes.append("rag_filter: no valid answer, kept every candidate")
            keep = set(range(1, len(candidates) + 1))
        else:
            keep = {d["candidate"] for d in answer["decisions"] if d.get("keep") is True}
        self.handoff.examples = [c for i, c in enumerate(candidates, 1) if i in keep]
        yield f"rag: kept {len(self.handoff.examples)} of {len(candidates)} examples"

    async def _ask_json(self, step: str, prompt: str, check, ct: CancellationToken):
        """Ask for a JSON object; re-ask with a correction that says what was wrong. Yields events, then the
        dict, a GaveUp when the step does not fit, times out or is cut off, or a FellBack after
        MAX_UNUSABLE unusable answers in a row or before a request already answered."""
        messages = self.messages(prompt)
        for _ in range(MAX_FORMAT_RETRIES + 1):
            try:
                reply, event = await self.ask(step, messages, ct, json_mode=self.json_mode)
            except RepeatedRequest as exc:
                yield FellBack(str(exc))
                return
            except (BudgetError, ModelTimeout) as exc:
                self.notes.append(f"{step}: given up (optional step): {exc}")
                yield GaveUp(str(exc))
                return
            yield event
            if reply.finish == "length":
                self.notes.append(f"{step}: answer cut off; given up (optional step)")
                yield GaveUp("cut off")
                return
            obj, problem = parse.json_answer(reply.text, keys=KEYS[step])
            if obj is None and reply.calls:       # a native call where a JSON answer was asked: read its arguments
                obj, _ = reply.call_args(reply.calls[0])
            problem = wrong_kind(reply.text, str(problem), ASKED[step]) if obj is None else check(obj)
            if problem is None:
                self.ledger.usable(step)
                yield obj
                return
            self.notes.append(f"{step}: {problem}")
            self.keep_draft(step, reply.text)
            if self.ledger.unusable(step):
                yield FellBack(f"{MAX_UNUSABLE} unusable answers in a row, the last: {problem}")
                return
            messages = self.correction(messages, reply, f"{self.not_usable(step, problem)} Answer again with "
                                                        "only the JSON object the Output Format asks for.")
        yield FellBack(f"no usable answer in {MAX_FORMAT_RETRIES + 1} tries")


def _valid_decision(obj: dict) -> str | None:
    if not isinstance(obj.get("retrieve"), bool):
        return 'the object needs "retrieve": true or false'
    return None


def _valid_filter(n: int):
    def check(obj: dict) -> str | None:
        decisions = obj.get("decisions")
        if not isinstance(decisions, list) or not all(isinstance(d, dict) for d in decisions):
            return 'the object needs "decisions": a list of {"candidate", "keep", "reason"}'
        bad = [d.get("candidate") for d in decisions if d.get("candidate") not in range(1, n + 1)]
        if bad:
            return f"unknown candidate numbers {bad}; use 1 to {n}"
        return None
    return check
