"""`skeleton`: C# types for the Java types the port does not have yet (signatures, bodies as placeholders).

    repotrans index --source JAVA --target CS
    repotrans skeleton --types 'org.acme.geo.*' [--dry-run] [--no-check] [--conventions]
    repotrans batch --source JAVA --target CS --run-dir runs/port --model builtin    # fills the bodies
    repotrans translate-tests --junit JAVA/src/test/java --tests 'org.acme.geo.*Test' [--model NAME]

translate-tests without --model (or with builtin, or with --dry-run) uses the builtin rules; with a
model, the model writes each fixture, compiled against the port and repaired from the compiler errors
(up to max_repair_rounds) before it is written.
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from repotrans.cli.indexing import pair_index
from repotrans.cli.options import MODEL, add_command, add_pair, add_settings

if TYPE_CHECKING:
    from repotrans.agents.config import AgentConfig


def register(sub) -> None:
    p = add_command(sub, "skeleton", "generate C# skeletons for Java types without a C# counterpart",
                    run_skeleton)
    p.add_argument("--types", action="append", required=True, metavar="GLOB",
                   help="Java qualified names to consider, e.g. 'org.acme.geo.*' (repeatable)")
    p.add_argument("--dry-run", action="store_true", help="show the files it would write, write nothing")
    p.add_argument("--no-check", action="store_true", help="do not compile the skeleton with the port")
    p.add_argument("--conventions", action="store_true", help="also print the conventions learned from the port")
    p.add_argument("--show", action="store_true", help="print the generated C# text")
    add_pair(p)
    register_tests(sub)


def run_skeleton(args: argparse.Namespace, config: AgentConfig) -> int:
    from repotrans.skeleton.create import create_skeleton

    index = pair_index(args)
    result = create_skeleton(index, args.types, check=not args.no_check, dry_run=args.dry_run,
                             overrides=config.mapping, settings=config.execution.build_settings())
    if args.conventions and result.plan.conventions is not None:
        print(result.plan.conventions.render())
    print(result.render())
    if args.show:
        for f in result.plan.files:
            print(f"// ---- {f.path}\n{f.text}")
    return 0 if result.check is None or result.check.compiled else 1


def register_tests(sub) -> None:
    p = add_command(sub, "translate-tests", "translate JUnit tests into NUnit fixtures in the port's test project",
                    run_translate_tests)
    p.add_argument("--junit", required=True, help="the Java test sources (e.g. core/src/test/java)")
    p.add_argument("--tests", action="append", required=True, metavar="GLOB",
                   help="JUnit classes by qualified name, e.g. 'org.acme.geo.*Test' (repeatable)")
    p.add_argument("--dry-run", action="store_true", help="show what it would write, write nothing")
    p.add_argument("--show", action="store_true", help="print the generated C# text")
    add_pair(p)
    add_settings(p, *MODEL)


def run_translate_tests(args: argparse.Namespace, config: AgentConfig) -> int:
    from repotrans.junit.port_tests import port_junit_tests
    from repotrans.mapping.load import load_mapping

    index = pair_index(args)
    client = None
    from repotrans.agents.providers import provider

    if not provider(config.model.name).deterministic and not args.dry_run:
        from repotrans.agents.models import make_client

        client = make_client(config)
    result = port_junit_tests(index, load_mapping(index, config.mapping), Path(args.junit), args.tests,
                              write=not args.dry_run, settings=config.execution.build_settings(),
                              client=client, rounds=config.agents.max_repair_rounds,
                              templates=config.prompts.folder)
    print(result.render())
    if args.show:
        for t in result.tests:
            print(f"// ---- {t.path}\n{t.text}")
    return 0
