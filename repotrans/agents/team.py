"""The AutoGen team: rag -> context -> refine in a RoundRobinGroupChat, streamed as AutoGen events."""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from autogen_agentchat.base import TaskResult
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.messages import TextMessage
from autogen_agentchat.teams import RoundRobinGroupChat
from autogen_core.models import ChatCompletionClient

from repotrans.agents.base import FAILED
from repotrans.agents.context import ContextAgent
from repotrans.agents.rag import RagAgent
from repotrans.agents.refine import DONE, RefineAgent
from repotrans.agents.state import TranslationState
from repotrans.agents.trajectory import Trajectory
from repotrans.execution.status import UNTESTED


@dataclass
class Outcome:
    code: str | None
    status: str
    result: dict | None
    attempts: int
    repair_rounds: int
    tokens: dict
    cost: float | None
    stop_reason: str
    seconds: float
    run_dir: str
    additions: dict | None = None     # usings and helper members the kept candidate brings


    def to_json(self) -> dict:
        return dict(self.__dict__)


def build_team(state: TranslationState, client: ChatCompletionClient, trajectory: Trajectory) -> RoundRobinGroupChat:
    """Three agents in order; stop when refine reports done or any agent fails, or after a hard message limit."""
    agents = [RagAgent(state, client, trajectory), ContextAgent(state, client, trajectory),
              RefineAgent(state, client, trajectory)]
    termination = (TextMentionTermination(DONE, sources=["refine"]) | TextMentionTermination(FAILED)
                   | MaxMessageTermination(len(agents) + 1))
    return RoundRobinGroupChat(agents, termination_condition=termination)


async def run_translation(state: TranslationState, client: ChatCompletionClient, run_dir: Path,
                          console: bool = False) -> Outcome:
    """Run the team on one task; writes trajectory.jsonl, config.json and result.json into `run_dir`."""
    started = time.time()
    trajectory = Trajectory(run_dir)
    trajectory.write_json("config.json", state.config.to_json())
    trajectory.record("task", source=state.task.source_method_id, target=state.task.target_method_id,
                      lang_version=state.lang_version)
    team = build_team(state, client, trajectory)
    task = TextMessage(content=f"Translate {state.task.source_method_id} into {state.task.target_method_id}.",
                       source="user")
    try:
        stream = team.run_stream(task=task)
        if console:
            from autogen_agentchat.ui import Console

            result = await Console(stream, output_stats=False)
        else:
            result = None
            async for item in stream:
                if isinstance(item, TaskResult):
                    result = item
    finally:     # inside the loop: an HTTP client closed after asyncio.run logs "Event loop is closed"
        await client.close()
    best = state.best_attempt()
    outcome = Outcome(
        code=best.code if best else None,
        status=best.result.status if best and best.result else UNTESTED,
        result=best.result.to_json() if best and best.result else None,
        attempts=len(state.attempts), repair_rounds=state.rounds, tokens=state.total_tokens,
        cost=state.cost(), stop_reason=(result.stop_reason or "") if result else "",
        seconds=round(time.time() - started, 2), run_dir=str(run_dir),
        additions=best.additions if best and (best.additions.get("usings") or best.additions.get("helpers")) else None)
    trajectory.record("done", **outcome.to_json(), usage={k: v.__dict__ for k, v in state.usage.items()},
                      notes=state.notes, error=str(state.error) if state.error else None)
    trajectory.write_json("result.json", outcome.to_json())
    if state.error is not None:
        raise state.error
    return outcome
