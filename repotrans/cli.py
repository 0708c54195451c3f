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


def cmd_retrieve(args: argparse.Namespace) -> int:
    from repotrans.errors import InputError
    from repotrans.index.task import resolve_task
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
