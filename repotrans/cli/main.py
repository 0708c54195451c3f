"""The `repotrans` parser and entry point: one subcommand per job, each a thin call into the pipeline.

The configuration is built here once per command (cli.options.load_settings: file < environment <
flags) and handed to the handler with the parsed arguments; no layer below reads the environment
(except the API key, by agents.config.api_key, and HF_HUB_OFFLINE for the embedding model).
Every handler returns an exit code; a RepotransError becomes one line on stderr and exit code 2.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from repotrans.cli import execution, experiments, index, setup, skeleton, sync, translate
from repotrans.cli.options import add_global_options, load_settings
from repotrans.errors import RepotransError

COMMAND_GROUPS = (setup, index, skeleton, translate, experiments, sync, execution)
DESCRIPTION = "repotrans command line: one subcommand per job, each a thin call into the pipeline."


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="repotrans", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"repotrans {_version()}")
    add_global_options(parser)
    sub = parser.add_subparsers(dest="command", required=True)
    for group in COMMAND_GROUPS:
        group.register(sub)
    return parser


def _show_model_retries() -> None:
    """Retries of a model request are said on stderr while they wait (agents.openai_client logs them)."""
    import logging

    log = logging.getLogger("repotrans.model")
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("repotrans: %(message)s"))
        log.addHandler(handler)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("repotrans")
    except PackageNotFoundError:          # a source checkout that was never installed
        return "(not installed)"


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    _show_model_retries()
    try:
        if Path(args.workdir).exists() and not Path(args.workdir).is_dir():
            raise RepotransError(f"--workdir: {args.workdir} is a file, not a folder")
        return args.func(args, load_settings(args, os.environ, os.cpu_count() or 1))
    except RepotransError as exc:
        from repotrans.redact import redact
        print(f"repotrans: error: {redact(str(exc))}", file=sys.stderr)
        return getattr(exc, "exit_code", 2)
    except KeyboardInterrupt:
        print("repotrans: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:                      # output piped into `head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
