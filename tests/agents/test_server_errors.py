"""Model-server errors say where (base URL, model), what, and what to do; an echoed key prefix is redacted.
Real HTTP: the openai SDK against a closed port, a hanging socket and the fake server."""
from __future__ import annotations

import asyncio
import os
import socket
import threading

import pytest
from autogen_core.models import UserMessage

from repotrans.agents.config import ModelConfig, load_config
from repotrans.agents.models import check_model, model_info
from repotrans.agents.openai_client import OpenAICompatibleClient
from repotrans.agents.server_errors import describe
from repotrans.errors import ConfigError, ModelServerError, is_model_server_error
from repotrans.redact import redact
from tests.support.fake_openai_server import FakeOpenAIServer


def _fail(base_url: str, timeout: float = 5.0, key: str | None = "test-key-1234567890") -> ModelServerError:
    model = ModelConfig(name="coder-7b", base_url=base_url, timeout=timeout, max_retries=0)
    client = OpenAICompatibleClient(model, model_info(model), key)

    async def call():
        try:
            await client.create([UserMessage(content="hi", source="user")])
        finally:
            await client.close()

    with pytest.raises(Exception) as caught:
        asyncio.run(call())
    return describe(caught.value, model)


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_nothing_listening_asks_whether_the_server_runs():
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    msg = str(_fail(url))
    assert msg.startswith(f"model server {url} (model 'coder-7b'): unreachable (")
    assert "is the server running and listening there?" in msg and "--base-url" in msg


def test_a_hanging_server_names_the_timeout_setting_and_flag():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    held = []
    threading.Thread(target=lambda: held.append(listener.accept()), daemon=True).start()   # accepts, never answers
    try:
        msg = str(_fail(f"http://127.0.0.1:{listener.getsockname()[1]}/v1", timeout=0.5))
    finally:
        listener.close()
    assert "(model 'coder-7b'): the model server did not answer within " in msg
    assert "`timeout` under [model] in repotrans.toml or pass --model-timeout SECONDS" in msg


def test_a_404_names_the_path_and_asks_about_v1():
    with FakeOpenAIServer(["unused"]) as server:
        url = server.base_url.removesuffix("/v1")
        msg = str(_fail(url))
    assert msg.startswith(f"model server {url} (model 'coder-7b'): has no /chat/completions (404: 404 page not found)")
    assert "does the base URL end in /v1" in msg


def test_a_401_names_the_key_variables_and_never_the_echoed_key(monkeypatch):
    key = "sk-proj-4f1c9a7e2b6d5c3e-secret"
    monkeypatch.setenv("REPOTRANS_API_KEY", key)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with FakeOpenAIServer([], fail_first=1, fail_status=401, key_echo="masked") as server:
        msg = str(_fail(server.base_url, key=key))
    assert "refused the API key (401: Incorrect API key provided: [redacted]" in msg
    assert "REPOTRANS_API_KEY or OPENAI_API_KEY (REPOTRANS_API_KEY set now)" in msg
    assert "sk-proj-" not in msg and "cret" not in msg


def test_a_500_after_retries_says_so_and_is_recognised_as_a_server_error():
    with FakeOpenAIServer([], fail_first=5) as server:
        err = _fail(server.base_url)
    assert str(err).endswith("server error 500: scripted failure after 1 attempt; see the server's log")
    assert is_model_server_error(f"{type(err).__name__}: {err}") and not is_model_server_error("TaskError: x")


@pytest.mark.parametrize("text, shown", [
    ("Incorrect API key provided: sk-proj-****************cret.", "Incorrect API key provided: [redacted]"),
    ("key sk-proj-4f1c9a7e... was refused", "key [redacted] was refused"),
    ("Acme.Geo.Shapes.Circle.Area() failed ... twice", "Acme.Geo.Shapes.Circle.Area() failed ... twice"),
])
def test_pieces_of_the_key_a_server_echoes_are_redacted(text, shown):
    assert redact(text, ["sk-proj-4f1c9a7e2b6d5c3e-secret"]) == shown


def test_openai_base_url_is_obeyed_and_the_key_check_agrees(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    for var in ("REPOTRANS_API_KEY", "OPENAI_API_KEY", "REPOTRANS_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    config = load_config(cli={"model": {"name": "coder-7b"}}, env=os.environ, resolve=False)
    assert config.model.base_url == "http://127.0.0.1:9/v1"
    check_model(config)                              # a local server: no key needed, no api.openai.com claim
    monkeypatch.setenv("REPOTRANS_BASE_URL", "http://127.0.0.1:10/v1")
    assert load_config(cli={"model": {"name": "m"}}, env=os.environ,
                       resolve=False).model.base_url == "http://127.0.0.1:10/v1"
    monkeypatch.delenv("OPENAI_BASE_URL")
    monkeypatch.delenv("REPOTRANS_BASE_URL")
    with pytest.raises(ConfigError, match="on api.openai.com .* needs an API key"):
        check_model(load_config(cli={"model": {"name": "coder-7b"}}, env=os.environ, resolve=False))


def test_doctor_pings_the_configured_model_and_reports_its_answer(capsys, tmp_path, monkeypatch):
    from repotrans.cli import main

    monkeypatch.chdir(tmp_path)
    with FakeOpenAIServer(["pong"]) as server:
        rc = main(["doctor", "--model", "coder-7b", "--base-url", server.base_url, "--sandbox", "local"])
        assert len(server.requests) == 1 and server.requests[0]["max_tokens"] == 16
    out = capsys.readouterr().out
    assert f"model:\n  [ok] {server.base_url} (model 'coder-7b') answered 'pong' in " in out
    closed = f"http://127.0.0.1:{_closed_port()}/v1"
    rc = main(["doctor", "--model", "coder-7b", "--base-url", closed, "--sandbox", "local"])
    out = capsys.readouterr().out
    assert rc == 1 and f"  [!!] model server {closed} (model 'coder-7b'): unreachable (" in out
    main(["doctor", "--model", "coder-7b", "--base-url", closed, "--sandbox", "local", "--no-model-check"])
    assert "model:" not in capsys.readouterr().out


def test_retries_are_said_while_waiting(caplog):
    model = ModelConfig(name="coder-7b", timeout=5, max_retries=1)
    with FakeOpenAIServer(["pong"], fail_first=1) as server:
        model.base_url = server.base_url
        client = OpenAICompatibleClient(model, model_info(model), "k")

        async def call():
            try:
                return await client.create([UserMessage(content="hi", source="user")])
            finally:
                await client.close()

        with caplog.at_level("WARNING", logger="repotrans.model"):
            assert asyncio.run(call()).content == "pong"
    assert caplog.messages == [f"model server {server.base_url} (model 'coder-7b'): HTTP 500; retrying in 1 s "
                               "(attempt 2 of 2)"]
