"""The Python IL checker out of the repotrans process (il_check_process): it answers as il_check does
in process, from the baseline keys it saved once, inside bwrap. Hostile assemblies (a nested type
enclosing itself, which looped il_check forever before it checked for cycles; junk bytes) are judged
by the checker: rejected with the reason. A checker that does not answer in time (its baseline keys
are a pipe nobody writes) or dies (no memory to start) rejects every job it left, and repotrans
carries on; without bwrap the same holds for a plain child process under prlimit."""
from __future__ import annotations

import os
import struct
import time
from pathlib import Path

import pytest

from repotrans.execution.capability import checks
from repotrans.execution.capability.il_baseline import keys_file
from repotrans.execution.capability.il_job import check_assembly
from repotrans.execution.capability.il_check_process import IlCheckProcess
from repotrans.execution.sandboxes import local
from repotrans.execution.sandboxes.local import bwrap_status
from tests.execution.capability.test_il_check import MEMBER, compile_calc

CLOSURE = "{\n    System.Func<int, int> f = x => x + a;\n    int sum = f(b);\n    history.Add(sum);\n    return sum;\n}"
ACTIVATOR = "{\n    var o = System.Activator.CreateInstance(typeof(System.Text.StringBuilder));\n    return a + b;\n}"


@pytest.fixture(scope="module")
def dlls(tmp_path_factory) -> dict[str, Path]:
    ws = tmp_path_factory.mktemp("il-process")
    ws.chmod(0o755)                                         # as a workspace: the sandbox's uids read it
    out = {"base": compile_calc(ws, "base", None), "clean": compile_calc(ws, "clean", CLOSURE),
           "attack": compile_calc(ws, "attack", ACTIVATOR)}
    out["cycle"] = ws / "cycle.dll"
    out["cycle"].write_bytes(_self_enclosing(out["clean"]))
    out["junk"] = ws / "junk.dll"
    out["junk"].write_bytes(b"MZ" + b"\xff" * 4000)
    return out


def _self_enclosing(dll: Path) -> bytes:
    """The assembly with its first nested type (the lambda's closure class) declared to enclose itself."""
    import dnfile

    table = dnfile.dnPE(str(dll)).net.mdtables.NestedClass
    assert table.num_rows and table.row_size == 4            # two 2-byte TypeDef indexes
    data = bytearray(dll.read_bytes())
    nested = struct.unpack_from("<H", data, table.file_offset)[0]
    struct.pack_into("<H", data, table.file_offset + 2, nested)
    return bytes(data)


def _job(dll: Path, base: Path | None) -> str:
    return checks.job_line(str(dll), str(base) if base else None, MEMBER, frozenset())


def _denials(v: checks.PolicyVerdict) -> list[tuple[str, str, str]]:
    return sorted((d.capability, d.api, d.where) for d in v.denials)


def test_the_checker_process_answers_as_il_check_in_process(dlls):
    checker = IlCheckProcess(dlls["base"].parents[1], dlls["base"].parents[1] / "keys")
    assert bwrap_status()[0] and checker.where == "in the local sandbox (bwrap)"
    checker.save_keys(dlls["base"])
    [saved] = (dlls["base"].parents[1] / "keys").glob("*.json")
    assert saved.stat().st_uid == saved.parent.stat().st_uid == os.geteuid()    # no sandbox uid may rewrite them
    names = ("clean", "attack", "base")
    verdicts = checker.check([_job(dlls[n], dlls["base"]) for n in names])
    for name, verdict in zip(names, verdicts):
        alone = check_assembly(dlls[name], dlls["base"], MEMBER, frozenset())
        assert not verdict.error and _denials(verdict) == _denials(alone) and verdict.inspected == alone.inspected, name
    assert verdicts[0].ok and verdicts[1].reason().startswith("uses System.Activator")


@pytest.mark.parametrize("bwrap", [True, False], ids=["bwrap", "prlimit"])
def test_hostile_assemblies_are_judged_and_a_checker_that_hangs_or_dies_rejects(dlls, monkeypatch, bwrap):
    if not bwrap:
        monkeypatch.setattr(local, "bwrap_status", lambda: (False, "not here"))     # the sandbox's one probe
    root = dlls["base"].parents[1]
    checker = IlCheckProcess(root, root / "keys")
    assert checker.where == ("in the local sandbox (bwrap)" if bwrap else "as a child process under prlimit")
    started = time.monotonic()
    cycle, junk, clean = checker.check([_job(dlls["cycle"], dlls["base"]), _job(dlls["junk"], None),
                                        _job(dlls["clean"], dlls["base"])])
    assert time.monotonic() - started < 20.0
    assert not cycle.ok and "nested in itself" in cycle.error
    assert not junk.ok and junk.error and "without an answer" not in junk.error
    assert clean.ok                                         # the job after them is judged as usual
    stuck = root / f"stuck-{bwrap}"                         # a read that never ends: a pipe without writer
    stuck.mkdir(exist_ok=True)
    if not keys_file(stuck, dlls["base"]).exists():
        os.mkfifo(keys_file(stuck, dlls["base"]))
    started = time.monotonic()
    hung, unanswered = IlCheckProcess(root, stuck, timeout=2.0).check(
        [_job(dlls["clean"], dlls["base"]), _job(dlls["attack"], dlls["base"])])
    assert hung.error == unanswered.error == "the checker ended without an answer (timed out after 2 s)"
    assert time.monotonic() - started < 10.0
    dead, = IlCheckProcess(root, root / "keys", memory_mb=8).check([_job(dlls["clean"], dlls["base"])])
    assert not dead.ok and dead.error.startswith("the checker ended without an answer (exit ")


def test_read_only_paths_are_seen_not_written_even_under_tmp(tmp_path):
    """What LocalSandbox(readonly=...) binds for the checker (Python, its packages) is readable inside,
    also under /tmp (which the sandbox mounts afresh), and cannot be written; without it, not there."""
    from repotrans.execution.sandboxes.local import LocalSandbox

    ws, extra = tmp_path / "ws", tmp_path / "pkg"
    for folder in (ws, extra):
        folder.mkdir()
        folder.chmod(0o755)
    (extra / "m.py").write_text("x = 1\n")
    script = f"cat {extra}/m.py; echo y > {extra}/m.py && echo WROTE"
    out = LocalSandbox(ws, readonly=[extra]).run(["sh", "-c", script], cwd=ws, timeout=30, memory_mb=256)
    assert out.stdout.startswith("x = 1") and "WROTE" not in out.stdout
    assert (extra / "m.py").read_text() == "x = 1\n"
    hidden = LocalSandbox(ws).run(["cat", f"{extra}/m.py"], cwd=ws, timeout=30, memory_mb=256)
    assert hidden.exit_code != 0 and "x = 1" not in hidden.stdout
