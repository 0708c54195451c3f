"""The run's configuration as one value: model endpoint, ablation switches, execution settings (with
the build's), the user's prompt templates, and the mapping overrides.

`load_config` builds it, low to high: defaults < the file it is given < the environment it is given
< CLI flags; only the CLI calls it with the process environment and ./repotrans.toml, so every layer
below receives settings as values (a Ray worker too: the value travels with each task).
Environment: REPOTRANS_MODEL; REPOTRANS_BASE_URL, else OPENAI_BASE_URL. The API key is read only
from the environment (REPOTRANS_API_KEY, then OPENAI_API_KEY), by api_key().
"""
from __future__ import annotations

import difflib
import os
import tomllib
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Mapping

from repotrans.errors import ConfigError
from repotrans.execution.settings import ExecutionConfig
from repotrans.mapping.overrides import MappingOverrides, read_file
from repotrans.prompts.settings import PromptSettings
from repotrans.redact import API_KEY_VARS
from repotrans.retrieval.settings import RetrievalConfig

# Environment variables of [model] values, the first set wins (OPENAI_BASE_URL as the openai SDK reads it).
ENV_VARS = {"name": ("REPOTRANS_MODEL",), "base_url": ("REPOTRANS_BASE_URL", "OPENAI_BASE_URL")}
CACHE_ENV = "REPOTRANS_CACHE_DIR"
NUGET_ENV = "NUGET_PACKAGES"


@dataclass
class ModelConfig:
    name: str | None = None               # "gpt-4o-mini", "deepseek-chat", "qwen2.5-coder:7b", "builtin"
    base_url: str | None = None           # any OpenAI-compatible endpoint
    temperature: float = 0.0
    max_tokens: int = 2048
    seed: int | None = 0
    timeout: float | None = None          # seconds per request; None: scaled to max_tokens and the measured speed
    max_retries: int = 2                  # 429, 5xx and refused connections (never a timed-out request)
    context_window: int | None = None     # tokens; None: as the server says (llama.cpp, Ollama, vLLM), else 8192
    family: str = "unknown"               # "r1" for reasoning models; model_info for models autogen does not know
    function_calling: bool = False        # send the tools as OpenAI `tools` (also switched on when tool_calls come back)
    json_output: bool = False             # send response_format json_object for JSON steps
    cache: bool = True                    # SQLite response cache shared by runs (only the answers: the
                                          # embedding cache is [cache] embeddings; --no-cache turns off both)
    cache_dir: str | None = None          # its folder (load_config: [cache] root, see CacheSettings;
                                          # None: no response cache)
    price_prompt: float | None = None     # currency per 1M prompt tokens
    price_completion: float | None = None # currency per 1M completion tokens


@dataclass
class AgentSwitches:
    rag: bool = True
    context: bool = True
    refine: bool = True
    reflection: bool = True
    dynamic_prompt: bool = True
    api_map: bool = True                  # the port's learned API map: the builtin's first choice, a prompt slot
    max_context_iterations: int = 8
    max_repair_rounds: int = 3
    rag_k: int = 5


@dataclass
class TaskSelection:
    """Which placeholder bodies are tasks (`[tasks]`)."""
    # `{ }`, `return default;`, `return;`, `return null;` / `false` / `0` are tasks even where the Java method
    # does no more (by default only where it does: such a body is often complete as written)
    weak_placeholders: bool = False


@dataclass
class CacheSettings:
    """The per-machine cache folder the layers share (`[cache]`), owned here where they are composed:
    the model's response cache and server windows (`[model] cache_dir`, which follows `root` unless set)
    and the retrieval layer's embeddings, ONNX exports and prepared stores."""
    root: str | None = None               # load_config: [model] cache_dir if set, else $REPOTRANS_CACHE_DIR, else
                                          # $XDG_CACHE_HOME/repotrans, else ~/.cache/repotrans; None: nothing on disk
    embeddings: bool = True               # embeddings, exports and stores under `root` (--no-cache turns it off
                                          # with the response cache; off: kept in memory for one process)

    def embedding_folder(self) -> Path | None:
        """The folder the retrieval layer keeps its per-machine caches in; None: in memory only."""
        return Path(self.root) if self.embeddings and self.root else None


@dataclass
class AgentConfig:
    model: ModelConfig = field(default_factory=ModelConfig)
    agents: AgentSwitches = field(default_factory=AgentSwitches)
    execution: ExecutionConfig = field(default_factory=ExecutionConfig)
    retrieval: RetrievalConfig = field(default_factory=RetrievalConfig)
    prompts: PromptSettings = field(default_factory=PromptSettings)
    mapping: MappingOverrides = field(default_factory=MappingOverrides)   # [mapping] of the file, then --mapping
    tasks: TaskSelection = field(default_factory=TaskSelection)
    cache: CacheSettings = field(default_factory=CacheSettings)

    def to_json(self) -> dict:
        return asdict(self)

    def overlay(self, overrides: dict[str, dict[str, Any]]) -> AgentConfig:
        """A copy with {"section": {"key": value}} applied (unknown keys are a ConfigError)."""
        out = self
        for section, values in overrides.items():
            if section not in SECTIONS:
                raise ConfigError(f"unknown configuration section [{section}]", did_you_mean=list(SECTIONS))
            current = getattr(out, section)
            known = {f.name: f for f in fields(current)}
            clean = {}
            for key, value in values.items():
                if key not in known:
                    raise ConfigError(f"unknown setting {section}.{key}",
                                      did_you_mean=difflib.get_close_matches(key, known, n=3) or sorted(known))
                if value is not None:
                    clean[key] = _coerce(section, key, value, known[key].type)
            out = replace(out, **{section: replace(current, **clean)})
        return out


