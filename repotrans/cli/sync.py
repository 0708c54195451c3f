"""`parity` and `sync`: keep a port in step with its upstream.

    repotrans parity --source JAVA --target CS [--exclude FILE] [--format md|json|html] [--fail-over N]
    repotrans sync --source JAVA_GIT --since REV [--until REV] --target CS --run-dir D [--write | --patch FILE]
    repotrans sync --source-before OLD_JAVA --source NEW_JAVA --target CS --run-dir D
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from repotrans.cli.indexing import indexed_pair
from repotrans.cli.options import EXECUTION, MODEL, add_command, add_quiet, add_settings, at_least, with_java_tests
from repotrans.errors import ConfigError

if TYPE_CHECKING:
    from repotrans.agents.config import AgentConfig


def register(sub) -> None:
    p = add_command(sub, "parity", "the Java side's public and protected API against the port's: matched, "
                    "missing, signature differences, port-only", run_parity)
    p.add_argument("--source", required=True, help="Java repository")
    p.add_argument("--target", required=True, help="C# port")
    p.add_argument("--exclude", metavar="FILE",
                   help="exclusions: one '[missing|signature|port-only|matched:] GLOB [# reason]' per line "
                        "(see docs/sync.md)")
    p.add_argument("--format", choices=["md", "json", "html"], default="md", help="output format (default md)")
    p.add_argument("--out", metavar="FILE", help="write the report here instead of stdout")
    p.add_argument("--fail-over", type=at_least(0), metavar="N",
                   help="exit 1 when more than N declarations are missing or differ in signature (for CI)")
    p.add_argument("--junit", metavar="DIR", help="the Java test sources when the layout does not show them "
                   "(test code is never library code: left out of the mapping's misses)")
    add_quiet(p)

    p = add_command(sub, "sync", "port a range of upstream Java commits into the C# port: a member-level "
                    "diff, carried through the old revision's mapping, edited and judged by the port's tests",
                    run_sync)
    p.add_argument("--source", required=True,
                   help="the Java git repository (or, with --source-before, the new Java tree)")
    p.add_argument("--since", metavar="REV", help="the upstream revision the port follows now")
    p.add_argument("--until", metavar="REV", default="HEAD", help="the revision to sync to (default HEAD)")
    p.add_argument("--source-before", metavar="DIR", help="the old Java tree, when the source is no git repository")
    p.add_argument("--target", required=True, help="the C# port (at the --since revision)")
    p.add_argument("--run-dir", required=True, help="run folder: sync.md, sync.json, changes.patch, work/target, "
                   "results.sqlite (the same command again in it resumes a stopped sync)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--write", action="store_true",
                     help="copy what passed into --target (a file changed there since the sync read it is left alone)")
    out.add_argument("--patch", metavar="FILE", help="write what passed as a patch `git apply` takes")
    p.add_argument("--remove", action="store_true",
                   help="delete the port's counterparts of members removed upstream when its tests pass without them")
    p.add_argument("--junit", metavar="DIR",
                   help="the Java test sources, relative to the Java repository's root and read at --until (e.g. "
                        "src/test/java): the JUnit tests of types that gain members become labelled NUnit fixtures")
    add_settings(p, *MODEL, "no-cache", *EXECUTION)
    add_quiet(p)


def run_parity(args: argparse.Namespace, config: AgentConfig) -> int:
    """Exit status: 0, or 1 when --fail-over N is given and the problems exceed N."""
    from repotrans.parity.api import parity
    from repotrans.parity.exclude import Exclusions
    from repotrans.parity.render import render
    from repotrans.mapping.load import load_mapping

    exclusions = Exclusions.read(Path(args.exclude)) if args.exclude else None
    index = indexed_pair(args)
    try:
        config = with_java_tests(config, args.junit)
        report = parity(index, load_mapping(index, config.mapping), exclusions, config.mapping.java_tests)
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


def run_sync(args: argparse.Namespace, config: AgentConfig) -> int:
    """Exit status: 0 when every carried change passed, 1 when something is left for a human."""
    from repotrans.agents.config import with_concrete_sandbox
    from repotrans.sync.run import SyncInputs, run_sync as run
    from repotrans.sync.model import editor_for

    if args.source_before and args.since:
        raise ConfigError("give either --since REV (a git range) or --source-before DIR (two trees), not both")
    config = with_concrete_sandbox(config)
    say = (lambda line: None) if args.quiet else (lambda line: print(f"sync: {line}", file=sys.stderr, flush=True))
    inputs = SyncInputs(target=Path(args.target), run_dir=Path(args.run_dir), source=Path(args.source),
                        since=args.since, until=args.until,
                        source_before=Path(args.source_before) if args.source_before else None,
                        write=args.write, patch=Path(args.patch) if args.patch else None, remove=args.remove,
                        junit=Path(args.junit) if args.junit else None, progress=say)
    if not inputs.target.is_dir():
        raise ConfigError(f"--target: C# port not found: {inputs.target}")
    report = run(inputs, config, editor_for(config))
    print(report.render())
    print(f"run: {args.run_dir}  (sync.md, sync.json, changes.patch)")
    return 0 if all(o.status in ("passed", "nothing to do") for o in report.outcomes) else 1
