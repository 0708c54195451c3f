"""`batch`, `ablate`, `report`, `dataset build|mask`: many tasks at once, and what they leave."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from repotrans.cli.options import (EXECUTION, MODEL, add_command, add_jobs, add_quiet, add_settings, at_least,
                                   with_java_tests)
from repotrans.cli.indexing import indexed_pair, workdir_index
from repotrans.cli.output import dataset_line
from repotrans.errors import ConfigError
from repotrans.extras import require

if TYPE_CHECKING:
    from repotrans.agents.config import AgentConfig


def register(sub) -> None:
    p = add_command(sub, "batch", "translate every placeholder (or a list) of a project pair", run_batch)
    p.add_argument("--source", required=True, help="Java repository")
    p.add_argument("--target", required=True, help="C# repository with placeholder bodies")
    p.add_argument("--functions", help="file of signatures, one per line (default: all placeholders)")
    p.add_argument("--run-dir", help="run folder (results.sqlite, trajectories, summary); required unless --dry-run")
    p.add_argument("--dry-run", action="store_true",
                   help="print the tasks, their levels (callees first) and what the mapping could not match; "
                        "translate nothing")
    p.add_argument("--all", action="store_true", dest="show_all",
                   help="with --dry-run: list every item of each list (default: the first 12 and a count)")
    p.add_argument("--resume", action="store_true",
                   help="continue a run: finished tasks are kept, errored ones are tried again")
    p.add_argument("--write", action="store_true",
                   help="at the end (also of a stopped batch), splice the passing translations member by member "
                        "into --target as it is then; a member changed since the batch read it is skipped and named")
    p.add_argument("--patch", metavar="FILE",
                   help="write the same change as a unified diff to FILE (`git apply FILE`); with no --write the "
                        "port is untouched")
    p.add_argument("--write-anyway", action="store_true",
                   help="write (or --patch) even when the whole-suite check timed out or fails outside members "
                        "still untranslated")
    p.add_argument("--write-partial", action="store_true",
                   help="also write (or --patch) partial verdicts: passed on the covering tests that could run, the "
                        "others left out because they stop in members this run leaves untranslated")
    p.add_argument("--write-reduced-trust", action="store_true",
                   help="also write (or --patch) passes judged under reduced trust (a capability their Java original "
                        "reaches: file I/O, reflection, processes, the console)")
    p.add_argument("--stop-after-errors", type=at_least(1), default=3, metavar="N",
                   help="stop after N model-server errors in a row (default 3); --resume retries them")
    p.add_argument("--create-missing", action="append", metavar="GLOB",
                   help="first write C# skeletons for the Java types matching GLOB that the port lacks, and "
                        "placeholder members for the Java methods their matched C# types lack, into --target "
                        "(e.g. 'org.acme.geo.*'; repeatable); with --dry-run, list them")
    p.add_argument("--junit", metavar="DIR",
                   help="the Java test sources when the layout does not show them (e.g. JAVA/src/test/java): "
                        "never tasks, never 'missing'; with --create-missing, the JUnit tests of the created types "
                        "(FooTest, FooTests, FooTestCase) become NUnit fixtures labelled translated tests before the "
                        "bodies are translated (by --model, or the builtin rules)")
    _add_run_options(p)

    p = add_command(sub, "ablate", "run configurations over datasets and report", run_ablate)
    p.add_argument("--dataset", nargs="+", required=True, help="dataset folders (with dataset.json)")
    p.add_argument("--configs", default="full,no-rag,no-context,no-refine,no-reflection,static-prompt,direct",
                   help="comma-separated configurations of experiments/ablations.toml (default: all seven)")
    p.add_argument("--run-dir", required=True, help="run folder")
    p.add_argument("--limit", type=at_least(1), help="N tasks spread evenly over each dataset")
    _add_run_options(p)

    p = add_command(sub, "report", "Markdown, PNG plots and HTML pages from run folders", run_report)
    p.add_argument("run_dirs", nargs="+", metavar="RUN_DIR", help="run folders of batch or ablate")
    p.add_argument("--out", help="folder for report.md and the plots (default: the first run folder)")

    p = sub.add_parser("dataset", help="evaluation datasets")
    dsub = p.add_subparsers(dest="dataset_command", required=True)
    q = add_command(dsub, "build", "select, mask and validate the tasks of a project pair", run_dataset_build)
    q.add_argument("--source", required=True, help="Java repository")
    q.add_argument("--target", required=True, help="its complete C# port")
    q.add_argument("--out", required=True, help="dataset folder (dataset.json, report.md)")
    q.add_argument("--name", help="dataset name (default: the --out folder's name)")
    q.add_argument("--select", action="append", help="glob over C# method ids, e.g. 'Acme.Geo.Shapes.*' (repeatable)")
    add_settings(q, *EXECUTION, config_file=False)
    q.add_argument("--no-validate", action="store_true", help="skip the ground-truth/placeholder check")
    q.add_argument("--no-schemata", action="store_true",
                   help="build every task on its own instead of one mutant-schemata build for the tasks it can guard")
    add_jobs(q, "tasks validated")
    add_quiet(q)
    q.add_argument("--executor", choices=["thread", "ray"], default="thread",
                   help="where the baseline and the validation run: threads of this process (default) or a Ray cluster")
    q.add_argument("--ray-address", help="an existing Ray cluster (e.g. 10.0.0.5:6379); default: start a local one")
    q = add_command(dsub, "mask", "lay out a dataset's masked target (what an agent may see)", run_dataset_mask)
    q.add_argument("--dataset", required=True, help="dataset folder (with dataset.json)")
    q.add_argument("--out", required=True, help="folder for the masked view (OUT/target)")


def _add_run_options(p: argparse.ArgumentParser) -> None:
    """Model and execution settings, parallelism and where the tasks run."""
    add_settings(p, *MODEL, *EXECUTION, "batch-candidates")
    add_jobs(p)
    add_quiet(p)
    p.add_argument("--executor", choices=["thread", "ray"], default="thread",
                   help="where tasks run: threads of this process (default) or a Ray cluster")
    p.add_argument("--ray-address", help="an existing Ray cluster (e.g. 10.0.0.5:6379); default: start a local one")
    p.add_argument("--tasks-per-node", type=at_least(1), help="ray: tasks at a time on each node (default: its CPUs)")
    p.add_argument("--model-calls", type=at_least(1), help="cap on model calls in flight, over all tasks and nodes")


def _executor(args: argparse.Namespace):
    from repotrans.runs.executors import make_executor

    return make_executor(args.executor, jobs=args.jobs, model_calls=args.model_calls, ray_address=args.ray_address,
                         tasks_per_node=args.tasks_per_node, progress=not args.quiet)


def _checked(config: AgentConfig) -> AgentConfig:
    """The configuration with a concrete sandbox, and a model that can answer."""
    from repotrans.agents.models import check_model

    from repotrans.agents.config import with_concrete_sandbox

    config = with_concrete_sandbox(config)
    check_model(config)
    return config


def run_batch(args: argparse.Namespace, config: AgentConfig) -> int:
    """Exit status: 0 when every task finished (passed or not), 1 when a task errored or the batch
    stopped early (model-server errors), 3 when --write/--patch held weaker verdicts back (partial, reduced
    trust: --write-partial, --write-reduced-trust), 130 after Ctrl-C."""
    from repotrans.runs.batch import run_batch as run
    from repotrans.runs.batch_end import WriteRequest

    config = with_java_tests(config, args.junit)
    if args.dry_run:
        return _dry_run(args, config)
    if not args.run_dir:
        raise ConfigError("batch needs --run-dir DIR (where results, trajectories and the report go), "
                          "or --dry-run to see the tasks first")
    for flag in ("write_anyway", "write_partial", "write_reduced_trust"):
        if getattr(args, flag) and not (args.write or args.patch):
            raise ConfigError(f"--{flag.replace('_', '-')} goes with --write or --patch FILE")
    config = _checked(config)
    if args.create_missing and not _create_missing(args, config):
        return 1
    executor = _executor(args)
    try:
        summary = run(Path(args.source), Path(args.target), Path(args.run_dir), config,
                      functions=Path(args.functions) if args.functions else None, jobs=args.jobs,
                      resume=args.resume, progress=not args.quiet,
                      write=WriteRequest(write=args.write, patch=Path(args.patch) if args.patch else None,
                                         anyway=args.write_anyway, partial=args.write_partial,
                                         reduced_trust=args.write_reduced_trust),
                      quiet=args.quiet, executor=executor, stop_after_server_errors=args.stop_after_errors)
    finally:
        executor.close()
    print(summary.render())
    print(f"run: {args.run_dir}  (report: repotrans report {args.run_dir})")
    if summary.interrupted:
        return 130
    if summary.errors or summary.stopped:
        return 1
    return 3 if summary.withheld else 0


def _dry_run(args: argparse.Namespace, config: AgentConfig) -> int:
    """Index the pair in --workdir and print the batch's plan; no run folder is made."""
    from repotrans.mapping.load import load_mapping
    from repotrans.runs.batch_plan import plan_batch

    index = indexed_pair(args)
    mapping = load_mapping(index, config.mapping)
    created = None
    if args.create_missing:
        from repotrans.skeleton.missing import plan_missing

        created = plan_missing(index, mapping, args.create_missing)
        print(created.render())
        if args.junit:
            from repotrans.junit.port_tests import junit_files

            found = junit_files(Path(args.junit), _test_patterns([t for f in created.types.plan.files
                                                                  for t in f.java_types]))
            print(f"translate-tests: would translate {len(found)} JUnit class(es) of the created types"
                  + "".join(f"\n  {q}" for q in found))
    plan = plan_batch(index, mapping, Path(args.functions) if args.functions else None,
                      weak=config.tasks.weak_placeholders, java_tests=config.mapping.java_tests)
    print(plan.render(show_all=args.show_all))
    creates = args.create_missing and (created.types.plan.files or created.members.count())
    if not plan.tasks and not creates:          # --create-missing's placeholders would be the tasks
        from repotrans.runs.task_choice import no_tasks

        raise no_tasks(index, mapping, config.mapping.java_tests)
    model = "" if config.model.name else " --model MODEL"      # already named by repotrans.toml, the env or a flag
    print(f"next: repotrans batch --source {args.source} --target {args.target} --run-dir RUN_DIR{model}")
    return 0


