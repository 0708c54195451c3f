"""What a model server allows one call: its context window, token counts, generation speed, time limit.

The window is the `[model] context_window` setting, else what the server says (llama.cpp `/props`
n_ctx, Ollama `/api/show` num_ctx, vLLM `/v1/models` max_model_len), else a default; a 400 naming the
window (`maximum context length is 2048 tokens ...`) corrects it for every later call, and is
remembered per base URL and model in the user cache (agents.window_memory) for later processes. Tokens are
counted by the server's own tokenizer where it has an endpoint for it (llama-cpp-python
`/extras/tokenize/count`, llama.cpp and vLLM `/tokenize`), else estimated conservatively from the
characters; both are calibrated by the prompt tokens the server reports. One `ServerLimits` per
endpoint and model is kept by the run's `ServerBook` (owned by the run context and handed to every
client it makes), so what one task learns the next one knows.
"""
from __future__ import annotations

import json
import math
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from repotrans.agents.config import ModelConfig
from repotrans.agents.timeouts import ASSUMED_SPEED, default_timeout
from repotrans.agents.window_memory import WindowMemory
from repotrans.errors import TaskError

DEFAULT_WINDOW = 8192          # a server that does not say (a 400 naming its window corrects it)
HOSTED_WINDOW = 128_000        # api.openai.com (no base_url)
OLLAMA_DEFAULT_CTX = 4096      # Ollama's num_ctx when the model's parameters do not set one
CHARS_PER_TOKEN = 3.0          # the estimate: fewer characters per token than real BPE tokenizers on code
MESSAGE_OVERHEAD = 8           # a chat template's role markers, per message
PROBE_TIMEOUT = 3.0            # seconds for each discovery request

_WINDOW_400 = re.compile(r"maximum context length is (\d+)", re.I)
_MESSAGES_400 = re.compile(r"(\d+) in the messages|messages resulted in (\d+)|request has (\d+) input tokens", re.I)


@dataclass
class Window:
    tokens: int
    source: str                # where the figure came from, for errors and the trajectory


class ModelTimeout(TaskError):
    """A call took longer than its time limit (the message names the limit and the setting)."""


class ContextOverflow(TaskError):
    """The server refused a request for its context window (HTTP 400); `window` is what it named."""

    def __init__(self, message: str, window: int | None, prompt_tokens: int | None):
        super().__init__(message)
        self.window, self.prompt_tokens = window, prompt_tokens


def overflow_from(status: int | None, body: Any) -> ContextOverflow | None:
    """A ContextOverflow when an error answer says the request exceeds the context window."""
    if status != 400:
        return None
    err = body.get("error", body) if isinstance(body, dict) else {}
    text = err.get("message", "") if isinstance(err, dict) else str(err)
    text = text or (body if isinstance(body, str) else json.dumps(body))
    m = _WINDOW_400.search(text)
    if m is not None:
        used = _MESSAGES_400.search(text)
        prompt = next((int(g) for g in used.groups() if g), None) if used else None
        return ContextOverflow(" ".join(text.split()), int(m.group(1)), prompt)
    if isinstance(err, dict) and (err.get("type") == "exceed_context_size_error" or "context size" in text):
        n_ctx, n_prompt = err.get("n_ctx"), err.get("n_prompt_tokens")    # llama.cpp's own server
        return ContextOverflow(" ".join(text.split()), int(n_ctx) if n_ctx else None,
                               int(n_prompt) if n_prompt else None)
    return None


