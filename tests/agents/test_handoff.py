"""Agents own their state: each starts from the hand-off in the last reply it receives and passes its
own on; nothing one agent keeps is changed by another."""
from __future__ import annotations

import asyncio

from repotrans.agents.base import HandoffMessage
from repotrans.agents.team import build_team
from repotrans.agents.trajectory import Trajectory
from tests.agents.test_agents import BAD, GOOD, call, compile_error, make_state, passed, replay, schemas  # noqa: F401


def test_each_agent_starts_from_the_last_handoff_and_keeps_its_own(tmp_path):
    brief, services = make_state([compile_error(), passed()], rag=False)
    client = replay([call("get_source_class_info"), '{"tool": "enough", "reason": "known"}', BAD,
                     "Line 3 lacks a semicolon.\nMORE_CONTEXT: " + call("find_target_class_info", class_name="Point"),
                     GOOD])

    async def go():
        team, agents = build_team(brief, client, Trajectory(tmp_path / "run"))
        return [m async for m in team.run_stream(task="translate")], agents

    items, (rag, context, refine) = asyncio.run(go())
    replies = [m for m in items if isinstance(m, HandoffMessage)]
    assert [m.source for m in replies] == ["rag", "context", "refine"]
    sent_by_context = replies[1].handoff
    assert [e.tool for e in sent_by_context.context] == ["get_source_class_info"]
    # refine gathered more during its reflection: on its own copy, not on what context sent or keeps
    assert [e.tool for e in refine.handoff.context] == ["get_source_class_info", "find_target_class_info"]
    assert [e.tool for e in context.handoff.context] == ["get_source_class_info"]
    assert sent_by_context.context is not context.handoff.context is not refine.handoff.context
    # each agent keeps its own work
    assert len(refine.attempts) == 2 and refine.rounds == 1 and not hasattr(context, "attempts")
    assert set(context.usage) == {"context"} and set(refine.usage) == {"generate", "reflect", "repair"}
    assert rag.turns == context.turns == refine.turns == 1
    assert not hasattr(brief, "attempts") and not hasattr(brief, "context")
