"""`parity` and `sync`: keep a port in step with its upstream.

    repotrans parity --source JAVA --target CS [--exclude FILE] [--format md|json|html] [--fail-over N]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from repotrans.agents.config import AgentConfig
from repotrans.cli.options import add_command, add_quiet, at_least
from repotrans.errors import ConfigError


def register(sub) -> None:
    p = add_command(sub, "parity", "the Java side's public and protected API against the port's: matched, "
                    "missing, signature differences, port-only", run_parity)
    p.add_argument("--source", required=True, help="Java repository")
    p.add_argument("--target", required=True, help="C# port")
    p.add_argument("--exclude", metavar="FILE",
                   help="exclusions: one '[missing|signature|port-only|matched:] GLOB [# reason]' per line "
                        "(see the README's 'Keep your port in sync')")
    p.add_argument("--format", choices=["md", "json", "html"], default="md", help="output format (default md)")
    p.add_argument("--out", metavar="FILE", help="write the report here instead of stdout")
    p.add_argument("--fail-over", type=at_least(0), metavar="N",
                   help="exit 1 when more than N declarations are missing or differ in signature (for CI)")
    add_quiet(p)


def _indexed(args: argparse.Namespace):
    from repotrans.index.store import Index

    for name in ("source", "target"):
        if not Path(getattr(args, name)).is_dir():
            raise ConfigError(f"--{name}: {name} repository not found: {getattr(args, name)}")
    index = Index.open(Path(args.workdir))
    index.build(Path(args.source), Path(args.target), progress=not args.quiet and sys.stderr.isatty())
    return index


def run_parity(args: argparse.Namespace, config: AgentConfig) -> int:
    """Exit status: 0, or 1 when --fail-over N is given and the problems exceed N."""
    from repotrans.experiments.parity import parity
    from repotrans.experiments.parity_exclude import Exclusions
    from repotrans.experiments.parity_render import render
    from repotrans.mapping.load import load_mapping

    exclusions = Exclusions.read(Path(args.exclude)) if args.exclude else None
    index = _indexed(args)
    try:
        report = parity(index, load_mapping(index, config.mapping), exclusions)
    finally:
        index.close()
    text = render(report, args.format)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"parity: {args.out}")
    else:
        sys.stdout.write(text)
    problems = report.problems()
    if args.fail_over is not None and problems > args.fail_over:
        print(f"parity: {problems} missing or differing declaration(s), over --fail-over {args.fail_over}",
              file=sys.stderr)
        return 1
    return 0