class ServerLimits:
    """Window, token counting, measured speed and time limit of one endpoint and model."""

    def __init__(self, model: ModelConfig, ask_server: bool = True):
        self.model = model
        self._ask = ask_server and bool(model.base_url)    # False: no discovery requests (hosted API, tests)
        self._window: Window | None = None
        self._tokenize: tuple[str, str] | None = None     # (url, kind) of the server's tokenizer
        self.counter = "estimate (3 characters per token)"
        self._probed = False
        self._ratio = 1.0                   # reported / counted prompt tokens, the highest seen lately
        self._ratios: list[float] = []
        self.speed: float | None = None     # completion tokens per second (see observe)
        self._speeds: list[float] = []
        self._counts: dict[str, int] = {}
        self._busy_until = 0.0              # monotonic time a timed-out request may keep the server busy until
        self._lock = threading.Lock()
        self.memory = WindowMemory(Path(model.cache_dir)) if model.cache_dir and model.base_url else None

    # -- window ------------------------------------------------------------------------------------------
    def window(self) -> Window:
        with self._lock:
            if self._window is None:
                self._window = self._discover()
            return self._window

    def learn(self, overflow: ContextOverflow) -> bool:
        """Take the window a 400 named; True when it is news (the call is worth fitting again)."""
        if overflow.window is None:
            return False
        current = self.window()
        with self._lock:
            self._window = Window(overflow.window, "named by the server's 400")
        if self.memory is not None and self.model.base_url and not self.model.context_window:
            self.memory.remember(self.model.base_url, self.model.name, overflow.window)
        return overflow.window != current.tokens or current.source != self._window.source

    def _root(self) -> str:
        base = (self.model.base_url or "").rstrip("/")
        return base[:-3] if base.endswith("/v1") else base

    def _discover(self) -> Window:
        if self.model.context_window:
            return Window(int(self.model.context_window), "[model] context_window")
        if not self.model.base_url:
            return Window(HOSTED_WINDOW, "default for api.openai.com")
        root = self._root()
        props = self._get(f"{root}/props")
        if isinstance(props, dict):
            n_ctx = (props.get("default_generation_settings") or {}).get("n_ctx") or props.get("n_ctx")
            if n_ctx:
                return Window(int(n_ctx), "llama.cpp /props n_ctx")
        show = self._post(f"{root}/api/show", {"model": self.model.name, "name": self.model.name})
        if isinstance(show, dict) and ("parameters" in show or "model_info" in show):
            m = re.search(r"num_ctx\s+(\d+)", str(show.get("parameters") or ""))
            trained = [v for k, v in (show.get("model_info") or {}).items() if k.endswith(".context_length")]
            if m:
                return Window(int(m.group(1)), "Ollama /api/show num_ctx")
            return Window(min([OLLAMA_DEFAULT_CTX, *map(int, trained)]), "Ollama's default num_ctx")
        models = self._get(f"{self.model.base_url.rstrip('/')}/models")
        served = [e for e in ((models or {}).get("data") or [] if isinstance(models, dict) else [])
                  if isinstance(e, dict) and e.get("max_model_len")]
        if served:         # the entry of the model, else the one a vLLM server serves
            entry = next((e for e in served if e.get("id") == self.model.name), served[0])
            return Window(int(entry["max_model_len"]), "vLLM /v1/models max_model_len")
        known = self.memory.recall(self.model.base_url, self.model.name) if self.memory is not None else None
        if known is not None:
            return Window(known, f"named by the server's 400 earlier ({self.memory.path})")
        return Window(DEFAULT_WINDOW, "default (the server does not say)")

    def _get(self, url: str) -> Any:
        return self._request("GET", url, None)

    def _post(self, url: str, body: dict) -> Any:
        return self._request("POST", url, body)

    def _request(self, method: str, url: str, body: dict | None) -> Any:
        import urllib.request

        if not self._ask:
            return None
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(url, data=data, method=method,
                                         headers={"Content-Type": "application/json"} if data else {})
        limit = min(PROBE_TIMEOUT, self.model.timeout) if self.model.timeout is not None else PROBE_TIMEOUT
        try:
            with urllib.request.urlopen(request, timeout=limit) as response:
                return json.loads(response.read() or b"null")
        except Exception as exc:   # no such endpoint (an HTTPError), not JSON, server busy: the next source is asked
            if isinstance(exc, TimeoutError) or isinstance(getattr(exc, "reason", None), TimeoutError):
                self._ask = False  # a server silent to one probe is not asked the next (each would wait as long)
            return None

    # -- counting ------------------------------------------------------------------------------------------
    def _probe_tokenizer(self) -> None:
        self._probed = True
        if not self._ask:
            return
        root = self._root()
        for url, kind in ((f"{root}/extras/tokenize/count", "llama-cpp-python"), (f"{root}/tokenize", "tokenize")):
            self._tokenize = (url, kind)
            if self._server_count("hello world") is not None:
                self.counter = f"the server's tokenizer ({url.removeprefix(root)})"
                return
        self._tokenize = None

    def _server_count(self, text: str) -> int | None:
        url, kind = self._tokenize or ("", "")
        body = ({"input": text, "model": self.model.name} if kind == "llama-cpp-python"
                else {"content": text, "prompt": text, "model": self.model.name, "add_special": False})
        data = self._post(url, body)
        if not isinstance(data, dict):
            return None
        if isinstance(data.get("count"), int):
            return data["count"]
        return len(data["tokens"]) if isinstance(data.get("tokens"), list) else None

    def count(self, text: str) -> int:
        """Tokens of one piece of text (uncalibrated)."""
        if not text:
            return 0
        if not self._probed:
            self._probe_tokenizer()
        hit = self._counts.get(text)
        if hit is not None:
            return hit
        n = self._server_count(text) if self._tokenize else None
        if n is None:
            if self._tokenize is not None:      # the tokenizer stopped answering: estimate from now on
                self._tokenize, self.counter = None, "estimate (3 characters per token)"
            n = math.ceil(len(text) / CHARS_PER_TOKEN)
        if len(self._counts) > 4096:
            self._counts.clear()
        self._counts[text] = n
        return n

    def raw_count(self, messages: Sequence[dict], tools: Sequence[dict] = ()) -> int:
        """Tokens of OpenAI-shaped messages and tool definitions, before calibration."""
        n = sum(self.count(str(m.get("content") or "")) + MESSAGE_OVERHEAD for m in messages)
        n += sum(self.count(json.dumps(m["tool_calls"])) for m in messages if m.get("tool_calls"))
        return n + (self.count(json.dumps(list(tools))) if tools else 0)

    def prompt_tokens(self, messages: Sequence[dict], tools: Sequence[dict] = ()) -> int:
        """The prompt's tokens as the server will count them (calibrated by what it reported before)."""
        return math.ceil(self.raw_count(messages, tools) * self._ratio)

    def calibrate(self, counted: int, reported: int) -> None:
        """Learn from the server's own prompt-token figure for a request counted `counted` (raw)."""
        if counted <= 0 or reported <= 0:
            return
        with self._lock:
            self._ratios = (self._ratios + [min(3.0, max(0.5, reported / counted))])[-5:]
            self._ratio = max(self._ratios)

    # -- speed and time limit ---------------------------------------------------------------------------------
    def observe(self, completion_tokens: int, seconds: float) -> None:
        """Record a call's speed, completion tokens over its whole time (prompt included, so it errs
        slow); the median of the last nine calls of 16+ tokens is the speed (one outlier moves nothing)."""
        if completion_tokens >= 16 and seconds > 0:
            with self._lock:
                self._speeds = (self._speeds + [completion_tokens / seconds])[-9:]
                self.speed = sorted(self._speeds)[len(self._speeds) // 2]

    def timeout(self, max_tokens: int, prompt_tokens: int = 0) -> tuple[float, str]:
        """Seconds one call may take, and how that was decided (for the error that names it): twice the
        time to read the prompt at a slow CPU server's pace and to write max_tokens at the measured speed."""
        if self.model.timeout is not None:
            return float(self.model.timeout), f"[model] timeout = {self.model.timeout:g}"
        speed = self.speed or ASSUMED_SPEED
        how = f"{speed:.1f} tokens/s measured" if self.speed else f"{ASSUMED_SPEED:g} tokens/s assumed"
        seconds = default_timeout(max_tokens, prompt_tokens, speed)
        return seconds, (f"scaled to a {prompt_tokens}-token prompt and max_tokens {max_tokens} at {how}; "
                         "set [model] timeout to fix it")

    def abandoned(self, max_tokens: int) -> None:
        """A request timed out: a single-slot server may go on generating up to `max_tokens` for it."""
        with self._lock:
            self._busy_until = time.monotonic() + max_tokens / (self.speed or ASSUMED_SPEED)

    def busy_for(self) -> float:
        """Seconds the next call waits on behind an abandoned request (added to its time limit)."""
        return max(0.0, self._busy_until - time.monotonic())


def limits_of(client: Any) -> ServerLimits | None:
    """The ServerLimits of an HTTP client, through the cache and limiter wrappers; None for others."""
    for _ in range(4):
        limits = getattr(client, "limits", None)
        if isinstance(limits, ServerLimits):
            return limits
        client = getattr(client, "inner", None)
        if client is None:
            return None
    return None


class ServerBook:
    """The ServerLimits of each endpoint and model one run talks to (a batch's tasks share what was
    learned); owned by the run context (agents.workdir.RunCaches) and passed to the clients it makes."""

    def __init__(self) -> None:
        self._limits: dict[tuple, ServerLimits] = {}
        self._lock = threading.Lock()

    def limits_for(self, model: ModelConfig) -> ServerLimits:
        """The ServerLimits of `model`'s endpoint, made on first use; only a configured base_url is
        asked about its window and tokenizer."""
        key = (model.base_url, model.name, model.context_window, model.timeout, model.cache_dir)
        with self._lock:
            if key not in self._limits:
                self._limits[key] = ServerLimits(model)
            return self._limits[key]
