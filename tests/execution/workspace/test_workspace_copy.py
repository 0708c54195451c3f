"""The workspace's copy of the target (scratch.copy_tree): by tar outside Python, ignored names left out at any
depth, links kept as links, contents and times as in the target; a copy that fails names the target."""
from __future__ import annotations

import os

import pytest

from repotrans.errors import ConfigError
from repotrans.execution.workspace.scratch import copy_tree


def test_ignored_names_are_left_out_at_any_depth_and_links_kept(tmp_path):
    src = tmp_path / "t"
    for rel in ["A.cs", "src/Core/B.cs", "src/Core/bin/Debug/B.dll", "obj/x", ".git/HEAD", "src/binary/C.cs",
                "tests/TestResults/r.xml"]:
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(rel)
    os.symlink("A.cs", src / "src" / "Link.cs")
    os.utime(src / "A.cs", ns=(1_000_000_000, 1_000_000_000))
    dest = tmp_path / "w" / "src"
    copy_tree(src, dest)
    found = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if not p.is_dir())
    assert found == ["A.cs", "src/Core/B.cs", "src/Link.cs", "src/binary/C.cs"]
    assert os.readlink(dest / "src" / "Link.cs") == "A.cs"
    assert (dest / "src/Core/B.cs").read_text() == "src/Core/B.cs"
    assert (dest / "A.cs").stat().st_mtime_ns == 1_000_000_000


def test_a_copy_that_fails_names_the_target(tmp_path):
    with pytest.raises(ConfigError, match=r"cannot copy the target .*missing"):
        copy_tree(tmp_path / "missing", tmp_path / "w" / "src")


def test_runners_preparing_one_state_at_once_copy_it_once(tmp_path, monkeypatch):
    """Two runners (a dataset build's validation beside the port's build) ask for the same workspace at once: one
    copies the target, the other waits for that copy and gets the same workspace."""
    import threading
    import time

    from repotrans.execution.workspace import scratch

    target = tmp_path / "t"
    (target / "src").mkdir(parents=True)
    (target / "src" / "A.cs").write_text("class A {}")
    copies = []

    def slow_copy(src, dest):
        copies.append(dest)
        time.sleep(0.3)
        copy_tree(src, dest)

    monkeypatch.setattr(scratch, "copy_tree", slow_copy)
    found = []
    threads = [threading.Thread(target=lambda: found.append(scratch.prepare_workspace(target, tmp_path / "w", "mono")))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(copies) == 1 and found[0].root == found[1].root
    assert (found[0].root / "src" / "src" / "A.cs").read_text() == "class A {}"
