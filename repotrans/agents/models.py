"""Model clients: any OpenAI-compatible endpoint, the offline builtin policy, and an SQLite response cache."""
from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from autogen_core import CacheStore
from autogen_core.models import ChatCompletionClient, CreateResult, ModelInfo

from repotrans.agents.config import API_KEY_VARS, AgentConfig, ModelConfig, api_key
from repotrans.errors import ConfigError

if TYPE_CHECKING:
    from repotrans.agents.limits import CallLimiter
    from repotrans.agents.state import TranslationState

NO_MODEL = ("no model configured: pass --model NAME (and --base-url URL for a local or non-OpenAI server), "
            "or set REPOTRANS_MODEL / REPOTRANS_BASE_URL, or `name`/`base_url` under [model] in repotrans.toml; "
            "hosted APIs also need REPOTRANS_API_KEY (or OPENAI_API_KEY) in the environment; "
            "`--model builtin` runs the offline policy")


class SqliteCacheStore(CacheStore[Any]):
    """Chat completion results in an SQLite file, namespaced by model and sampling settings."""

    def __init__(self, path: Path, namespace: str):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.namespace = namespace
        self._db = sqlite3.connect(str(path))
        self._db.execute("CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        self._db.commit()

    def _key(self, key: str) -> str:
        return f"{self.namespace}:{key}"

    def get(self, key: str, default: Optional[Any] = None) -> Optional[Any]:
        row = self._db.execute("SELECT value FROM responses WHERE key = ?", (self._key(key),)).fetchone()
        return json.loads(row[0]) if row else default

    def set(self, key: str, value: Any) -> None:
        if isinstance(value, list):
            data = [v.model_dump(mode="json") if isinstance(v, CreateResult) else v for v in value]
        else:
            data = value.model_dump(mode="json")
        self._db.execute("INSERT OR REPLACE INTO responses VALUES (?, ?)", (self._key(key), json.dumps(data)))
        self._db.commit()

    def close(self) -> None:
        self._db.close()


def cache_namespace(model: ModelConfig) -> str:
    """Everything besides the messages that changes an answer."""
    keyed = {"name": model.name, "base_url": model.base_url, "temperature": model.temperature,
             "max_tokens": model.max_tokens, "seed": model.seed}
    return hashlib.sha256(json.dumps(keyed, sort_keys=True).encode()).hexdigest()[:16]


def model_info(model: ModelConfig) -> ModelInfo:
    """autogen's own info for models it knows; the configured capabilities otherwise."""
    from autogen_ext.models.openai._model_info import get_info

    try:
        return get_info(model.name or "")
    except (KeyError, ValueError):
        return ModelInfo(vision=False, function_calling=model.function_calling, json_output=model.json_output,
                         family=model.family, structured_output=False)


def check_model(config: AgentConfig) -> None:
    """Fail early, saying exactly what to set, when no usable model is configured."""
    model = config.model
    if not model.name:
        raise ConfigError(NO_MODEL)
    if model.name != "builtin" and api_key() is None and model.base_url is None:
        raise ConfigError(f"model {model.name!r} on api.openai.com needs an API key: set "
                          f"{' or '.join(API_KEY_VARS)} in the environment (or pass --base-url for a local server)")


def openai_client(model: ModelConfig) -> ChatCompletionClient:
    from autogen_ext.models.openai import OpenAIChatCompletionClient

    key = api_key()
    kwargs: dict[str, Any] = {"model": model.name, "api_key": key or "not-needed", "model_info": model_info(model),
                              "temperature": model.temperature, "max_tokens": model.max_tokens,
                              "timeout": model.timeout, "max_retries": model.max_retries}
    if model.seed is not None:
        kwargs["seed"] = model.seed
    if model.base_url:
        kwargs["base_url"] = model.base_url
    return OpenAIChatCompletionClient(**kwargs)


def make_client(config: AgentConfig, state: "TranslationState", cache_path: Path | None = None,
                limiter: "CallLimiter | None" = None) -> ChatCompletionClient:
    """The configured client; wrapped in the response cache when `cache_path` is given and caching is on.
    A `limiter` (shared by the tasks of a run) caps calls in flight and pauses all of them after a 429;
    cached answers take no slot."""
    check_model(config)
    model = config.model
    if model.name == "builtin":
        try:
            from repotrans.policy.builtin import BuiltinChatClient
        except ImportError as exc:
            raise ConfigError(f"model 'builtin' is not available: {exc}") from None
        return BuiltinChatClient(state)
    client = openai_client(model)
    if limiter is not None:
        from repotrans.agents.limits import LimitedClient

        client = LimitedClient(client, limiter)
    if cache_path is not None and model.cache:
        from autogen_ext.models.cache import ChatCompletionCache

        return ChatCompletionCache(client, SqliteCacheStore(cache_path, cache_namespace(model)))
    return client
