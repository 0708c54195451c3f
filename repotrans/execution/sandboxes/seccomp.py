"""A seccomp filter for the local sandbox (bwrap --seccomp FD), assembled as classic BPF here: no
library needed. Denied with EPERM: new namespaces of any kind (unshare, clone with CLONE_NEW* flags,
setns), ptrace and process_vm_readv/writev, mount and its relatives, bpf, keyctl and friends,
perf_event_open, module loading, kexec, reboot, userfaultfd. clone3 answers ENOSYS (its flags sit in
memory a filter cannot read), so the C library falls back to clone, whose flags it can. Syscalls of
another architecture or of the x32 ABI are refused too. A test command of a task whose Java original
starts no process (`processes=False`) also gets EPERM for fork, vfork and a clone that makes no thread
(no CLONE_THREAD): its threads run, no child process starts. Where a sandbox cannot attach a
filter to the command itself (`docker exec` takes none), the test runner installs the same program on
all its threads before any test code loads (`runner_env`, nunit_runner.cs ProcessFilter).
"""
from __future__ import annotations

import base64
import errno
import os
import platform
import struct

AUDIT_ARCH_X86_64 = 0xC000003E
X32_BIT = 0x40000000
CLONE_NEW_FLAGS = 0x7E020000        # NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET
CLONE_NEWTIME = 0x80                # in clone's flags too (Linux 5.6)
CLONE_THREAD = 0x00010000
FORK, VFORK = 57, 58
# x86_64 syscall numbers
CLONE, UNSHARE, CLONE3 = 56, 272, 435
DENIED = {
    "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "setns": 308,
    "mount": 165, "umount2": 166, "pivot_root": 155, "chroot": 161, "open_tree": 428, "move_mount": 429,
    "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442,
    "bpf": 321, "perf_event_open": 298, "keyctl": 250, "add_key": 248, "request_key": 249,
    "init_module": 175, "finit_module": 313, "delete_module": 176, "kexec_load": 246, "kexec_file_load": 320,
    "reboot": 169, "swapon": 167, "swapoff": 168, "acct": 163, "userfaultfd": 323, "open_by_handle_at": 304,
    "unshare": UNSHARE,
}

LD_W_ABS, JEQ, JSET, JGE, RET = 0x20, 0x15, 0x45, 0x35, 0x06
RET_ALLOW = 0x7FFF0000
RET_ERRNO = 0x00050000
RET_KILL_PROCESS = 0x80000000
NR, ARCH, ARG0_LOW = 0, 4, 16


def supported() -> bool:
    """The filter is written for x86_64 Linux."""
    return platform.system() == "Linux" and platform.machine() in ("x86_64", "AMD64")


def program(processes: bool = True) -> bytes:
    """The filter as bwrap reads it: an array of struct sock_filter {u16 code; u8 jt, jf; u32 k}.
    `processes=False`: no new process either (fork, vfork, clone without CLONE_THREAD)."""
    deny = RET_ERRNO | errno.EPERM
    ins: list[tuple[int, int, int, int]] = [
        (LD_W_ABS, 0, 0, ARCH),
        (JEQ, 1, 0, AUDIT_ARCH_X86_64),
        (RET, 0, 0, RET_KILL_PROCESS),
        (LD_W_ABS, 0, 0, NR),
        (JGE, 0, 1, X32_BIT),
        (RET, 0, 0, deny),
        (JEQ, 0, 1, CLONE3),
        (RET, 0, 0, RET_ERRNO | errno.ENOSYS),
        (JEQ, 0, 6 if not processes else 4, CLONE),
        (LD_W_ABS, 0, 0, ARG0_LOW),                 # clone's flags (low 32 bits)
        (JSET, 0, 1, CLONE_NEW_FLAGS | CLONE_NEWTIME),
        (RET, 0, 0, deny),
    ]
    if not processes:                               # a clone without CLONE_THREAD is a new process
        ins += [(JSET, 1, 0, CLONE_THREAD), (RET, 0, 0, deny)]
    ins += [(RET, 0, 0, RET_ALLOW)]
    if not processes:
        ins += [(JEQ, 0, 1, FORK), (RET, 0, 0, deny), (JEQ, 0, 1, VFORK), (RET, 0, 0, deny)]
    for nr in sorted(set(DENIED.values())):
        ins += [(JEQ, 0, 1, nr), (RET, 0, 0, deny)]
    ins.append((RET, 0, 0, RET_ALLOW))
    return b"".join(struct.pack("<HBBI", *i) for i in ins)


def program_fd(processes: bool = True) -> int:
    """A readable fd holding program() (bwrap reads it to the end); the caller passes and closes it."""
    read, write = os.pipe()
    os.write(write, program(processes))              # far below a pipe's capacity
    os.close(write)
    return read


RUNNER_VARIABLE = "REPOTRANS_PROCESS_FILTER"


def runner_env(processes: bool) -> dict[str, str]:
    """The environment asking repotrans's test runner to install program(processes) on itself (it
    reads and clears the variable first thing, runs no test when the filter does not hold): {} when
    processes are allowed or the filter is not written for this machine."""
    if processes or not supported():
        return {}
    return {RUNNER_VARIABLE: base64.b64encode(program(False)).decode("ascii")}
