"""Set up one translation: index, mapping, task, language version, and the services the agents call."""
from __future__ import annotations

from pathlib import Path

from repotrans.agents.config import AgentConfig
from repotrans.agents.state import Services, TranslationState
from repotrans.errors import InputError


def prepare(workdir: Path, function: str, config: AgentConfig, source: Path | None = None,
            target: Path | None = None, progress: bool = False) -> TranslationState:
    """Index (incrementally, when repos are given), resolve `function`, and bind tools, runner and retrieval."""
    from repotrans.execution.runner import language_version, run_candidate
    from repotrans.index.mapping import load_mapping
    from repotrans.index.store import Index
    from repotrans.index.task import resolve_task
    from repotrans.retrieval.retriever import retrieve
    from repotrans.tools import ToolContext, run_tool

    if source is not None and target is not None:
        index = Index.open(workdir)
        index.build(source, target, progress=progress)
    else:
        index = Index.open(workdir, must_exist=True)
    mapping = load_mapping(index)
    task = resolve_task(index, mapping, function)
    java, target_method = index.method(task.source_method_id), index.method(task.target_method_id)
    if java is None or target_method is None:
        raise InputError(f"task {task} names a method missing from the index")
    ex = config.execution
    ctx = ToolContext(index, mapping, task)

    def run_test(code: str):
        return run_candidate(index, target_method, code, toolchain=ex.toolchain, sandbox=ex.sandbox,
                             timeout=ex.timeout, memory_mb=ex.memory_mb, scope=ex.scope, workdir=workdir)

    def find_examples(k: int) -> tuple[list, str]:
        result = retrieve(workdir, task.source_method_id, k=k)
        return result.candidates, result.reason

    services = Services(run_tool=lambda name, args: run_tool(ctx, name, args), run_test=run_test,
                        retrieve=find_examples)
    return TranslationState(task=task, java_method=java, target_method=target_method,
                            lang_version=language_version(index.root("target"), ex.toolchain),
                            config=config, services=services)
