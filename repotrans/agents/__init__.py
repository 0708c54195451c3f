"""The three agents (rag, context, refine) as AutoGen agents (each keeps its own state), model clients and team.

config.py     AgentConfig: model endpoint, ablation switches, execution settings (toml < env < CLI)
state.py      TaskBrief (given), Handoff (passed in replies), TranslationRun (gathered); Attempt ranking; Usage
models.py     make_client and the client registry (the builtin policy registers itself)
openai_client.py  any OpenAI-compatible endpoint (tool calls, reasoning_content, usage, finish_reason)
one_shot.py   OneShotClient: the stream is the whole answer (every client here)
cache.py      the response cache shared by runs; limits.py  calls in flight and 429 pauses
reply.py, parse.py, lenient_json.py   reading answers: reasoning set aside, fences, JSON, tool calls
candidate.py  an answer reduced to the member, its usings and private helpers
conventions.py  repository conventions for the prompt (exceptions the port uses)
rag.py, context.py, refine.py   the agents; base.py their shared machinery (system message, ask, tools)
team.py       RoundRobinGroupChat composition and run_translation (trajectory, result.json)
session.py    open_view/prepare/translate: index, mapping, task, real tools/runner/retrieval bound into the brief
"""
