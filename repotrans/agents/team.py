"""The AutoGen team: rag -> context -> refine in a RoundRobinGroupChat, streamed as AutoGen events."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from autogen_agentchat.base import TaskResult
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.messages import TextMessage
from autogen_agentchat.teams import RoundRobinGroupChat
from autogen_core.models import ChatCompletionClient

from repotrans.agents.base import FAILED, StepAgent
from repotrans.agents.context import ContextAgent
from repotrans.agents.rag import RagAgent
from repotrans.agents.refine import DONE, RefineAgent
from repotrans.agents.state import TaskBrief, TranslationRun
from repotrans.agents.trajectory import Trajectory
from repotrans.verdicts.status import UNTESTED


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
    progress: dict | None = None      # fallbacks, identical requests and repeated candidates avoided
    run: TranslationRun | None = field(default=None, repr=False, compare=False)   # what the agents kept

    def to_json(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "run"}


def build_team(brief: TaskBrief, client: ChatCompletionClient, trajectory: Trajectory
               ) -> tuple[RoundRobinGroupChat, list[StepAgent]]:
    """Three agents in order, each with its own state, passing hand-offs in their replies; stop when
    refine reports done or any agent fails, or after a hard message limit."""
    agents: list[StepAgent] = [RagAgent(brief, client, trajectory), ContextAgent(brief, client, trajectory),
                               RefineAgent(brief, client, trajectory)]
    termination = (TextMentionTermination(DONE, sources=["refine"]) | TextMentionTermination(FAILED)
                   | MaxMessageTermination(len(agents) + 1))
    team = RoundRobinGroupChat(agents, termination_condition=termination)   # registers HandoffMessage itself
    return team, agents


def gather(agents: list[StepAgent]) -> TranslationRun:
    """What the agents kept, in the order they ran: refine's attempts, rag's decision, the last hand-off,
    everyone's usage and notes, the first error."""
    run = TranslationRun()
    for agent in agents:
        if isinstance(agent, RagAgent):
            run.rag_decision, run.rag_candidates = agent.decision, list(agent.candidates)
        if isinstance(agent, RefineAgent):
            run.attempts, run.rounds = list(agent.attempts), agent.rounds
        if agent.turns:                     # it took its turn: its hand-off is the latest
            run.handoff = agent.handoff.copy()
        run.usage.update(agent.usage)
        run.notes += agent.notes
        run.add_progress(agent.ledger.to_json())
        run.error = run.error or agent.error
    return run


async def run_translation(brief: TaskBrief, client: ChatCompletionClient, run_dir: Path,
                          console: bool = False) -> Outcome:
    """Run the team on one task; writes trajectory.jsonl, config.json and result.json into `run_dir`.
    A failed run raises the agent's error, with the agents' record as its `run` attribute."""
    started = time.time()
    trajectory = Trajectory(run_dir)
    trajectory.write_json("config.json", brief.config.to_json())
    trajectory.record("task", source=brief.task.source_method_id, target=brief.task.target_method_id,
                      lang_version=brief.lang_version)
    team, agents = build_team(brief, client, trajectory)
    task = TextMessage(content=f"Translate {brief.task.source_method_id} into {brief.task.target_method_id}.",
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
    run = gather(agents)
    best = run.best_attempt()
    outcome = Outcome(
        code=best.code if best else None,
        status=best.result.status if best and best.result else UNTESTED,
        result=best.result.to_json() if best and best.result else None,
        attempts=len(run.attempts), repair_rounds=run.rounds, tokens=run.total_tokens,
        cost=run.cost(brief.config), stop_reason=(result.stop_reason or "") if result else "",
        seconds=round(time.time() - started, 2), run_dir=str(run_dir),
        additions=best.additions if best and (best.additions.get("usings") or best.additions.get("helpers")) else None,
        progress=run.progress, run=run)
    trajectory.record("done", **outcome.to_json(), usage={k: v.__dict__ for k, v in run.usage.items()},
                      notes=run.notes, error=str(run.error) if run.error else None)
    trajectory.write_json(trajectory.RESULT, outcome.to_json())
    if run.error is not None:
        run.error.run = run             # type: ignore[attr-defined]  (the caller's record of a failed run)
        raise run.error
    return outcome
