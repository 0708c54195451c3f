"""The local sandbox's seccomp filter: no user namespace (nor any other), no ptrace, while ordinary
processes and threads still work."""
from __future__ import annotations

import struct
import sys
from pathlib import Path

import pytest

from repotrans.execution.sandboxes import seccomp
from repotrans.execution.sandboxes.local import LocalSandbox, bwrap_status

pytestmark = pytest.mark.skipif(not seccomp.supported(), reason="the filter is written for x86_64 Linux")


def test_the_program_is_well_formed_bpf():
    prog = seccomp.program()
    assert len(prog) % 8 == 0 and 16 < len(prog) // 8 < 4096
    code = [struct.unpack("<HBBI", prog[i:i + 8]) for i in range(0, len(prog), 8)]
    assert code[-1] == (seccomp.RET, 0, 0, seccomp.RET_ALLOW)
    for n, (op, jt, jf, _) in enumerate(code):          # every jump lands inside the program
        assert (jt, jf) == (0, 0) if op == seccomp.RET else n + 1 + max(jt, jf) < len(code)


@pytest.mark.slow
def test_namespaces_ptrace_and_mount_are_denied_and_threads_still_run(tmp_path):
    ok, why = bwrap_status()
    if not ok:
        pytest.fail(f"the local sandbox is unavailable: {why}", pytrace=False)
    box = LocalSandbox(tmp_path)

    def run(*argv: str):
        return box.run(list(argv), cwd=tmp_path, timeout=30, memory_mb=512)

    # each of these works for an unprivileged user without the filter (PTRACE_TRACEME answers 0)
    for argv in (["unshare", "-U", "true"], ["unshare", "-r", "id"], ["unshare", "-U", "-n", "true"]):
        outcome = run(*argv)
        assert outcome.exit_code != 0 and "not permitted" in outcome.output.lower(), (argv, outcome.output)
    traced = run(sys.executable if Path(sys.executable).is_relative_to("/usr") else "/usr/bin/python3", "-c",
                 "import ctypes; libc = ctypes.CDLL(None); print('ptrace', libc.ptrace(0, 0, 0, 0))")
    assert "ptrace -1" in traced.output, traced.output
    threads = run("/usr/bin/python3", "-c", "import threading, subprocess; t = threading.Thread(target=print, "
                  "args=('thread ok',)); t.start(); t.join(); subprocess.run(['true'], check=True); print('fork ok')")
    assert threads.exit_code == 0 and "thread ok" in threads.output and "fork ok" in threads.output
