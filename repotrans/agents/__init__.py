"""The three agents (rag, context, refine) as AutoGen agents, their shared state, model clients and team.

config.py   AgentConfig: model endpoint, ablation switches, execution settings (toml < env < CLI)
state.py    TranslationState shared by the agents; Attempt ranking
models.py   make_client: OpenAI-compatible endpoints, builtin policy, SQLite response cache
rag.py, context.py, refine.py   the agents; base.py their shared machinery; parse.py answer formats
team.py     RoundRobinGroupChat composition and run_translation (trajectory, result.json)
session.py  prepare/translate: index, task, real tools/runner/retrieval bound into the state
"""
