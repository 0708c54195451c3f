"""The live processes of this machine, found by their command lines (sandboxed runs leave none behind)."""
from __future__ import annotations

import os
from pathlib import Path


def commands_mentioning(text: str) -> list[str]:
    """Command lines of live processes other than this one that contain `text`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if text in cmd and int(pid) != os.getpid():
            found.append(cmd)
    return found
