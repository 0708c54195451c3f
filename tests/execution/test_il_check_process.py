"""The Python IL checker out of the repotrans process (il_check_process): it answers as il_check does
in process, from the baseline keys it saved once, inside bwrap; a hostile assembly that hangs it (a
nested type enclosing itself, which loops il_check forever), a checker that dies (no memory to start)
and junk bytes are each a rejection with the reason, and repotrans carries on; without bwrap the same
holds for a plain child process under prlimit."""
from __future__ import annotations

import struct
import time
from pathlib import Path

import pytest

from repotrans.execution import il_check_process, policy
from repotrans.execution.il_check import check_assembly
from repotrans.execution.il_check_process import IlCheckProcess
from repotrans.execution.sandboxes.local import bwrap_status
from tests.execution.test_il_check import MEMBER, compile_calc

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
    return policy.job_line(str(dll), str(base) if base else None, MEMBER, frozenset())


def _denials(v: policy.PolicyVerdict) -> list[tuple[str, str, str]]:
    return sorted((d.capability, d.api, d.where) for d in v.denials)


def test_the_checker_process_answers_as_il_check_in_process(dlls):
    checker = IlCheckProcess(dlls["base"].parents[1], dlls["base"].parents[1] / "keys")
    assert bwrap_status()[0] and checker.where == "in the local sandbox (bwrap)"
    checker.save_keys(dlls["base"])
    assert len(list((dlls["base"].parents[1] / "keys").glob("*.json"))) == 1
    names = ("clean", "attack", "base")
    verdicts = checker.check([_job(dlls[n], dlls["base"]) for n in names])
    for name, verdict in zip(names, verdicts):
        alone = check_assembly(dlls[name], dlls["base"], MEMBER, frozenset())
        assert not verdict.error and _denials(verdict) == _denials(alone) and verdict.inspected == alone.inspected, name
    assert verdicts[0].ok and verdicts[1].reason().startswith("uses System.Activator")


@pytest.mark.parametrize("bwrap", [True, False], ids=["bwrap", "prlimit"])
def test_a_checker_that_hangs_or_dies_is_a_rejection(dlls, monkeypatch, bwrap):
    if not bwrap:
        monkeypatch.setattr(il_check_process, "bwrap_status", lambda: (False, "not here"))
    root = dlls["base"].parents[1]
    checker = IlCheckProcess(root, root / "keys", timeout=4.0)
    assert checker.where == ("in the local sandbox (bwrap)" if bwrap else "as a child process under prlimit")
    started = time.monotonic()
    hung, clean = checker.check([_job(dlls["cycle"], dlls["base"]), _job(dlls["clean"], dlls["base"])])
    assert time.monotonic() - started < 9.0
    assert not hung.ok and hung.error == "the checker ended without an answer (timed out after 4 s)"
    assert not clean.ok and clean.error == hung.error      # a job after the hang is not passed unchecked
    junk, = checker.check([_job(dlls["junk"], None)])
    assert not junk.ok and junk.error and "without an answer" not in junk.error     # judged by the checker
    starved = IlCheckProcess(root, root / "keys", memory_mb=8)
    dead, = starved.check([_job(dlls["clean"], dlls["base"])])
    assert not dead.ok and dead.error.startswith("the checker ended without an answer (exit ")
    assert checker.check([_job(dlls["clean"], dlls["base"])])[0].ok       # and the next candidate is judged as usual
