"""`index`, `mapping`, `tool`, `retrieve`: build the index and look at what the agents would see."""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from repotrans.cli.options import (RETRIEVAL, add_command, add_old_name, add_pair, add_quiet, add_settings, at_least,
                                  with_java_tests)
from repotrans.cli.indexing import indexed_pair, pair_index
from repotrans.cli.output import print_json
from repotrans.errors import InputError, RepotransError
from repotrans.shipped import shipped_folder

if TYPE_CHECKING:
    from repotrans.agents.config import AgentConfig


def register(sub) -> None:
    p = add_command(sub, "index", "index a Java source repo and a C# target repo", run_index)
    p.add_argument("--source", required=True, help="Java repository")
    p.add_argument("--target", required=True, help="C# repository")
    add_quiet(p)

    p = add_command(sub, "tool", "run one context tool and print what the agent would get", run_tool)
    p.add_argument("name", help="one of the five tools: " + ", ".join(sorted(p.stem for p in shipped_folder("tools").glob("*.json"))))
    p.add_argument("args", nargs="?", default="{}", help="JSON object of arguments")
    p.add_argument("--function", help="the function under translation (C# or Java signature)")

    p = add_command(sub, "mapping", "show the package -> namespace map and alignment counts", run_mapping)
    p.add_argument("--verbose", action="store_true", help="list every type and method pair")
    p.add_argument("--format", choices=["text", "jsonl"], default="text",
                   help="jsonl: one record per namespace, type and member match or miss, with evidence")
    p.add_argument("--api", action="store_true",
                   help="the learned API map instead: how the port writes Java calls (counts, examples, conflicts); "
                        "with --format jsonl one record per correspondence")
    p.add_argument("--top", type=at_least(1), default=20, help="--api: correspondences and conflicts shown (default 20)")
    p.add_argument("--junit", metavar="DIR", help="the Java test sources when the layout does not show them "
                   "(test code is never library code: left out of the mapping's misses)")
    add_pair(p)

    p = add_command(sub, "retrieve", "similar aligned pairs and close target names for one function (JSON)",
                    run_retrieve)
    p.add_argument("--function", help="the function under translation (C# or Java signature)")
    p.add_argument("--k", type=at_least(1), default=5, help="candidates per store (default 5)")
    p.add_argument("--rebuild", action="store_true",
                   help="rebuild the stores (e.g. after changing --embedding-model)")
    p.add_argument("--exclude", action="append", default=[], metavar="METHOD_ID",
                   help="evaluation mode: build the stores without this method id (repeatable)")
    p.add_argument("--exclude-file", help="evaluation mode: file of method ids to leave out, one per line")
    p.add_argument("--embedding-model", dest="model", metavar="NAME_OR_FOLDER",
                   help="embedding model (name or local folder; default: [retrieval] embedding_model)")
    add_old_name(p, "--model", "--embedding-model", "model")
    add_settings(p, "no-cache", *RETRIEVAL)
    add_quiet(p)


def run_index(args: argparse.Namespace, config: AgentConfig) -> int:
    indexed_pair(args, show_summary=True).close()
    return 0


def run_tool(args: argparse.Namespace, config: AgentConfig) -> int:
    from repotrans.tools import ToolContext, run_tool as call

    try:
        tool_args = json.loads(args.args)
    except json.JSONDecodeError as exc:
        raise RepotransError(f"tool arguments are not JSON: {exc}") from exc
    ctx = ToolContext.from_workdir(Path(args.workdir), function=args.function, overrides=config.mapping)
    result = call(ctx, args.name, tool_args)
    print_json(result)
    return 1 if "error" in result else 0


def run_mapping(args: argparse.Namespace, config: AgentConfig) -> int:
    from repotrans.mapping.load import load_mapping
    from repotrans.mapping.mapping_export import records

    index = pair_index(args)
    mapping = load_mapping(index, with_java_tests(config, args.junit).mapping)
    if args.api:
        from repotrans.mapping.api_cache import load_api_map
        api = load_api_map(index, mapping)
        if args.format == "jsonl":
            for key, template, count, seen in api.correspondences():
                print(json.dumps({"java": key, "cs": template, "count": count, "mapped_callee": seen[0].key in api.mapped,
                                  "example": [seen[0].java, seen[0].cs], "pair": [seen[0].source_id, seen[0].target_id]},
                                 ensure_ascii=False))
        else:
            print(api.render(top=args.top))
        return 0
    if args.format == "jsonl":
        for rec in records(mapping, index):
            print(json.dumps(rec, ensure_ascii=False))
    else:
        print(mapping.render(verbose=args.verbose))
    return 0


def run_retrieve(args: argparse.Namespace, config: AgentConfig) -> int:
    from repotrans.mapping.task import resolve_task
    from repotrans.retrieval.encoders import make_encoder
    from repotrans.retrieval.retriever import Retriever

    if not args.function and not args.rebuild:
        raise InputError("give --function SIG to retrieve for, or --rebuild to rebuild the stores")
    exclude = list(args.exclude)
    if args.exclude_file:
        try:
            exclude += [line.strip() for line in Path(args.exclude_file).read_text().splitlines() if line.strip()]
        except OSError as exc:
            raise InputError(f"cannot read --exclude-file: {exc.strerror}: {args.exclude_file}") from exc
    rc, cache_dir = config.retrieval, config.cache.embedding_folder()
    encoder = make_encoder(args.model or rc.embedding_model, rc.backend, threads=rc.threads, cache_dir=cache_dir)
    retriever = Retriever.open(Path(args.workdir), overrides=config.mapping, exclude_ids=exclude, encoder=encoder,
                               cache_dir=cache_dir,
                               rebuild=args.rebuild, progress=not args.quiet, pool=rc.pool)
    if not args.function:
        print(retriever.summary())
        return 0
    task = resolve_task(retriever.index, retriever.mapping, args.function)
    print_json(retriever.retrieve(task.source_method_id, args.k).to_json())
    return 0
