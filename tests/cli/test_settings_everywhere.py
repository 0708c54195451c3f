"""Settings behave the same everywhere: a global option (--config, --workdir) before or after the
subcommand; the model timeout has one default, said alike by --help, doctor and the configuration
template; --model-timeout bounds every request, the one after a timed-out request included."""
from __future__ import annotations

import asyncio
import socket
import threading
import time

from autogen_core.models import UserMessage

from repotrans.agents.config import ModelConfig
from repotrans.agents.models import model_info
from repotrans.agents.openai_client import OpenAICompatibleClient
from repotrans.agents.ping import ping
from repotrans.agents.timeouts import TIMEOUT_DEFAULT
from repotrans.agents.window import ModelTimeout
from repotrans.cli.main import build_parser, main
from repotrans.cli.setup import render_config


def _silent_server() -> socket.socket:
    """Accepts connections and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    held = []

    def accept():
        while True:
            try:
                held.append(listener.accept())
            except OSError:
                return
    threading.Thread(target=accept, daemon=True).start()
    return listener


def test_config_and_workdir_go_before_or_after_the_subcommand(tmp_path, capsys):
    parser = build_parser()
    before = parser.parse_args(["--config", "a.toml", "--workdir", "w", "mapping"])
    after = parser.parse_args(["mapping", "--config", "a.toml", "--workdir", "w"])
    assert (before.config, before.workdir) == (after.config, after.workdir) == ("a.toml", "w")
    missing = tmp_path / "none.toml"
    assert main(["--config", str(missing), "mapping", "--workdir", str(tmp_path / "wd")]) == 2
    assert f"configuration file not found: {missing}" in capsys.readouterr().err


def test_the_model_timeout_default_is_said_alike_by_help_doctor_and_the_template(capsys):
    help_text = " ".join(build_parser()._subparsers._group_actions[0].choices["batch"].format_help().split())
    assert f"(default: {TIMEOUT_DEFAULT}; [model] timeout)" in help_text and "default 60" not in help_text
    template = render_config(source="j", target="c", model="m", base_url="", toolchain="mono", sandbox="auto")
    assert f"(default: {TIMEOUT_DEFAULT})" in template
    listener = _silent_server()
    try:                           # doctor waits as a batch's request would: --model-timeout when given
        started = time.monotonic()
        ok, line = ping(ModelConfig(name="m", base_url=f"http://127.0.0.1:{listener.getsockname()[1]}/v1",
                                    timeout=1.5))
    finally:
        listener.close()
    assert ok is False and "1.5 s" in line and time.monotonic() - started < 5


def test_model_timeout_bounds_every_request_even_after_one_timed_out():
    listener = _silent_server()
    model = ModelConfig(name="m", base_url=f"http://127.0.0.1:{listener.getsockname()[1]}/v1", timeout=1.0,
                        max_retries=0, max_tokens=2048)
    client = OpenAICompatibleClient(model, model_info(model), "k")
    took = []

    async def calls():
        try:
            for _ in range(2):          # the second follows an abandoned one: still 1 s, not 1 + 2048/8
                started = time.monotonic()
                try:
                    await client.create([UserMessage(content="hi", source="user")])
                except ModelTimeout:
                    took.append(time.monotonic() - started)
        finally:
            await client.close()
    try:
        asyncio.run(calls())
    finally:
        listener.close()
    assert len(took) == 2 and all(t < 3 for t in took), took