def _create_missing(args: argparse.Namespace, config: AgentConfig) -> bool:
    """`--create-missing`: skeletons and placeholder members written into --target and indexed before
    the batch; False (nothing translated) when what was written does not compile with the port."""
    from repotrans.skeleton.missing import create_missing

    index = indexed_pair(args)
    try:
        created = create_missing(index, args.create_missing, overrides=config.mapping,
                                 settings=config.execution.build_settings())
    finally:
        index.close()
    print(created.render())
    if not created.compiled:
        print("create-missing: the port does not compile with what was written (see the errors above); "
              "fix them, then run batch again", file=sys.stderr)
        return False
    if args.junit:
        _translate_tests(args, config, [t for f in created.types.plan.files for t in f.java_types])
    return True


def _test_patterns(java_types: list[str]) -> list[str]:
    """The JUnit class names of Java types: FooTest, FooTests, FooTestCase."""
    return [f"{t}{suffix}" for t in java_types for suffix in ("Test", "Tests", "TestCase")]


def _translate_tests(args: argparse.Namespace, config: AgentConfig, java_types: list[str]) -> None:
    """`--junit`: the JUnit tests of the types create-missing wrote, as NUnit fixtures labelled translated."""
    from repotrans.agents.models import make_client
    from repotrans.agents.providers import provider
    from repotrans.errors import InputError
    from repotrans.junit.port_tests import port_junit_tests
    from repotrans.mapping.load import load_mapping

    patterns = _test_patterns(java_types)
    if not patterns:
        print("translate-tests: no type was created, no JUnit test to translate")
        return
    client = None if provider(config.model.name).deterministic else make_client(config)
    index = workdir_index(Path(args.workdir))
    try:
        ported = port_junit_tests(index, load_mapping(index, config.mapping), Path(args.junit), patterns,
                                  settings=config.execution.build_settings(), client=client,
                                  rounds=config.agents.max_repair_rounds, templates=config.prompts.folder)
        print(ported.render())
    except InputError as exc:          # no JUnit test for the new types: their bodies are judged without
        print(f"translate-tests: {exc}")
    finally:
        index.close()


