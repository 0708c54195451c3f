"""repotrans command line: one subcommand per job, each a thin call into the pipeline.

Every handler returns an exit code; a RepotransError becomes one line on stderr and exit code 2.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from repotrans.errors import RepotransError
from repotrans.execution.blocked import blocked_reason


def _print_json(obj) -> None:
    print(json.dumps(obj, indent=2, ensure_ascii=False))


def cmd_index(args: argparse.Namespace) -> int:
    from repotrans.index.store import Index

    path = Path(args.workdir) / "index.sqlite"
    new = not path.exists()
    index = Index.open(Path(args.workdir))
    try:
        summary = index.build(Path(args.source), Path(args.target), progress=not args.quiet)
    except BaseException:
        if new:                  # a failed first index leaves no empty index behind
            index.close()
            for leftover in path.parent.glob("index.sqlite*"):
                leftover.unlink()
        raise
    print(summary.render())
    return 0


def cmd_tool(args: argparse.Namespace) -> int:
    from repotrans.tools import ToolContext, run_tool

    try:
        tool_args = json.loads(args.args)
    except json.JSONDecodeError as exc:
        raise RepotransError(f"tool arguments are not JSON: {exc}") from exc
    ctx = ToolContext.from_workdir(Path(args.workdir), function=args.function)
    result = run_tool(ctx, args.name, tool_args)
    _print_json(result)
    return 1 if "error" in result else 0


def cmd_mapping(args: argparse.Namespace) -> int:
    from repotrans.mapping.mapping import load_mapping
    from repotrans.mapping.mapping_export import records
    from repotrans.index.store import Index

    index = Index.open(Path(args.workdir), must_exist=True)
    mapping = load_mapping(index)
    if args.format == "jsonl":
        for rec in records(mapping, index):
            print(json.dumps(rec, ensure_ascii=False))
    else:
        print(mapping.render(verbose=args.verbose))
    return 0


def cmd_retrieve(args: argparse.Namespace) -> int:
    from repotrans.errors import InputError
    from repotrans.mapping.task import resolve_task
    from repotrans.retrieval.dense import Embedder
    from repotrans.retrieval.retriever import Retriever

    if not args.function and not args.rebuild:
        raise InputError("give --function SIG to retrieve for, or --rebuild to rebuild the stores")
    exclude = list(args.exclude)
    if args.exclude_file:
        try:
            exclude += [line.strip() for line in Path(args.exclude_file).read_text().splitlines() if line.strip()]
        except OSError as exc:
            raise InputError(f"cannot read --exclude-file: {exc.strerror}: {args.exclude_file}") from exc
    retriever = Retriever.open(Path(args.workdir), exclude_ids=exclude, encoder=Embedder(args.model),
                               rebuild=args.rebuild, progress=not args.quiet)
    if not args.function:
        print(retriever.summary())
        return 0
    task = resolve_task(retriever.index, retriever.mapping, args.function)
    _print_json(retriever.retrieve(task.source_method_id, args.k).to_json())
    return 0


def cmd_translate(args: argparse.Namespace) -> int:
    from repotrans.agents.config import load_config
    from repotrans.agents.session import translate, write_method
    from repotrans.errors import InputError

    if (args.source is None) != (args.target is None):
        raise InputError("give both --source and --target (or neither, to use the index in --workdir)")
    switches = {"rag": args.rag, "context": args.context, "refine": args.refine, "reflection": args.reflection,
                "dynamic_prompt": args.dynamic_prompt, "max_context_iterations": args.max_context_iterations,
                "max_repair_rounds": args.max_repair_rounds}
    config = load_config(Path(args.config) if args.config else None, cli={
        "model": {"name": args.model, "base_url": args.base_url, "cache": False if args.no_cache else None},
        "agents": switches, "execution": {"toolchain": args.toolchain, "sandbox": args.sandbox}})
    workdir = Path(args.workdir)
    state, outcome = translate(workdir, args.function, config,
                               source=Path(args.source) if args.source else None,
                               target=Path(args.target) if args.target else None,
                               run_dir=Path(args.run_dir) if args.run_dir else None, console=args.stream,
                               adjust=_judge_blocked, target_member=args.target_member)
    print(f"```csharp\n{outcome.code or ''}\n```")
    tests = f" ({outcome.result['tests_run']} tests run)" if outcome.result else ""
    cost = f", cost {outcome.cost:.4f}" if outcome.cost is not None else ""
    blocked = blocked_reason(outcome.result)
    print(f"test outcome: {'blocked' if blocked else outcome.status}{tests}")
    for line in _outcome_details(outcome.result, outcome.status, blocked):
        print(f"  {line}")
    print(f"rounds: {outcome.repair_rounds} repair round(s), {outcome.attempts} candidate(s)")
    t = outcome.tokens
    extra = [f"{t['cached_calls']} answered by the response cache ({t['replayed_prompt']} prompt tokens not spent)"
             if t.get("cached_calls") else "",
             f"{t['server_cached_prompt']} prompt tokens from the server's prompt cache" if t.get("server_cached_prompt")
             else "", f"{t['unreported_calls']} without usage from the server" if t.get("unreported_calls") else ""]
    extra_text = "; ".join(e for e in extra if e)
    print(f"tokens: {t['prompt']} prompt + {t['completion']} completion spent in {t['calls']} model calls"
          f"{' (' + extra_text + ')' if extra_text else ''}{cost}")
    print(f"run: {outcome.run_dir}")
    if args.write and outcome.code:
        from repotrans.index.store import Index

        root = Path(args.target) if args.target else Index.open(workdir, must_exist=True).root("target")
        print(f"wrote {write_method(state, root, outcome.code)}")
    return 0 if outcome.status == "passed" and not blocked else 1


def _judge_blocked(state) -> None:
    """A candidate whose covering tests fail only inside other still-placeholder methods is `blocked`
    (as in a batch): the agents stop repairing it, and the outcome says so."""
    from repotrans.execution.blocked import judging_blocked

    state.services.run_test = judging_blocked(state.services.run_test)


def _outcome_details(result: dict | None, status: str, blocked: str | None = None, shown: int = 6) -> list[str]:
    """What a person needs beside the status: why it failed (the first diagnostics or failing tests)
    and which tests were selected."""
    if not result:
        return []
    from repotrans.execution.results import TestResult

    res = TestResult.from_json(result)
    lines = [blocked] if blocked else res.brief().splitlines() if status != "passed" else []
    if len(lines) > shown + 1:
        lines = lines[:shown + 1] + ["... (the rest is in the run folder's result.json)"]
    return lines + ([f"tests: {res.selection}"] if res.selection else [])


def _add_model_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", help="model name ('builtin' = offline policy); else REPOTRANS_MODEL / repotrans.toml")
    p.add_argument("--base-url", help="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 for Ollama")
    p.add_argument("--config", help="configuration file (default: ./repotrans.toml if present)")
    p.add_argument("--toolchain", choices=["mono", "dotnet"], help="C# toolchain for the test runs")
    p.add_argument("--sandbox", choices=["auto", "docker", "local"],
                   help="where test runs execute (auto: docker when an engine answers)")
    p.add_argument("--jobs", type=int, default=1, help="tasks run at the same time (default 1)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def _add_executor_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--executor", choices=["thread", "ray"], default="thread",
                   help="where tasks run: threads of this process (default) or a Ray cluster")
    p.add_argument("--ray-address", help="an existing Ray cluster (e.g. 10.0.0.5:6379); default: start a local one")
    p.add_argument("--tasks-per-node", type=int, help="ray: tasks at a time on each node (default: its CPUs)")
    p.add_argument("--model-calls", type=int, help="cap on model calls in flight, over all tasks and nodes")


def _executor(args: argparse.Namespace):
    from repotrans.experiments.executors import make_executor

    return make_executor(args.executor, jobs=args.jobs, model_calls=args.model_calls, ray_address=args.ray_address,
                         tasks_per_node=args.tasks_per_node, progress=not args.quiet)


def _config(args: argparse.Namespace):
    from repotrans.agents.config import load_config
    from repotrans.agents.models import check_model

    config = load_config(Path(args.config) if args.config else None, cli={
        "model": {"name": args.model, "base_url": args.base_url},
        "execution": {"toolchain": args.toolchain, "sandbox": args.sandbox}})
    check_model(config)
    return config


def cmd_batch(args: argparse.Namespace) -> int:
    from repotrans.experiments.batch import run_batch

    config = _config(args)
    executor = _executor(args)
    try:
        summary = run_batch(Path(args.source), Path(args.target), Path(args.run_dir), config,
                            functions=Path(args.functions) if args.functions else None, jobs=args.jobs,
                            resume=args.resume, write=args.write, progress=not args.quiet, executor=executor)
    finally:
        executor.close()
    print(summary.render())
    print(f"run: {args.run_dir}")
    return 0


def cmd_dataset_build(args: argparse.Namespace) -> int:
    from repotrans.experiments.datasets import build_dataset

    ds = build_dataset(Path(args.source), Path(args.target), Path(args.out), name=args.name,
                       select=args.select or None, toolchain=args.toolchain, sandbox=args.sandbox,
                       validate=not args.no_validate, jobs=args.jobs, progress=not args.quiet)
    counts = (f"{len(ds.tasks)} validated tasks, {len(ds.dropped)} dropped" if ds.validated else
              f"{len(ds.tasks)} UNVALIDATED tasks (--no-validate: not checked against the tests)")
    print(f"{ds.name}: {counts}; manifest {Path(args.out) / 'dataset.json'}, report {Path(args.out) / 'report.md'}")
    return 0


def cmd_dataset_mask(args: argparse.Namespace) -> int:
    from repotrans.experiments.datasets import load_dataset, materialize

    view = materialize(load_dataset(Path(args.dataset)), Path(args.out))
    print(f"source: {view.source}\nmasked target: {view.target}")
    return 0


def cmd_ablate(args: argparse.Namespace) -> int:
    from repotrans.experiments.ablate import configs_for, run_ablation
    from repotrans.experiments.report import write_report

    configs = configs_for([c.strip() for c in args.configs.split(",") if c.strip()], _config(args))
    run_dir = Path(args.run_dir)
    executor = _executor(args)
    try:
        run_ablation([Path(d) for d in args.dataset], configs, run_dir, jobs=args.jobs, limit=args.limit,
                     progress=not args.quiet, executor=executor)
    finally:
        executor.close()
    print(f"report: {write_report([run_dir])}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from repotrans.experiments.report import write_report

    print(f"report: {write_report([Path(d) for d in args.run_dirs], Path(args.out) if args.out else None)}")
    return 0


def cmd_run_tests(args: argparse.Namespace) -> int:
    from repotrans.execution.blocked import as_blocked
    from repotrans.execution.runner import (TargetBuildError, close_sandboxes, find_target_method, open_index,
                                            run_candidate, write_candidate)

    code_path = Path(args.code)
    if not code_path.is_file():
        raise RepotransError(f"--code: no such file: {code_path}")
    index = open_index(Path(args.workdir), Path(args.target), Path(args.source) if args.source else None)
    method = find_target_method(index, args.method)
    code = code_path.read_text(encoding="utf-8")
    try:
        result = run_candidate(index, method, code, toolchain=args.toolchain, sandbox=args.sandbox,
                               timeout=args.timeout, memory_mb=args.memory_mb, scope=args.scope,
                               workdir=Path(args.workdir))
    except TargetBuildError as exc:
        _print_json({"error": str(exc), "diagnostics": [d.__dict__ for d in exc.diagnostics]})
        return 2
    finally:
        close_sandboxes()
    out = {"method": method.id, **result.to_json()}
    blocked = as_blocked(result, code)
    if blocked is not result:       # fails only inside other still-placeholder methods
        out.update(status="blocked", reason=blocked.reason)
    if args.write:
        out["written"] = write_candidate(index, method, code)
    _print_json(out)
    return 0 if result.status == "passed" else 1


def cmd_doctor(args: argparse.Namespace) -> int:
    from repotrans.agents.config import load_config
    from repotrans.doctor import report

    config = load_config(Path(args.config) if args.config else None, resolve=False, cli={
        "model": {"name": args.model}, "execution": {"toolchain": args.toolchain, "sandbox": args.sandbox}})
    text, healthy = report(config)
    print(text)
    if args.target:
        from repotrans.execution.build_report import build_section, render

        title, lines = build_section(Path(args.target), toolchain=config.execution.toolchain,
                                     sandbox=config.execution.sandbox, workdir=Path(args.workdir),
                                     run_tests=not args.no_run)
        print(render(title, lines))
        healthy &= all(ok is not False for ok, _ in lines)
    return 0 if healthy else 1


def _set_build_options(args: argparse.Namespace) -> None:
    """--framework/--packages/--project-path reach every build through the environment (workers too)."""
    from repotrans.execution.toolchains.projects import ENV_FRAMEWORK, ENV_PACKAGES, ENV_PROJECT_PATH

    if getattr(args, "framework", None):
        os.environ[ENV_FRAMEWORK] = args.framework
    for name, env in (("packages", ENV_PACKAGES), ("project_path", ENV_PROJECT_PATH)):
        values = getattr(args, name, None) or []
        for value in values:
            if not Path(value).is_dir():
                raise RepotransError(f"--{name.replace('_', '-')}: {value} is not a folder")
        if values:
            os.environ[env] = os.pathsep.join(str(Path(v).resolve()) for v in values)


def _accept_global_options(parser: argparse.ArgumentParser, top: argparse.ArgumentParser | None = None) -> None:
    """Let every subcommand also take the global options (--workdir, --mapping, ...) after its name:
    `repotrans index ... --workdir W`. Their default there is SUPPRESS, so a value given before the
    subcommand is kept."""
    top = top or parser
    options = [a for a in top._actions if a.option_strings and a.dest != "help"]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                if any(isinstance(a, argparse._SubParsersAction) for a in sub._actions):
                    _accept_global_options(sub, top)
                    continue
                for opt in options:
                    if any(s in sub._option_string_actions for s in opt.option_strings):
                        continue
                    value = {} if opt.nargs == 0 else {"metavar": opt.metavar, "type": opt.type,
                                                       "choices": opt.choices}
                    sub.add_argument(*opt.option_strings, action=type(opt), dest=opt.dest,
                                     default=argparse.SUPPRESS, help=opt.help, **value)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="repotrans", description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", default=".repotrans", help="workspace folder (index, stores, caches)")
    parser.add_argument("--mapping", metavar="FILE",
                        help="mapping overrides (TOML [mapping] or an edited `mapping --format jsonl` export)")
    parser.add_argument("--framework", help="target framework to build multi-targeting projects for (e.g. net48)")
    parser.add_argument("--packages", action="append", metavar="DIR",
                        help="local NuGet packages folder for PackageReferences (repeatable)")
    parser.add_argument("--project-path", action="append", metavar="DIR",
                        help="folder with projects that stand in for PackageReferences by id (repeatable)")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("index", help="index a Java source repo and a C# target repo")
    p.add_argument("--source", required=True, help="Java repository")
    p.add_argument("--target", required=True, help="C# repository")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_index)

    p = sub.add_parser("tool", help="run one context tool and print what the agent would get")
    p.add_argument("name")
    p.add_argument("args", nargs="?", default="{}", help="JSON object of arguments")
    p.add_argument("--function", help="the function under translation (C# or Java signature)")
    p.set_defaults(func=cmd_tool)

    p = sub.add_parser("mapping", help="show the package -> namespace map and alignment counts")
    p.add_argument("--verbose", action="store_true", help="list every type and method pair")
    p.add_argument("--format", choices=["text", "jsonl"], default="text",
                   help="jsonl: one record per namespace, type and member match or miss, with evidence")
    p.set_defaults(func=cmd_mapping)

    p = sub.add_parser("retrieve", help="similar aligned pairs and close target names for one function (JSON)")
    p.add_argument("--function", help="the function under translation (C# or Java signature)")
    p.add_argument("--k", type=int, default=5, help="candidates per store (default 5)")
    p.add_argument("--rebuild", action="store_true", help="rebuild the stores (e.g. after changing --model)")
    p.add_argument("--exclude", action="append", default=[], metavar="METHOD_ID",
                   help="evaluation mode: build the stores without this method id (repeatable)")
    p.add_argument("--exclude-file", help="evaluation mode: file of method ids to leave out, one per line")
    p.add_argument("--model", default="all-MiniLM-L6-v2", help="embedding model (name or local folder)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_retrieve)

    p = sub.add_parser("translate", help="translate one Java method into its C# counterpart with the agents")
    p.add_argument("--source", help="Java repository (indexed incrementally; default: the index in --workdir)")
    p.add_argument("--target", help="C# repository")
    p.add_argument("--function", required=True, help="C# target or Java signature, e.g. 'Circle.Scale(double)'")
    p.add_argument("--target-member", metavar="CS_SIG",
                   help="the C# member to write --function (a Java signature) into, whatever the mapping says")
    p.add_argument("--model", help="model name ('builtin' = offline policy); else REPOTRANS_MODEL / repotrans.toml")
    p.add_argument("--base-url", help="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 for Ollama")
    p.add_argument("--config", help="configuration file (default: ./repotrans.toml if present)")
    p.add_argument("--write", action="store_true", help="put the best candidate into the target repository")
    p.add_argument("--run-dir", help="where the trajectory goes (default: WORKDIR/runs/<time>-<method>)")
    p.add_argument("--stream", action="store_true", help="stream every agent message and tool call (AutoGen Console)")
    p.add_argument("--no-cache", action="store_true", help="do not use the response cache")
    p.add_argument("--toolchain", choices=["mono", "dotnet"], help="C# toolchain for the test runs")
    p.add_argument("--sandbox", choices=["auto", "docker", "local"],
                   help="where test runs execute (auto: docker when an engine answers)")
    for flag, dest, what in (("rag", "rag", "retrieval of similar pairs"), ("context", "context", "the context agent"),
                             ("refine", "refine", "test-driven repair"), ("reflection", "reflection", "reflection"),
                             ("dynamic-prompt", "dynamic_prompt", "dynamic prompts (off: one static prompt)")):
        p.add_argument(f"--{flag}", dest=dest, action=argparse.BooleanOptionalAction, default=None,
                       help=f"ablation switch: {what}")
    p.add_argument("--max-context-iterations", type=int, help="tool calls the context agent may make")
    p.add_argument("--max-repair-rounds", type=int, help="reflect/repair rounds after the first candidate")
    p.set_defaults(func=cmd_translate)

    p = sub.add_parser("batch", help="translate every placeholder (or a list) of a project pair")
    p.add_argument("--source", required=True, help="Java repository")
    p.add_argument("--target", required=True, help="C# repository with placeholder bodies")
    p.add_argument("--functions", help="file of signatures, one per line (default: all placeholders)")
    p.add_argument("--all-placeholders", action="store_true", help="every placeholder body (the default)")
    p.add_argument("--run-dir", required=True, help="run folder (results.sqlite, trajectories, summary)")
    p.add_argument("--resume", action="store_true", help="continue a run without redoing finished functions")
    p.add_argument("--write", action="store_true", help="write passing translations into --target")
    _add_model_args(p)
    _add_executor_args(p)
    p.set_defaults(func=cmd_batch)

    p = sub.add_parser("dataset", help="evaluation datasets")
    dsub = p.add_subparsers(dest="dataset_command", required=True)
    q = dsub.add_parser("build", help="select, mask and validate the tasks of a project pair")
    q.add_argument("--source", required=True, help="Java repository")
    q.add_argument("--target", required=True, help="its complete C# port")
    q.add_argument("--out", required=True, help="dataset folder (dataset.json, report.md)")
    q.add_argument("--name", help="dataset name (default: the --out folder's name)")
    q.add_argument("--select", action="append", help="glob over C# method ids, e.g. 'Acme.Geo.Shapes.*' (repeatable)")
    q.add_argument("--toolchain", choices=["mono", "dotnet"], default="mono")
    q.add_argument("--sandbox", choices=["auto", "docker", "local"], default="auto",
                   help="where test runs execute (auto: docker when an engine answers, else local)")
    q.add_argument("--no-validate", action="store_true", help="skip the ground-truth/placeholder check")
    q.add_argument("--jobs", type=int, default=1, help="tasks validated at the same time (default 1)")
    q.add_argument("--quiet", action="store_true", help="no progress bar")
    q.set_defaults(func=cmd_dataset_build)
    q = dsub.add_parser("mask", help="lay out a dataset's masked target (what an agent may see)")
    q.add_argument("--dataset", required=True, help="dataset folder (with dataset.json)")
    q.add_argument("--out", required=True, help="folder for the masked view (OUT/target)")
    q.set_defaults(func=cmd_dataset_mask)

    p = sub.add_parser("ablate", help="run configurations over datasets and report")
    p.add_argument("--dataset", nargs="+", required=True, help="dataset folders (with dataset.json)")
    p.add_argument("--configs", default="full,no-rag,no-context,no-refine,no-reflection,static-prompt,direct")
    p.add_argument("--run-dir", required=True, help="run folder")
    p.add_argument("--limit", type=int, help="N tasks spread evenly over each dataset")
    _add_model_args(p)
    _add_executor_args(p)
    p.set_defaults(func=cmd_ablate)

    p = sub.add_parser("report", help="Markdown, PNG plots and HTML pages from run folders")
    p.add_argument("run_dirs", nargs="+")
    p.add_argument("--out", help="folder for report.md and the plots (default: the first run folder)")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("doctor", help="what this machine gives repotrans: the sandbox in force and why, toolchain")
    p.add_argument("--model", help="model name (decides whether auto may fall back to the local sandbox)")
    p.add_argument("--config", help="configuration file (default: ./repotrans.toml if present)")
    p.add_argument("--toolchain", choices=["mono", "dotnet"], help="C# toolchain for the test runs")
    p.add_argument("--sandbox", choices=["auto", "docker", "local"], help="sandbox to check (default: configured)")
    p.add_argument("--target", help="also explain how this C# repository is built: projects found, chosen, "
                                    "quarantined and why, the untouched build and test time")
    p.add_argument("--no-run", action="store_true", help="with --target: only evaluate the projects")
    p.set_defaults(func=cmd_doctor)

    p = sub.add_parser("run-tests", help="build a candidate for one C# method and run its tests (JSON)")
    p.add_argument("--target", required=True, help="C# repository")
    p.add_argument("--source", help="Java repository (only needed when the index must be built)")
    p.add_argument("--method", required=True, help='C# method, e.g. "Circle.Area()" or "Acme.Geo.Circle.Area"')
    p.add_argument("--code", required=True, help="file with the candidate: a whole method or a body")
    p.add_argument("--toolchain", choices=["mono", "dotnet"], default="mono")
    p.add_argument("--sandbox", choices=["auto", "docker", "local"], default="auto",
                   help="where test runs execute (auto: docker when an engine answers, else local)")
    p.add_argument("--scope", choices=["covering", "all"], default="covering",
                   help="tests that mention the method's class (default) or the whole test project")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds for the test run")
    p.add_argument("--memory-mb", type=int, default=1024)
    p.add_argument("--write", action="store_true", help="also write the candidate into the target repository")
    p.set_defaults(func=cmd_run_tests)

    _accept_global_options(parser)
    return parser


@contextmanager
def _overrides_env(args: argparse.Namespace) -> Iterator[None]:
    """Name the mapping overrides (--mapping, and --config's [mapping]) for every load_mapping of this
    command, including its subprocesses."""
    from repotrans.mapping.overrides import CONFIG_ENV, ENV

    wanted = {ENV: getattr(args, "mapping", None), CONFIG_ENV: getattr(args, "config", None)}
    saved = {k: os.environ.get(k) for k in wanted}
    for key, value in wanted.items():
        if value:
            os.environ[key] = str(Path(value).resolve())
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def main(argv: list[str] | None = None) -> int:
    import repotrans.policy.builtin  # noqa: F401  (registers --model builtin with the model clients)

    args = build_parser().parse_args(argv)
    try:
        if Path(args.workdir).exists() and not Path(args.workdir).is_dir():
            raise RepotransError(f"--workdir: {args.workdir} is a file, not a folder")
        _set_build_options(args)
        with _overrides_env(args):
            return args.func(args)
    except RepotransError as exc:
        from repotrans.redact import redact
        print(f"repotrans: error: {redact(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("repotrans: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:                      # output piped into `head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
