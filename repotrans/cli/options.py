"""Options shared by several commands, declared once.

Global options (--workdir, --config, --mapping, the build settings) are accepted before or after the
subcommand. Options that set a configuration value (--model, --toolchain, --timeout, ...) are
declared here next to the setting they fill (`SETTINGS`); a command names the ones it takes.
`load_settings` builds the configuration once for every command (file < environment < flags, with
the build settings and the mapping overrides): a flag left out falls back to the configuration,
never to a default of the command's own. This is the one place that reads the process environment
and the working directory's repotrans.toml; everything below receives the value.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from repotrans.agents.timeouts import TIMEOUT_DEFAULT
from repotrans.execution.sandboxes import SANDBOXES
from repotrans.execution.settings import SCOPES
from repotrans.execution.toolchain_registry import TOOLCHAINS

Handler = Callable[[argparse.Namespace, Any], int]       # (arguments, the AgentConfig) -> exit code
DEFAULT_FILE = Path("repotrans.toml")


@dataclass(frozen=True)
class Setting:
    """A flag that sets configuration value `section.key`."""
    flag: str
    section: str
    key: str
    help: str
    type: Callable[[str], Any] | None = None
    choices: Sequence[str] | None = None
    store: Any = None              # a constant the flag stores (--no-cache: False)
    switch: bool = False           # --x / --no-x
    also: tuple[tuple[str, str], ...] = ()     # more (section, key) the flag sets to the same value

    @property
    def dest(self) -> str:
        return f"{self.section}.{self.key}"

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        if self.switch:
            parser.add_argument(self.flag, dest=self.dest, action=argparse.BooleanOptionalAction, default=None,
                                help=self.help)
        elif self.store is not None:
            parser.add_argument(self.flag, dest=self.dest, action="store_const", const=self.store, default=None,
                                help=self.help)
        else:
            metavar = None if self.choices else self.flag.lstrip("-").upper().replace("-", "_")
            parser.add_argument(self.flag, dest=self.dest, type=self.type, choices=self.choices, default=None,
                                metavar=metavar, help=self.help)


def _folder(text: str) -> str:
    return str(Path(text).expanduser().resolve())


_SETTINGS = [
    Setting("--model", "model", "name", "model name ('builtin' = offline policy); else REPOTRANS_MODEL / "
                                        "repotrans.toml"),
    Setting("--base-url", "model", "base_url", "OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 "
                                               "for Ollama"),
    Setting("--model-timeout", "model", "timeout", "seconds one model request may take: connect, first byte and the "
                                                   f"whole answer (default: {TIMEOUT_DEFAULT}; [model] timeout)",
            type=float),
    Setting("--no-cache", "model", "cache", "use neither the response cache nor the embedding cache (both in "
                                            "the user cache folder)", store=False, also=(("cache", "embeddings"),)),
    Setting("--embedding-backend", "retrieval", "backend", "how the retrieval stores' embeddings are computed "
            "(the same model on ONNX Runtime, its int8 quantisation, or torch: the original path)",
            choices=("onnx", "onnx-int8", "torch")),
    Setting("--embedding-threads", "retrieval", "threads", "threads computing embeddings (0: the library's default)",
            type=int),
    Setting("--dense-pool", "retrieval", "pool", "the dense route ranks and embeds only the BM25 route's best N "
            "snippets of each query (0: embed the whole store first)", type=int),
    Setting("--templates", "prompts", "dir", "a folder of your own prompt templates (<name>.md.j2, any of "
            "prompt_templates/): each replaces the shipped one of its name ([prompts] dir)", type=_folder),
    Setting("--toolchain", "execution", "toolchain", "C# toolchain for the test runs", choices=TOOLCHAINS),
    Setting("--sandbox", "execution", "sandbox", "where test runs execute (auto: docker when an engine answers)",
            choices=SANDBOXES),
    Setting("--scope", "execution", "scope", "tests that mention the method's class (covering) or the whole "
                                             "test project (all)", choices=SCOPES),
    Setting("--timeout", "execution", "timeout", "seconds for the test run", type=float),
    Setting("--test-processes", "execution", "test_processes", "test processes one candidate's covering tests may "
            "run at once, the verdict the same (default 0: one per core --jobs leaves idle)", type=int),
    Setting("--memory-mb", "execution", "memory_mb", "memory limit of a test run (MB)", type=int),
    Setting("--batch-candidates", "execution", "batch_candidates", "candidates pending at the same time share "
            "one compile, each behind its own switch, where that gives the per-candidate verdict (mono; "
            "--jobs > 1 for concurrent tasks; re-judging and the combined check share too)", switch=True),
    Setting("--max-context-iterations", "agents", "max_context_iterations",
            "tool calls the context agent may make", type=int),
    Setting("--max-repair-rounds", "agents", "max_repair_rounds", "reflect/repair rounds after the first candidate",
            type=int),
] + [Setting(f"--{flag}", "agents", key, f"ablation switch: {what}", switch=True)
     for flag, key, what in (("rag", "rag", "retrieval of similar pairs"), ("context", "context", "the context agent"),
                             ("refine", "refine", "test-driven repair"), ("reflection", "reflection", "reflection"),
                             ("dynamic-prompt", "dynamic_prompt", "dynamic prompts (off: one static prompt)"),
                             ("api-map", "api_map", "the port's learned API map (mapping --api)"))]
SETTINGS: dict[str, Setting] = {s.flag.lstrip("-"): s for s in _SETTINGS}

MODEL = ("model", "base-url", "model-timeout", "templates")
RETRIEVAL = ("embedding-backend", "embedding-threads", "dense-pool")
EXECUTION = ("toolchain", "sandbox", "test-processes")
SWITCHES = ("rag", "context", "refine", "reflection", "dynamic-prompt", "api-map", "max-context-iterations",
            "max-repair-rounds")


def add_settings(parser: argparse.ArgumentParser, *names: str, config_file: bool = True) -> None:
    """The named SETTINGS flags (--config, the file they overlay, is a global option)."""
    for name in names:
        SETTINGS[name].add_to(parser)


def given_settings(args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """{"section": {"key": value}} of the setting flags this command took (None where not given)."""
    out: dict[str, dict[str, Any]] = {}
    for setting in SETTINGS.values():
        if setting.dest in vars(args):
            for section, key in ((setting.section, setting.key), *setting.also):
                out.setdefault(section, {})[key] = vars(args)[setting.dest]
    return out


def load_settings(args: argparse.Namespace, env: Mapping[str, str], cores: int = 1):
    """The configuration, built once per command: defaults < file (--config, else ./repotrans.toml
    when present) < `env` < flags, with the mapping overrides of the file and of --mapping; not yet
    resolved (`auto` stays; agents.config.with_concrete_sandbox makes it concrete), but for the test
    processes a candidate may use (0: `cores` shared by the command's --jobs, resolve_test_processes)."""
    from repotrans.agents.config import load_config

    config_file = getattr(args, "config", None)
    path = Path(config_file) if config_file else DEFAULT_FILE if DEFAULT_FILE.is_file() else None
    given = given_settings(args)
    build = {"framework": args.framework, "packages": _folders(args.packages),
             "project_paths": _folders(args.project_path)}
    given["execution"] = {**given.get("execution", {}), **build}
    config = load_config(path, cli=given, env=env, resolve=False,
                         mapping_file=Path(args.mapping).resolve() if args.mapping else None)
    if getattr(args, "known_failures", None):
        from dataclasses import replace
        from repotrans.execution.toolchains.api import read_known_failures

        known = read_known_failures(Path(args.known_failures))
        config = replace(config, execution=replace(config.execution, known_failures=known))
    return resolve_test_processes(config, cores, getattr(args, "jobs", 1) or 1)


def resolve_test_processes(config, cores: int, jobs: int):
    """The configuration with execution.test_processes 0 made concrete: the cores left to each of `jobs`
    candidates judged at once (at least one)."""
    from dataclasses import replace

    if config.execution.test_processes:
        return config
    return replace(config, execution=replace(config.execution, test_processes=max(1, cores // max(1, jobs))))


def with_java_tests(config, folder: str | None):
    """The configuration with `folder` (`--junit DIR`) known to the mapping as Java test code."""
    if not folder:
        return config
    from dataclasses import replace
    from repotrans.errors import ConfigError
    from repotrans.mapping.overrides import MappingOverrides

    if not Path(folder).is_dir():
        raise ConfigError(f"--junit: {folder} is not a folder (give the Java test sources, e.g. src/test/java)")
    tests = MappingOverrides(java_tests=(str(Path(folder).expanduser().resolve()),), origin="--junit")
    return replace(config, mapping=config.mapping.merged(tests))


def _folders(values: list[str] | None) -> tuple[str, ...] | None:
    return tuple(str(Path(v).expanduser().resolve()) for v in values) if values else None


def add_global_options(parser: argparse.ArgumentParser, *, after_command: bool = False) -> None:
    """--workdir, --config, --mapping and the build settings. After a subcommand's name their default is
    SUPPRESS, so a value given before the subcommand is kept."""
    def default(value: Any) -> Any:
        return argparse.SUPPRESS if after_command else value

    parser.add_argument("--workdir", default=default(".repotrans"), help="workspace folder (index, stores, caches)")
    parser.add_argument("--config", metavar="FILE", default=default(None),
                        help="configuration file (default: ./repotrans.toml if present)")
    parser.add_argument("--mapping", metavar="FILE", default=default(None),
                        help="mapping overrides (TOML [mapping] or an edited `mapping --format jsonl` export)")
    parser.add_argument("--framework", default=default(None), type=framework,
                        help="target framework to build multi-targeting projects for (e.g. net48)")
    parser.add_argument("--packages", action="append", metavar="DIR", default=default(None),
                        help="local NuGet packages folder for PackageReferences (repeatable)")
    parser.add_argument("--project-path", action="append", metavar="DIR", default=default(None),
                        help="folder with projects that stand in for PackageReferences by id (repeatable)")
    parser.add_argument("--known-failures", metavar="FILE", default=default(None),
                        help="tests known to fail on the untouched port, left out of verdicts when they fail (one "
                             "'Project:Ns.Fixture.Test<TAB>why' a line; `dataset mask` writes OUT/known-failures.tsv)")


def add_command(sub, name: str, help: str, handler: Handler, epilog: str | None = None) -> argparse.ArgumentParser:
    """A subcommand that also takes the global options after its name; its help line is also its
    description, `epilog` (examples) is shown as written."""
    from repotrans.cli.examples import epilog as example

    full = f"{sub._prog_prefix.split(' ', 1)[1]} {name}" if " " in sub._prog_prefix else name
    parser = sub.add_parser(name, help=help, description=help[0].upper() + help[1:] + ".",
                            epilog=epilog or example(full), formatter_class=argparse.RawDescriptionHelpFormatter)
    add_global_options(parser, after_command=True)
    parser.set_defaults(func=handler)
    return parser


class _OldName(argparse.Action):
    """Stores like the option it stands for, and says once on stderr that the name is old."""

    def __init__(self, option_strings, dest, new: str = "", **kwargs):
        self.new = new
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        sys.stderr.write(f"repotrans: {option_string} is an old name and will go: use {self.new}\n")
        setattr(namespace, self.dest, values)


def add_old_name(parser: argparse.ArgumentParser, old: str, new: str, dest: str) -> None:
    """Accept `old` for option `new` (dest `dest`), with a deprecation line when it is used."""
    parser.add_argument(old, dest=dest, action=_OldName, new=new, help=argparse.SUPPRESS)


def add_quiet(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def add_jobs(parser: argparse.ArgumentParser, what: str = "tasks run") -> None:
    parser.add_argument("--jobs", type=at_least(1), default=1, help=f"{what} at the same time (default 1)")


def at_least(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number >= `low`, with a message saying so."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        return value
    parse.__name__ = "number"
    return parse


# .NET target frameworks a project may be built for (--framework); anything else is a typo.
KNOWN_FRAMEWORKS = ("net20", "net35", "net40", "net403", "net45", "net451", "net452", "net46", "net461", "net462",
                    "net47", "net471", "net472", "net48", "net481", *(f"netstandard1.{n}" for n in range(7)),
                    "netstandard2.0", "netstandard2.1", "netcoreapp1.0", "netcoreapp1.1", "netcoreapp2.0",
                    "netcoreapp2.1", "netcoreapp2.2", "netcoreapp3.0", "netcoreapp3.1",
                    *(f"net{n}.0" for n in range(5, 11)))


def framework(text: str) -> str:
    """An argparse type: a known target framework moniker (an OS suffix such as -windows is kept)."""
    if text.lower().split("-", 1)[0] not in KNOWN_FRAMEWORKS:
        raise argparse.ArgumentTypeError(f"unknown target framework {text!r}; known: {', '.join(KNOWN_FRAMEWORKS)}")
    return text


def add_pair(parser: argparse.ArgumentParser) -> None:
    """--source/--target for a command that reads the index: given, the pair is indexed (incrementally)
    in --workdir first, as `index` would; left out, the index already there is used."""
    parser.add_argument("--source", help="Java repository (with --target: (re)index the pair first)")
    parser.add_argument("--target", help="C# repository (with --source: (re)index the pair first)")
