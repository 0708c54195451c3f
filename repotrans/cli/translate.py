"""`translate`: one Java method into its C# counterpart with the agents."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from repotrans.agents.providers import provider
from repotrans.cli.options import MODEL, EXECUTION, SWITCHES, add_command, add_settings
from repotrans.cli.output import outcome_lines
from repotrans.errors import InputError

if TYPE_CHECKING:
    from repotrans.agents.config import AgentConfig


def register(sub) -> None:
    p = add_command(sub, "translate", "translate one Java method into its C# counterpart with the agents", run)
    p.add_argument("--source", help="Java repository (indexed incrementally; default: the index in --workdir)")
    p.add_argument("--target", help="C# repository")
    p.add_argument("--function", required=True, help="C# target or Java signature, e.g. 'Circle.Scale(double)'")
    p.add_argument("--target-member", metavar="CS_SIG",
                   help="the C# member to write --function (a Java signature) into, whatever the mapping says")
    p.add_argument("--write", action="store_true", help="put the best candidate into the target repository")
    p.add_argument("--run-dir", help="where the trajectory goes (default: WORKDIR/runs/<time>-<method>)")
    p.add_argument("--stream", action="store_true", help="stream every agent message and tool call (AutoGen Console)")
    add_settings(p, *MODEL, "no-cache", *EXECUTION, *SWITCHES)


def run(args: argparse.Namespace, config: AgentConfig) -> int:
    from repotrans.agents.session import translate, write_method
    from repotrans.verdicts.status import BLOCKED

    if (args.source is None) != (args.target is None):
        raise InputError("give both --source and --target (or neither, to use the index in --workdir)")
    from repotrans.agents.config import with_concrete_sandbox

    config = with_concrete_sandbox(config)
    workdir = Path(args.workdir)
    brief, outcome = translate(workdir, args.function, config,
                               source=Path(args.source) if args.source else None,
                               target=Path(args.target) if args.target else None,
                               run_dir=Path(args.run_dir) if args.run_dir else None, console=args.stream,
                               target_member=args.target_member)
    print(f"```csharp\n{outcome.code or ''}\n```")
    blocked = (outcome.result or {}).get("reason") if outcome.status == BLOCKED else None
    for line in outcome_lines(outcome, blocked, estimated=provider(config.model.name).estimates_tokens):
        print(line)
    if args.write and outcome.code:
        root = Path(args.target) if args.target else _indexed_target(workdir)
        print(f"wrote {write_method(brief, root, outcome.code)}")
    return 0 if outcome.status == "passed" else 1


def _indexed_target(workdir: Path) -> Path:
    """The C# repository the index in `workdir` was built from."""
    from repotrans.cli.indexing import workdir_index

    index = workdir_index(workdir)
    try:
        return index.root("target")
    finally:
        index.close()
