"""`init`: start porting your own library: a commented repotrans.toml for a Java/C# pair, then doctor."""
from __future__ import annotations

import argparse
import os
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING


from repotrans.cli.options import add_command
from repotrans.errors import ConfigError

if TYPE_CHECKING:
    from repotrans.agents.config import AgentConfig

def register(sub) -> None:
    p = add_command(sub, "init", "write a commented repotrans.toml for a Java repository and its partial C# port, "
                                 "then check this machine (doctor)", run_init)
    p.add_argument("--source", required=True, help="the Java repository")
    p.add_argument("--target", required=True, help="the C# repository: a partial port, or a skeleton of signatures")
    p.add_argument("--model", default="builtin", help="model name (default: builtin, the offline policy)")
    p.add_argument("--base-url", help="OpenAI-compatible endpoint of the model, e.g. http://localhost:11434/v1")
    p.add_argument("--toolchain", choices=("mono", "dotnet"), default="mono", help="C# toolchain (default mono)")
    p.add_argument("--sandbox", choices=("auto", "docker", "local"), default="auto",
                   help="where test runs execute (default auto: docker when an engine answers)")
    p.add_argument("--out", default="repotrans.toml", help="the file to write (default ./repotrans.toml)")
    p.add_argument("--force", action="store_true", help="overwrite an existing file")
    p.add_argument("--no-doctor", action="store_true", help="only write the file")
    p.add_argument("--write-project", action="store_true",
                   help="a port of .cs files only: also write a minimal SDK-style project for its library and one for "
                        "its NUnit tests into --target (mono and dotnet read them; the files are listed)")


def render_config(source: str, target: str, model: str, base_url: str | None, toolchain: str, sandbox: str) -> str:
    text = (resources.files("repotrans.cli") / "templates" / "repotrans.toml.j2").read_text(encoding="utf-8")
    import jinja2

    env = jinja2.Environment(undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True)
    from repotrans.agents.timeouts import TIMEOUT_DEFAULT

    return env.from_string(text).render(source=source, target=target, model=model, base_url=base_url,
                                        toolchain=toolchain, sandbox=sandbox, timeout_default=TIMEOUT_DEFAULT)


def run_init(args: argparse.Namespace, _: AgentConfig) -> int:
    """Write the file, then check the machine with the configuration it gives (and this environment)."""
    from repotrans.agents.config import load_config
    from repotrans.doctor import SECTIONS, exit_line, model_section, report

    for name in ("source", "target"):
        if not Path(getattr(args, name)).is_dir():
            raise ConfigError(f"--{name}: no such folder: {getattr(args, name)}")
    out = Path(args.out)
    if out.exists() and not args.force:
        raise ConfigError(f"{out} exists; pass --force to overwrite it, or --out FILE to write another")
    if args.write_project:
        from repotrans.skeleton.project_files import plan_projects, write_projects

        plan = plan_projects(Path(args.target))
        for path in write_projects(Path(args.target), plan):
            print(f"wrote {path}")
        print(plan.render())
    out.write_text(render_config(args.source, args.target, args.model, args.base_url, args.toolchain,
                                 args.sandbox), encoding="utf-8")
    print(f"wrote {out}")
    if args.no_doctor:
        return 0
    config = load_config(out, env=os.environ, resolve=False)
    text, healthy = report(config, SECTIONS + [model_section])
    print(text)
    from repotrans.execution.judge.build_report import build_section, render

    title, lines = build_section(Path(args.target), config.execution, workdir=Path(args.workdir), run_tests=False)
    print(render(title, lines))
    healthy &= all(ok is not False for ok, _ in lines)
    print(f"next: repotrans batch --source {args.source} --target {args.target} --dry-run"
          + ("" if out.name == "repotrans.toml" and out.parent == Path(".") else f" --config {out}"))
    if not healthy:
        print(exit_line(text + "\n" + render(title, lines)))
    return 0 if healthy else 1
