"""repotrans command line: one subcommand per job, each a thin call into the pipeline.

Every handler returns an exit code; a RepotransError becomes one line on stderr and exit code 2.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from repotrans.errors import RepotransError


def _print_json(obj) -> None:
    print(json.dumps(obj, indent=2, ensure_ascii=False))


def cmd_index(args: argparse.Namespace) -> int:
    from repotrans.index.store import Index

    index = Index.open(Path(args.workdir))
    summary = index.build(Path(args.source), Path(args.target), progress=not args.quiet)
    print(summary.render())
    return 0


def cmd_tool(args: argparse.Namespace) -> int:
    from repotrans.tools import ToolContext, run_tool

    try:
        tool_args = json.loads(args.args)
    except json.JSONDecodeError as exc:
        raise RepotransError(f"tool arguments are not JSON: {exc}") from exc
    ctx = ToolContext.from_workdir(Path(args.workdir), function=args.function)
    _print_json(run_tool(ctx, args.name, tool_args))
    return 0


def cmd_mapping(args: argparse.Namespace) -> int:
    from repotrans.index.mapping import load_mapping
    from repotrans.index.store import Index

    mapping = load_mapping(Index.open(Path(args.workdir), must_exist=True))
    print(mapping.render(verbose=args.verbose))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="repotrans", description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", default=".repotrans", help="workspace folder (index, stores, caches)")
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
    p.set_defaults(func=cmd_mapping)

    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except RepotransError as exc:
        print(f"repotrans: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("repotrans: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