SECTIONS = ("model", "agents", "execution", "retrieval", "prompts", "tasks", "cache")
OTHER_SECTIONS = ("mapping",)          # read by repotrans.mapping.overrides (mapping corrections)


def _coerce(section: str, key: str, value: Any, type_name: Any) -> Any:
    text = str(type_name)
    try:
        if text.startswith("tuple"):
            return (str(value),) if isinstance(value, (str, Path)) else tuple(str(v) for v in value)
        if text.startswith("bool"):
            if isinstance(value, str):
                if value.lower() in ("1", "true", "yes", "on"):
                    return True
                if value.lower() in ("0", "false", "no", "off"):
                    return False
                raise ValueError(value)
            return bool(value)
        if text.startswith("int"):
            return int(value)
        if text.startswith("float"):
            return float(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{section}.{key}: {value!r} is not a {text.split(' ')[0]}") from None
    return value


def api_key() -> str | None:
    """The API key, from the environment only."""
    for var in API_KEY_VARS:
        if os.environ.get(var):
            return os.environ[var]
    return None


def load_config(path: Path | None = None, cli: dict[str, dict[str, Any]] | None = None,
                env: Mapping[str, str] | None = None, resolve: bool = True,
                mapping_file: Path | None = None) -> AgentConfig:
    """Defaults < the TOML file `path` (its [mapping] too) < `env` < `cli` < the overrides in
    `mapping_file`; execution values checked and (`resolve`) sandbox `auto` made concrete.
    Nothing is read that is not passed: no file without `path`, no variable without `env`."""
    env = {} if env is None else env
    config = AgentConfig()
    if path is not None and not path.is_file():
        raise ConfigError(f"configuration file not found: {path}")
    if path is not None:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: not valid TOML: {exc}") from None
        if "api_key" in data.get("model", {}):
            raise ConfigError(f"{path}: api_key does not belong in a file; set REPOTRANS_API_KEY")
        scalars = [k for k, v in data.items() if not isinstance(v, dict)]
        if scalars:
            raise ConfigError(f"{path}: {scalars[0]!r} is outside any section; put it under "
                              f"[{'] or ['.join(SECTIONS)}]")
        config = config.overlay({k: v for k, v in data.items() if k not in OTHER_SECTIONS})
        if config.prompts.dir:            # relative to the file that names it
            config = replace(config, prompts=PromptSettings(str((path.parent / config.prompts.dir).resolve())))
        if "mapping" in data:
            config = replace(config, mapping=read_file(path))
    config = config.overlay({"model": {k: next((env[v] for v in names if env.get(v)), None)
                                       for k, names in ENV_VARS.items()}})
    config = config.overlay(cli or {})
    if mapping_file is not None:
        config = replace(config, mapping=config.mapping.merged(read_file(mapping_file)))
    config = _from_environment(config, env)
    return with_concrete_sandbox(config) if resolve else _checked(config)


def _from_environment(config: AgentConfig, env: Mapping[str, str]) -> AgentConfig:
    """What the environment adds beside the [model] variables: the cache root ([cache] root, else a
    [model] cache_dir given, else $REPOTRANS_CACHE_DIR, else $XDG_CACHE_HOME/repotrans, else
    ~/.cache/repotrans), which the response cache's folder follows unless set, and the NuGet folder
    $NUGET_PACKAGES (when it is one) after the --packages folders."""
    model, ex, cache = config.model, config.execution, config.cache
    root = cache.root or model.cache_dir
    if root is None:
        root = env.get(CACHE_ENV) or (str(Path(env["XDG_CACHE_HOME"]) / "repotrans") if env.get("XDG_CACHE_HOME")
                                      else str(Path(env["HOME"]) / ".cache" / "repotrans") if env.get("HOME")
                                      else None)
    if model.cache_dir is None:
        model = replace(model, cache_dir=root)
    if env.get(NUGET_ENV) and Path(env[NUGET_ENV]).is_dir():
        ex = replace(ex, packages=tuple(dict.fromkeys([*ex.packages, env[NUGET_ENV]])))
    return replace(config, model=model, execution=ex, cache=replace(cache, root=root))


def _checked(config: AgentConfig) -> AgentConfig:
    config.execution.check()
    config.prompts.check()
    return config


def with_concrete_sandbox(config: AgentConfig) -> AgentConfig:
    """The configuration checked, with `auto` turned into the sandbox it stands for."""
    from repotrans.agents.providers import provider
    from repotrans.execution.settings import concrete_sandbox

    ex = _checked(config).execution
    sandbox = concrete_sandbox(ex.sandbox, provider(config.model.name).trusted, toolchain=ex.toolchain)
    return replace(config, execution=replace(ex, sandbox=sandbox))
