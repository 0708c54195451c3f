"""The response cache: a ChatCompletionClient wrapper answering repeated requests from SQLite.

The key is the request (messages, tools, JSON mode, extra arguments) under a namespace holding every
setting that changes an answer or how it is read (model, endpoint, sampling, family, function
calling, parser version) and the server's context window; the effective max_tokens of each call is
in its extra arguments. The file lives in the configured cache_dir (the CLI resolves it to the
user's cache: agents.config.load_config), so identical runs into new
run folders replay instead of paying again; a replayed answer is marked `cached` and costs nothing.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any, Literal, Mapping, Optional, Sequence

from autogen_core import CancellationToken
from autogen_core.models import ChatCompletionClient, CreateResult, LLMMessage, ModelCapabilities, ModelInfo, RequestUsage
from autogen_core.tools import Tool, ToolSchema
from pydantic import BaseModel

from repotrans.agents.one_shot import OneShotClient
from repotrans.agents.config import ModelConfig
from repotrans.agents.openai_client import ModelResult
from repotrans.agents.window import limits_of

PARSER_VERSION = 3        # bump when reading answers changes in a way old cached answers would not show


def cache_folder(model: ModelConfig) -> Path | None:
    """The response cache's folder (`model.cache_dir`, which follows the cache root `[cache] root` unless
    set: agents.config.load_config); None when the response cache is off (--no-cache, `[model] cache =
    false`) or no folder is configured. The embedding cache's is `CacheSettings.embedding_folder`."""
    if not model.cache or not model.cache_dir:
        return None
    return Path(model.cache_dir)


def cache_namespace(model: ModelConfig) -> str:
    """Everything besides the request that changes an answer or how it is parsed."""
    keyed = {"name": model.name, "base_url": model.base_url, "temperature": model.temperature,
             "max_tokens": model.max_tokens, "seed": model.seed, "family": model.family,
             "function_calling": model.function_calling, "json_output": model.json_output,
             "parser": PARSER_VERSION}
    return hashlib.sha256(json.dumps(keyed, sort_keys=True).encode()).hexdigest()[:16]


def request_key(namespace: str, messages: Sequence[LLMMessage], tools: Sequence[Tool | ToolSchema],
                json_output: Any, extra: Mapping[str, Any]) -> str:
    data = {"ns": namespace, "messages": [m.model_dump(mode="json") for m in messages],
            "tools": [t.schema if isinstance(t, Tool) else t for t in tools],
            "json_output": json_output if isinstance(json_output, (bool, type(None))) else str(json_output),
            "extra": dict(extra)}
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


class ResponseCache(OneShotClient):
    def __init__(self, inner: ChatCompletionClient, path: Path, namespace: str):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.inner = inner
        self.path = path
        self.namespace = namespace
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), timeout=30, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        self._db.commit()
        self.hits = 0

    def _get(self, key: str) -> ModelResult | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM answers WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            return ModelResult.model_validate_json(row[0])
        except ValueError:
            return None

    def _put(self, key: str, result: CreateResult) -> None:
        data = ModelResult(**{**result.model_dump(), "cached": False}) if not isinstance(result, ModelResult) else result
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO answers VALUES (?, ?)", (key, data.model_dump_json()))
            self._db.commit()

    async def create(self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = [],
                     tool_choice: Tool | Literal["auto", "required", "none"] = "auto",
                     json_output: Optional[bool | type[BaseModel]] = None,
                     extra_create_args: Mapping[str, Any] = {},
                     cancellation_token: Optional[CancellationToken] = None) -> CreateResult:
        limits = limits_of(self.inner)       # the server's window is part of the key (max_tokens is in `extra`)
        namespace = self.namespace if limits is None else f"{self.namespace}:ctx{limits.window().tokens}"
        key = request_key(namespace, messages, tools, json_output, extra_create_args)
        hit = self._get(key)
        if hit is not None:
            self.hits += 1
            return hit.model_copy(update={"cached": True})
        result = await self.inner.create(messages, tools=tools, tool_choice=tool_choice, json_output=json_output,
                                         extra_create_args=extra_create_args, cancellation_token=cancellation_token)
        self._put(key, result)
        return result

    async def close(self) -> None:
        await self.inner.close()
        with self._lock:
            self._db.close()

    def actual_usage(self) -> RequestUsage:
        return self.inner.actual_usage()

    def total_usage(self) -> RequestUsage:
        return self.inner.total_usage()

    def count_tokens(self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = []) -> int:
        return self.inner.count_tokens(messages, tools=tools)

    def remaining_tokens(self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = []) -> int:
        return self.inner.remaining_tokens(messages, tools=tools)

    @property
    def capabilities(self) -> ModelCapabilities:  # type: ignore[override]
        return self.inner.capabilities

    @property
    def model_info(self) -> ModelInfo:
        return self.inner.model_info
