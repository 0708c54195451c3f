"""Embedding progress in a piped log (plain lines, no carriage returns) and Ctrl-C by a real signal:
the process stops within a second and keeps what was embedded."""
from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from repotrans.retrieval import progress
from repotrans.retrieval.dense import embed_cached
from repotrans.retrieval.embed_cache import CACHE_FILE, EmbeddingCache
from repotrans.retrieval.encoders import BATCH_SIZE
from tests.retrieval.test_retrieval import HashingEncoder

REPO = Path(__file__).resolve().parents[2]


def test_progress_into_a_pipe_is_plain_lines_with_an_eta(tmp_path, monkeypatch):
    monkeypatch.setattr(progress, "PLAIN_EVERY_S", 0.0)
    log = io.StringIO()                              # not a terminal, as a piped log
    monkeypatch.setattr(sys, "stderr", log)
    texts = [f"int f{i}() {{ return {i}; }}" for i in range(BATCH_SIZE * 3)]
    embed_cached(HashingEncoder(), EmbeddingCache(tmp_path / CACHE_FILE), texts, what="Java method pairs")
    out = log.getvalue()
    lines = out.splitlines()
    assert "\r" not in out and "\x1b" not in out
    assert lines[0].startswith(f"embedding {len(texts)} Java method pairs not in the cache (hashing-64): ")
    assert any("ETA" in line for line in lines) and lines[-1].endswith(" s") and f"{len(texts)}/{len(texts)} in" in lines[-1]


def test_progress_on_a_terminal_is_a_bar():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    stream = Tty()
    bar = progress.progress_bar(10, "embedding", stream=stream)
    bar.update(10)
    bar.close()
    assert "\r" in stream.getvalue()
    assert not isinstance(progress.progress_bar(10, "embedding", enabled=False), progress.PlainProgress)


CHILD = textwrap.dedent("""
    import hashlib, sys, time
    sys.path.insert(0, {repo!r})
    from pathlib import Path
    from repotrans.retrieval.dense import embed_cached
    from repotrans.retrieval.embed_cache import EmbeddingCache
    from repotrans.retrieval.encoders import BATCH_SIZE
    from tests.retrieval.test_retrieval import HashingEncoder

    class Slow(HashingEncoder):
        # the third batch sits in one C call that holds no Python step for ~30 s, as a batch inside
        # ONNX Runtime or torch does (PBKDF2 in OpenSSL releases the GIL and never checks signals)
        def encode(self, texts):
            if len(self.calls) >= 2 * BATCH_SIZE:
                print("slow batch", flush=True)
                hashlib.pbkdf2_hmac("sha256", b"p", b"s", 30_000_000)
            return super().encode(texts)

    texts = [f"int f{{i}}() {{{{ return {{i}}; }}}}" for i in range(BATCH_SIZE * 4)]
    try:
        embed_cached(Slow(), EmbeddingCache(Path({cache!r})), texts, progress=False)
    except KeyboardInterrupt:
        print(f"interrupted {{time.monotonic()}}", flush=True)
""")


def test_ctrl_c_during_a_batch_stops_within_a_second_and_keeps_the_finished_batches(tmp_path):
    cache = tmp_path / CACHE_FILE
    # SIGINT back to its default in the child: a test run started in the background by a shell
    # inherits it ignored, and Python then installs no KeyboardInterrupt handler
    child = subprocess.Popen([sys.executable, "-c", CHILD.format(repo=str(REPO), cache=str(cache))],
                             stdout=subprocess.PIPE, text=True, env={**os.environ, "HF_HUB_OFFLINE": "1"},
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert child.stdout.readline().strip() == "slow batch"
        time.sleep(0.3)                              # well inside the C call
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        line = child.stdout.readline().split()
        assert line and line[0] == "interrupted", line
        assert float(line[1]) - sent < 1.0
        assert child.wait(timeout=30) == 0
    finally:
        child.kill()
        child.stdout.close()
        child.wait()
    from tests.retrieval.test_embed_cache import _keys
    texts = [f"int f{i}() {{ return {i}; }}" for i in range(BATCH_SIZE * 4)]
    assert len(EmbeddingCache(cache).get_many(_keys(texts), HashingEncoder().dim)) == 2 * BATCH_SIZE
