"""A scripted OpenAI-compatible chat completions server on 127.0.0.1, for tests of the real client path.

    with FakeOpenAIServer(["first answer", "second answer"], fail_first=1) as server:
        client = OpenAIChatCompletionClient(model="fake", base_url=server.base_url, ...)

Each POST /v1/chat/completions returns the next scripted answer; `fail_first` requests get HTTP 500
first (`fail_status`, 500 unless told: 429 for rate limits). `latency` seconds pass before each answer;
`repeat` answers the last scripted answer forever. Every request body is kept in `server.requests`, its
arrival time (time.monotonic) in `server.arrivals`.
"""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class _Server(ThreadingHTTPServer):
    request_queue_size = 256          # many clients at once (benchmarks) must not be refused
    daemon_threads = True


class FakeOpenAIServer:
    def __init__(self, answers: list[str], fail_first: int = 0, fail_status: int = 500, latency: float = 0.0,
                 repeat: bool = False):
        self.answers = list(answers)
        self.fail_first, self.fail_status = fail_first, fail_status
        self.latency, self.repeat = latency, repeat
        self.requests: list[dict] = []
        self.arrivals: list[float] = []
        self.statuses: list[int] = []
        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAIServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _next(self, body: dict) -> tuple[int, dict]:
        with self._lock:
            self.requests.append(body)
            self.arrivals.append(time.monotonic())
            if self.fail_first > 0:
                self.fail_first -= 1
                return self.fail_status, {"error": {"message": "scripted failure", "type": "server_error"}}
            if not self.answers:
                return 400, {"error": {"message": "script exhausted", "type": "invalid_request_error"}}
            text = self.answers[0] if self.repeat and len(self.answers) == 1 else self.answers.pop(0)
        if self.latency:
            time.sleep(self.latency)
        prompt = sum(len(str(m.get("content", ""))) for m in body.get("messages", [])) // 4
        return 200, {
            "id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": len(text) // 4,
                      "total_tokens": prompt + len(text) // 4},
        }

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server naming)
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                status, payload = server._next(body)
                server.statuses.append(status)
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args) -> None:
                pass

        return Handler