def run_ablate(args: argparse.Namespace, config: AgentConfig) -> int:
    from repotrans.runs.ablate import configs_for, run_ablation
    from repotrans.reports.report import write_report

    configs = configs_for([c.strip() for c in args.configs.split(",") if c.strip()], _checked(config))
    run_dir = Path(args.run_dir)
    executor = _executor(args)
    try:
        run_ablation([Path(d) for d in args.dataset], configs, run_dir, jobs=args.jobs, limit=args.limit,
                     progress=not args.quiet, executor=executor)
    finally:
        executor.close()
    print(f"report: {write_report([run_dir])}")
    return 0


def run_report(args: argparse.Namespace, config: AgentConfig) -> int:
    from repotrans.reports.report import write_report

    print(f"report: {write_report([Path(d) for d in args.run_dirs], Path(args.out) if args.out else None)}")
    return 0


def run_dataset_build(args: argparse.Namespace, config: AgentConfig) -> int:
    from repotrans.datasets.build import build_dataset

    validator = _validator(args)
    try:
        ds = build_dataset(Path(args.source), Path(args.target), Path(args.out), name=args.name,
                           select=args.select or None, execution=config.execution, overrides=config.mapping,
                           validate=not args.no_validate, jobs=args.jobs, progress=not args.quiet,
                           schemata=not args.no_schemata,
                           cache_root=Path(config.cache.root) if config.cache.root else None, validator=validator)
    finally:
        if validator is not None:
            validator.close()
    print(dataset_line(ds, Path(args.out)))
    return 0


def _validator(args: argparse.Namespace):
    """Where `dataset build` validates: None (threads here) or a Ray cluster (runs.ray_validation)."""
    if args.executor != "ray":
        if args.ray_address:
            raise ConfigError("--ray-address needs --executor ray")
        return None
    require("ray")
    from repotrans.runs.ray_validation import RayValidator

    return RayValidator(args.ray_address)


def run_dataset_mask(args: argparse.Namespace, config: AgentConfig) -> int:
    from repotrans.datasets.dataset import load_dataset
    from repotrans.datasets.masking import materialize

    ds = load_dataset(Path(args.dataset))
    view = materialize(ds, Path(args.out))
    print(f"source: {view.source}\nmasked target: {view.target}")
    if ds.fails_before_any_change:
        from repotrans.execution.toolchains.api import write_known_failures

        path = write_known_failures(Path(args.out) / "known-failures.tsv", ds.fails_before_any_change)
        print(f"tests failing on the untouched port: {len(ds.fails_before_any_change)}, in {path} "
              f"(pass --known-failures {path} to batch to leave them out of its verdicts)")
    return 0
