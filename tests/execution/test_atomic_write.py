"""The baseline marker and the test index are rewritten while the runner's other threads read them:
a reader sees the old text or the new one, never a truncated file (execution.workspace.write_atomically)."""
from __future__ import annotations

import threading

from repotrans.execution.workspace.scratch import write_atomically


def test_a_reader_never_sees_a_truncated_file(tmp_path):
    path = tmp_path / "tests.json"
    texts = ['{"version": 1, "fixtures": {}}', '{"version": 2, "fixtures": {"a": ' + '1' * 20000 + '}}']
    write_atomically(path, texts[0])
    seen: set[str] = set()
    done = threading.Event()

    def read() -> None:
        while not done.is_set():
            seen.add(path.read_text()[:20])

    reader = threading.Thread(target=read)
    reader.start()
    for n in range(400):
        write_atomically(path, texts[n % 2])
    done.set()
    reader.join()
    assert seen <= {t[:20] for t in texts}
    assert not list(tmp_path.glob(".*.tmp"))
