"""A scripted OpenAI-compatible chat completions server on 127.0.0.1, for tests of the real client path.

    with FakeOpenAIServer(["first answer", "second answer"], fail_first=1) as server:
        client = make_client(config with base_url=server.base_url, ...)

Each POST /v1/chat/completions returns the next scripted answer; `fail_first` requests get HTTP 500
first (`fail_status`, 500 unless told: 429 for rate limits; 401 echoes the key, as OpenAI does). `latency` seconds pass before each answer;
`repeat` answers the last scripted answer forever. Any path but /v1/chat/completions is a 404 (a base URL
without /v1). Every request body is kept in `server.requests`, its
arrival time (time.monotonic) in `server.arrivals`.

An answer is a string (the message content) or a dict in the shape real servers answer with:
`content` (None with tool calls), `tool_calls` ([{"name", "arguments"}], arguments a JSON string or an
object as Ollama sends), `reasoning_content`, `finish_reason`, `usage: None` (no usage at all), or
`choices: []` (a server answering without choices). A `responder(body) -> answer` answers from the
request instead of a script (the oracle models). `refuse_tools` answers requests with tools with
HTTP 400 "... does not support tools" (Ollama). `prefix_cache=N` reports the longest prefix shared
with an earlier request as cached prompt tokens in blocks of N (DeepSeek: 64; OpenAI: 1024 minimum).

A local server's limits: `window=N` refuses a request whose prompt (by `count`) plus max_tokens
exceeds N with llama-cpp-python's 400 (`This model's maximum context length is N tokens...`) and cuts
an answer to its max_tokens (`finish_reason: length`); `props=True` also tells N at GET /props as
llama.cpp does, `models=True` at GET /v1/models as vLLM does (max_model_len); `tokenize=True` serves llama-cpp-python's /extras/tokenize/count with `count`;
`seconds_per_token` makes generation take that long per completion token (a slow CPU server).
Any other path answers 404.
"""
from __future__ import annotations

import json
import os
import threading
import time
from typing import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class _Server(ThreadingHTTPServer):
    request_queue_size = 256          # many clients at once (benchmarks) must not be refused
    daemon_threads = True


