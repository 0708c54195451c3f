"""`run-tests` and `doctor`: judge one candidate, and say what this machine gives repotrans."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from repotrans.cli.options import EXECUTION, MODEL, RETRIEVAL, add_command, add_old_name, add_settings
from repotrans.cli.output import print_json
from repotrans.errors import RepotransError

if TYPE_CHECKING:
    from repotrans.agents.config import AgentConfig


def register(sub) -> None:
    p = add_command(sub, "doctor", "what this machine gives repotrans: the sandbox in force and why, toolchain",
                    run_doctor)
    add_settings(p, *MODEL, *EXECUTION, "no-cache", *RETRIEVAL)
    p.add_argument("--no-model-check", action="store_true",
                   help="do not send the configured model one tiny request (it is sent by default)")
    p.add_argument("--target", help="also explain how this C# repository is built: projects found, chosen, "
                                    "quarantined and why, the untouched build and test time")
    p.add_argument("--no-run", action="store_true", help="with --target: only evaluate the projects")
    p.add_argument("--run-dir", help="also count the verdicts in this run folder's results.sqlite that ran with "
                                     "reduced trust (a capability their Java original reaches, allowed by the IL policy)")

    p = add_command(sub, "run-tests", "build a candidate for one C# method and run its tests (JSON)", run_tests)
    p.add_argument("--target", required=True, help="C# repository")
    p.add_argument("--source", help="Java repository (only needed when the index must be built)")
    p.add_argument("--function", dest="function",
                   help='the C# member, e.g. "Circle.Area()" or "Acme.Geo.Circle.Area" (required)')
    add_old_name(p, "--method", "--function", "function")
    p.add_argument("--code", required=True, help="file with the candidate: a whole method or a body")
    add_settings(p, *EXECUTION, "scope", "timeout", "memory-mb", config_file=False)
    p.add_argument("--write", action="store_true", help="also write the candidate into the target repository")


def run_tests(args: argparse.Namespace, config: AgentConfig) -> int:
    from repotrans.execution.capability.allowances import allowances
    from repotrans.cli.indexing import judged_port_index
    from repotrans.execution.judge.runner import Runner, TargetBuildError, find_target_method, write_candidate

    if not args.function:
        raise RepotransError('run-tests needs --function, the C# member to judge, e.g. --function "Circle.Area()"')
    code_path = Path(args.code)
    if not code_path.is_file():
        raise RepotransError(f"--code: no such file: {code_path}")
    index = judged_port_index(args)
    method = find_target_method(index, args.function)
    code = code_path.read_text(encoding="utf-8")
    java = _java_original(index, method, config)
    allow = allowances(index, java)
    try:            # the user's own candidate: sandbox auto may fall back to local
        with Runner(config.execution, Path(args.workdir), trusted=True) as runner:
            result = runner.run(index, method, code, allow=allow, java=java)
    except TargetBuildError as exc:
        print_json({"error": str(exc), "diagnostics": [d.__dict__ for d in exc.diagnostics]})
        return 2
    out = {"method": method.id, **result.to_json()}
    if args.write:
        out["written"] = write_candidate(index, method, code)
    print_json(out)
    return 0 if result.status == "passed" else 1


def _java_original(index, method, config: AgentConfig):
    """The Java method the mapping pairs with `method` (its allowances apply), or None."""
    from repotrans.mapping.load import load_mapping

    match = load_mapping(index, config.mapping).source_method(method.id)
    return index.method(match.source_id) if match is not None else None


def run_doctor(args: argparse.Namespace, config: AgentConfig) -> int:
    from repotrans.doctor import SECTIONS, exit_line, model_section, report
    from repotrans.execution.judge.build_report import render

    text, healthy = report(config, SECTIONS + ([] if args.no_model_check else [model_section]))
    print(text)
    if args.target:
        from repotrans.execution.judge.build_report import build_section

        title, lines = build_section(Path(args.target), config.execution, workdir=Path(args.workdir),
                                     run_tests=not args.no_run,
                                     cache_root=Path(config.cache.root) if config.cache.root else None)
        text += "\n" + render(title, lines)
        print(render(title, lines))
        healthy &= all(ok is not False for ok, _ in lines)
    if args.run_dir:
        print(render(*_trust_section(Path(args.run_dir))))
    if not healthy:
        print(exit_line(text))
    return 0 if healthy else 1


def _trust_section(run_dir: Path) -> tuple[str, list]:
    """How many verdicts of a run folder ran with reduced trust, and which (their trust notes)."""
    from repotrans.runs.store import RunStore, reduced_trust
    from repotrans.runs.layout import is_run_folder

    if not is_run_folder(run_dir):
        raise RepotransError(f"--run-dir: no results.sqlite in {run_dir}")
    store = RunStore(run_dir)
    try:
        records = store.records()
    finally:
        store.close()
    reduced = reduced_trust(records)
    lines = [(None, f"{len(reduced)} of {len(records)} verdict(s) ran with reduced trust")]
    lines += [(None, f"{r.config}/{r.task_id}: {r.status}, {r.result['trust']}") for r in reduced[:20]]
    if len(reduced) > 20:
        lines.append((None, f"... and {len(reduced) - 20} more"))
    return f"reduced trust in {run_dir}", lines
