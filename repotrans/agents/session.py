"""Set up one translation: index, mapping, task, language version, and the services the agents call."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from repotrans.agents.config import AgentConfig
from repotrans.agents.conventions import conventions_for, exception_pairs
from repotrans.mapping.api_hints import port_calls
from repotrans.agents.state import Services, TaskBrief
from repotrans.agents.workdir import RUNS_DIR, Workdir
from repotrans.errors import InputError
from repotrans.index.parse import source_text
from repotrans.mapping.overrides import MappingOverrides
from repotrans.tools.context import ToolContext

if TYPE_CHECKING:
    from repotrans.execution.judge.protocol import Judge


def open_view(workdir: Path, source: Path | None = None, target: Path | None = None,
              progress: bool = False, overrides: MappingOverrides | None = None) -> ToolContext:
    """The workspace's index (built incrementally when repos are given) and its mapping (with the
    user's `overrides`): the read-only repository view that tools and a looking-up model client (the
    builtin policy) read."""
    from repotrans.index.store import Index
    from repotrans.mapping.load import load_mapping

    if source is not None and target is not None:
        index = Index.open(workdir)
        index.build(source, target, progress=progress)
    else:
        index = Index.open(workdir, must_exist=True)
    return ToolContext(index, load_mapping(index, overrides))


def prepare(workdir: Path, function: str, config: AgentConfig, runner: "Judge", source: Path | None = None,
            target: Path | None = None, progress: bool = False,
            target_member: str | None = None, view: ToolContext | None = None) -> TaskBrief:
    """Index (incrementally, when repos are given; or the given `view`), resolve `function` (with
    `target_member`: the Java method and the C# member the user names, whatever the mapping says),
    and bind tools, `runner` and retrieval."""
    from repotrans.mapping.task import resolve_pair, resolve_task

    view = view or open_view(workdir, source, target, progress, config.mapping)
    task = (resolve_pair(view.index, function, target_member) if target_member
            else resolve_task(view.index, view.mapping, function))
    return brief_for(Workdir(workdir, view.index, view.mapping, runner, config.mapping, lookups=view.lookups),
                     task, config)


def brief_for(work: Workdir, task, config: AgentConfig) -> TaskBrief:
    """The brief of one resolved task of the workload `work`, with real tools, its judge (the test
    runs, built from config.execution) and its retriever bound to it."""
    from repotrans.execution.capability.allowances import allowances
    from repotrans.retrieval.retriever import above_bar
    from repotrans.tools import run_tool

    index, mapping, runner = work.index, work.mapping, work.judge

    java, target_method = index.method(task.source_method_id), index.method(task.target_method_id)
    if java is None or target_method is None:
        raise InputError(f"task {task} names a method missing from the index")
    ctx = ToolContext(index, mapping, task, lookups=work.lookups)

    allow = allowances(index, java)         # what the Java original reaches (IL policy)

    def run_test(code: str):
        return runner.run(index, target_method, code, allow=allow, java=java)

    rc = config.retrieval

    def find_examples(k: int) -> tuple[list, str]:
        retriever = work.retriever(rc, config.cache.embedding_folder())      # inside a task: no bars
        result = retriever.retrieve(task.source_method_id, k, names=False)
        kept, dropped = above_bar(result.candidates)
        note = f"; {dropped} below the relevance bar left out" if dropped else ""
        return kept, result.reason + note

    services = Services(run_tool=lambda name, args: run_tool(ctx, name, args), run_test=run_test,
                        retrieve=find_examples)
    return TaskBrief(task=task, java_method=java, target_method=target_method,
                     lang_version=runner.language_version(index.root("target")),
                     config=config, services=services, class_members=class_members(index, target_method),
                     conventions=conventions_for(java.body or "", exception_table(index, mapping, task)),
                     port_calls=port_calls_for(ctx, java) if config.agents.api_map else [])


def port_calls_for(ctx, java) -> list[dict]:
    """How the port writes the calls of `java`, from the learned API map without the task's own pair."""
    fields = {f.name: f.type for f in ctx.index.fields(java.type_id)}
    return port_calls(ctx.task_api_map(), java, fields, java.type_id.split(":", 1)[-1].rsplit(".", 1)[-1])


def exception_table(index, mapping, task) -> dict:
    """Java -> C# exception translations over the ported pairs (not the task's own pair)."""
    own = {task.source_method_id, task.target_method_id}
    pairs = []
    for match in mapping.method_matches:
        if match.source_id in own or match.target_id in own:
            continue
        src, tgt = index.method(match.source_id), index.method(match.target_id)
        if src is not None and tgt is not None and "Exception" in (src.body or "") and "Exception" in (tgt.body or ""):
            pairs.append((src.body, tgt.body))
    return exception_pairs(pairs)


def class_members(index, method) -> frozenset[str]:
    """Names of the members, fields and nested types of the class declaring `method` (and its own name,
    which its constructors carry)."""
    names = {m.name for m in index.methods(method.type_id)} | {f.name for f in index.fields(method.type_id)}
    names |= {t.name for t in index.nested_types(method.type_id)}
    own = index.type(method.type_id)
    return frozenset(names | ({own.name} if own is not None else set()))


def default_run_dir(workdir: Path, brief: TaskBrief) -> Path:
    """workdir/runs/<UTC time>-<method name>."""
    import time

    return workdir / RUNS_DIR / f"{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}-{brief.target_method.name}"


def translate(workdir: Path, function: str, config: AgentConfig, *, source: Path | None = None,
              target: Path | None = None, run_dir: Path | None = None, console: bool = False, adjust=None,
              target_member: str | None = None):
    """Prepare the task, build the model client (with the workspace response cache) and run the team;
    `adjust(brief)` may rebind services first (e.g. how a test run is judged)."""
    import asyncio

    from repotrans.agents.models import check_model, make_client
    from repotrans.agents.team import run_translation

    from repotrans.execution.judge.runner import Runner

    check_model(config)
    view = open_view(workdir, source, target, overrides=config.mapping)
    try:
        with Runner(config.execution, workdir) as runner:
            brief = prepare(workdir, function, config, runner, target_member=target_member, view=view)
            if adjust is not None:
                adjust(brief)
            client = make_client(config, view)
            outcome = asyncio.run(run_translation(brief, client, run_dir or default_run_dir(workdir, brief),
                                                  console))
    finally:
        view.index.close()
    return brief, outcome


def write_method(brief: TaskBrief, root: Path, code: str) -> Path:
    """Put `code` in place of the target method in the target repository; returns the file written."""
    from repotrans.execution.workspace.apply import apply_candidate

    path = root / brief.target_method.path
    new_text, _ = apply_candidate(source_text(path.read_bytes()), brief.target_method, code)   # CRLF kept (byte offsets)
    path.write_bytes(new_text.encode("utf-8"))
    return path