class FakeOpenAIServer:
    def __init__(self, answers: list[str | dict] = (), fail_first: int = 0, fail_status: int = 500,
                 latency: float = 0.0, repeat: bool = False, responder: Callable[[dict], str | dict] | None = None,
                 prefix_cache: int | None = None, count: Callable[[str], int] = lambda text: len(text) // 4,
                 refuse_tools: bool = False, window: int | None = None, props: bool = False,
                 tokenize: bool = False, seconds_per_token: float = 0.0, models: bool = False, key_echo: str = "whole"):
        self.answers = list(answers)
        self.responder, self.prefix_cache, self.count = responder, prefix_cache, count
        self.refuse_tools = refuse_tools          # HTTP 400 for requests with tools, as Ollama for some models
        self._seen: list[str] = []
        self.window, self.props, self.tokenize, self.models = window, props, tokenize, models
        self.seconds_per_token = seconds_per_token
        self.tokenized = 0                        # /extras/tokenize/count requests answered
        self.fail_first, self.fail_status = fail_first, fail_status
        self.key_echo = key_echo                  # 401: "whole" key, or "masked" (sk-proj-****wxyz) as OpenAI does
        self.latency, self.repeat = latency, repeat
        self.requests: list[dict] = []
        self.arrivals: list[float] = []
        self.statuses: list[int] = []
        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02},
                                        daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAIServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _next(self, body: dict, auth: str = "") -> tuple[int, dict]:
        with self._lock:
            self.requests.append(body)
            self.arrivals.append(time.monotonic())
            if self.refuse_tools and body.get("tools"):
                return 400, {"error": {"message": f"registry.ollama.ai/library/{body.get('model')} does not "
                                                  "support tools", "type": "api_error"}}
            if self.fail_first > 0:
                self.fail_first -= 1
                if self.fail_status == 401:        # as OpenAI answers: the key it was given, echoed
                    shown = auth if self.key_echo == "whole" else f"{auth[:8]}{'*' * (len(auth) - 12)}{auth[-4:]}"
                    return 401, {"error": {"message": f"Incorrect API key provided: {shown}.",
                                           "type": "invalid_request_error", "code": "invalid_api_key"}}
                return self.fail_status, {"error": {"message": "scripted failure", "type": "server_error"}}
            if self.responder is not None:
                answer = self.responder(body)
            elif not self.answers:
                return 400, {"error": {"message": "script exhausted", "type": "invalid_request_error"}}
            else:
                answer = self.answers[0] if self.repeat and len(self.answers) == 1 else self.answers.pop(0)
            prompt_text = "".join(str(m.get("content") or "") for m in body.get("messages", []))
            cached = self._cached_prefix(prompt_text)
        spec = {"content": answer} if isinstance(answer, str) else dict(answer)
        max_tokens = int(body.get("max_tokens") or 2048)
        if self.window is not None:
            asked = self.count(prompt_text) + max_tokens
            if asked > self.window:
                if self.responder is None and not self.repeat:
                    self.answers.insert(0, answer)        # a refused request leaves the script as it was
                return 400, {"error": {"message": f"This model's maximum context length is {self.window} tokens. "
                                                  f"However, you requested {asked} tokens ({self.count(prompt_text)} "
                                                  f"in the messages, {max_tokens} in the completion). Please reduce "
                                                  "the length of the messages or completion.",
                                       "type": "invalid_request_error"}}
            if spec.get("content") and self.count(spec["content"]) > max_tokens:
                spec = dict(spec, content=spec["content"][:max_tokens * 4], finish_reason="length")
        if self.latency:
            time.sleep(self.latency)
        if self.seconds_per_token:
            time.sleep(self.seconds_per_token * min(max_tokens, self.count(str(spec.get("content") or ""))))
        message: dict = {"role": "assistant", "content": spec.get("content")}
        if spec.get("reasoning_content") is not None:
            message["reasoning_content"] = spec["reasoning_content"]
        if spec.get("tool_calls"):
            message["tool_calls"] = [{"id": f"call_{i}", "type": "function",
                                      "function": {"name": c["name"], "arguments": c.get("arguments", "{}")}}
                                     for i, c in enumerate(spec["tool_calls"])]
        out_text = (spec.get("content") or "") + json.dumps(spec.get("tool_calls") or "")
        prompt, completion = self.count(prompt_text), self.count(out_text)
        payload = {
            "id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": spec.get("choices", [{"index": 0, "message": message, "finish_reason": spec.get(
                "finish_reason", "tool_calls" if spec.get("tool_calls") else "stop")}]),
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion,
                      "prompt_tokens_details": {"cached_tokens": min(cached, prompt)}},
        }
        if "usage" in spec and spec["usage"] is None:
            del payload["usage"]
        return 200, payload

    def _cached_prefix(self, text: str) -> int:
        """Tokens of the longest prefix shared with an earlier request, in whole cache blocks."""
        if not self.prefix_cache:
            return 0
        best = max((len(os.path.commonprefix([text, seen])) for seen in self._seen), default=0)
        self._seen.append(text)
        tokens = self.count(text[:best])
        return tokens // self.prefix_cache * self.prefix_cache

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                if server.props and self.path == "/props":
                    self._send(200, {"default_generation_settings": {"n_ctx": server.window}})
                elif server.models and self.path == "/v1/models":
                    self._send(200, {"object": "list", "data": [{"id": "any", "object": "model",
                                                                 "max_model_len": server.window}]})
                else:
                    self._send(404, {"error": "not found"})

            def do_POST(self) -> None:  # noqa: N802 (http.server naming)
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                if server.tokenize and self.path == "/extras/tokenize/count":
                    server.tokenized += 1
                    self._send(200, {"count": server.count(str(body.get("input", "")))})
                    return
                if not self.path.endswith("/chat/completions"):
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                auth = self.headers.get("Authorization", "").removeprefix("Bearer ")
                if self.path.rstrip("/") != "/v1/chat/completions":     # as Ollama answers a wrong path
                    status, payload = 404, {"error": {"message": "404 page not found"}}
                else:
                    status, payload = server._next(body, auth)
                server.statuses.append(status)
                self._send(status, payload)

            def _send(self, status: int, payload: dict) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args) -> None:
                pass

        return Handler
