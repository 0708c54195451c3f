"""Model clients: providers by name (agents.providers: `--model builtin` is the offline translator, imported
on first use), any OpenAI-compatible endpoint otherwise, wrapped in the response cache."""
from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from autogen_core.models import ChatCompletionClient, ModelInfo

from repotrans.agents.config import API_KEY_VARS, AgentConfig, ModelConfig, api_key
from repotrans.agents.providers import provider
from repotrans.errors import ConfigError

if TYPE_CHECKING:
    from repotrans.agents.limits import CallLimiter
    from repotrans.agents.window import ServerBook
    from repotrans.tools.context import ToolContext

NO_MODEL = ("no model configured: pass --model NAME (and --base-url URL for a local or non-OpenAI server), "
            "or set REPOTRANS_MODEL / REPOTRANS_BASE_URL, or `name`/`base_url` under [model] in repotrans.toml; "
            "hosted APIs also need REPOTRANS_API_KEY (or OPENAI_API_KEY) in the environment; "
            "`--model builtin` runs the offline policy")

# A provider's client is built from the configuration and a read-only view of the repository (index and
# mapping, no task) for a client that looks things up itself (the builtin policy); never the agents' state.
ClientFactory = Callable[[AgentConfig, "ToolContext | None"], ChatCompletionClient]


def registered(name: str | None) -> ClientFactory | None:
    """The factory of provider `name` (None: not a registered provider, an HTTP endpoint's model)."""
    spec = provider(name).factory
    if spec is None:
        return None
    module, factory = spec.split(":")
    return getattr(importlib.import_module(module), factory)


def model_info(model: ModelConfig) -> ModelInfo:
    """autogen's own info for models it knows (OR-ed with what is declared); the configured capabilities otherwise."""
    from autogen_ext.models.openai._model_info import get_info

    try:
        info = dict(get_info(model.name or ""))
    except (KeyError, ValueError):
        return ModelInfo(vision=False, function_calling=model.function_calling, json_output=model.json_output,
                         family=model.family, structured_output=False)
    info["function_calling"] = bool(info.get("function_calling")) or model.function_calling
    info["json_output"] = bool(info.get("json_output")) or model.json_output
    if model.family != "unknown":
        info["family"] = model.family
    return ModelInfo(**info)  # type: ignore[typeddict-item]


def check_model(config: AgentConfig) -> None:
    """Fail early, saying exactly what to set, when no usable model is configured."""
    model = config.model
    if not model.name:
        raise ConfigError(NO_MODEL)
    if registered(model.name) is None and api_key() is None and model.base_url is None:
        raise ConfigError(f"model {model.name!r} on api.openai.com (no --base-url, REPOTRANS_BASE_URL or "
                          f"OPENAI_BASE_URL given) needs an API key: set {' or '.join(API_KEY_VARS)} in the "
                          "environment (or pass --base-url for a local server)")


def openai_client(model: ModelConfig, servers: "ServerBook | None" = None) -> ChatCompletionClient:
    """An HTTP client of `model`'s endpoint; its window and speed are `servers`' (the run's), else its own."""
    from repotrans.agents.openai_client import OpenAICompatibleClient

    limits = servers.limits_for(model) if servers is not None else None
    return OpenAICompatibleClient(model, model_info(model), api_key(), limits)


def make_client(config: AgentConfig, view: "ToolContext | None" = None, cache_path: Path | None = None,
                limiter: "CallLimiter | None" = None, servers: "ServerBook | None" = None) -> ChatCompletionClient:
    """The configured client; HTTP clients go through the response cache (at `cache_path`, else in
    `model.cache_dir`) unless `model.cache` is off or no cache folder is configured. A `limiter` (shared by the tasks of a run)
    caps calls in flight and pauses all of them after a 429; cached answers take no slot. `servers` (the
    run context's) shares what was learned about the server with the run's other clients."""
    from repotrans.agents.cache import ResponseCache, cache_folder, cache_namespace

    check_model(config)
    model = config.model
    factory = registered(model.name)
    if factory is not None:
        return factory(config, view)
    client = openai_client(model, servers)
    if limiter is not None:
        from repotrans.agents.limits import LimitedClient

        client = LimitedClient(client, limiter)
    folder = cache_folder(model)
    path = cache_path or (folder / "responses.sqlite" if folder is not None else None)
    if not model.cache or path is None:
        return client
    return ResponseCache(client, path, cache_namespace(model))
