"""The `repotrans` parser and entry point: one subcommand per job, each a thin call into the pipeline.

Every handler returns an exit code; a RepotransError becomes one line on stderr and exit code 2.
"""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from repotrans.cli import execution, experiments, index, skeleton, translate
from repotrans.cli.options import add_global_options
from repotrans.errors import RepotransError

COMMAND_GROUPS = (index, skeleton, translate, experiments, execution)
DESCRIPTION = "repotrans command line: one subcommand per job, each a thin call into the pipeline."


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="repotrans", description=DESCRIPTION)
    add_global_options(parser)
    sub = parser.add_subparsers(dest="command", required=True)
    for group in COMMAND_GROUPS:
        group.register(sub)
    return parser


def _set_build_options(args: argparse.Namespace) -> None:
    """--framework/--packages/--project-path reach every build through the environment (workers too)."""
    from repotrans.execution.toolchains.projects import ENV_FRAMEWORK, ENV_PACKAGES, ENV_PROJECT_PATH

    if getattr(args, "framework", None):
        os.environ[ENV_FRAMEWORK] = args.framework
    for name, env in (("packages", ENV_PACKAGES), ("project_path", ENV_PROJECT_PATH)):
        values = getattr(args, name, None) or []
        for value in values:
            if not Path(value).is_dir():
                raise RepotransError(f"--{name.replace('_', '-')}: {value} is not a folder")
        if values:
            os.environ[env] = os.pathsep.join(str(Path(v).resolve()) for v in values)


@contextmanager
def _overrides_env(args: argparse.Namespace) -> Iterator[None]:
    """Name the mapping overrides (--mapping, and --config's [mapping]) for every load_mapping of this
    command, including its subprocesses."""
    from repotrans.mapping.overrides import CONFIG_ENV, ENV

    wanted = {ENV: getattr(args, "mapping", None), CONFIG_ENV: getattr(args, "config", None)}
    saved = {k: os.environ.get(k) for k in wanted}
    for key, value in wanted.items():
        if value:
            os.environ[key] = str(Path(value).resolve())
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def main(argv: list[str] | None = None) -> int:
    import repotrans.policy.builtin  # noqa: F401  (registers --model builtin with the model clients)

    args = build_parser().parse_args(argv)
    try:
        if Path(args.workdir).exists() and not Path(args.workdir).is_dir():
            raise RepotransError(f"--workdir: {args.workdir} is a file, not a folder")
        _set_build_options(args)
        with _overrides_env(args):
            return args.func(args)
    except RepotransError as exc:
        from repotrans.redact import redact
        print(f"repotrans: error: {redact(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("repotrans: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:                      # output piped into `head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
