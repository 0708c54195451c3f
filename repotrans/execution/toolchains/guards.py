"""Placeholder guards: the library sources a build compiles, with every placeholder throw reporting to the runner.

A placeholder (`throw new NotImplementedException();`, `throw new NotSupportedException("TODO ...")`, block or
expression-bodied, an accessor's too) is compiled as

    throw global::RepotransPlaceholderGuard.Reached(new NotImplementedException());

in a guarded copy of its file (same lines: a `#line` directive names the original by the absolute path the
compiler would have recorded, so stack frames read as before; the compiler prints that path in diagnostics,
which mono_build reads back relative to the workspace). `Reached` calls the hook the test runner put in the application domain before the
test assembly loaded (nunit_chain.cs), and the runner records the whole call chain there itself, keyed by the
running test. The guard passes nothing but control: what was reached, and through what, is the runtime's own
stack at that moment, read by the runner; which member is a placeholder is decided later from the index
(execution.judge.chain), never from the guard's text. Every library project compiles the guard class, whether
or not it has a placeholder now (a candidate's body may be one); test projects are not guarded (their sources
stay out of the test process's reach).
"""
from __future__ import annotations

import hashlib
import os
import re
import threading
from pathlib import Path

from repotrans.execution.sandboxes import BUILD_UID

GUARD_CLASS = "RepotransPlaceholderGuard"
HOOK_KEY = "repotrans.placeholder-guard"      # the AppDomain data slot the runner fills (nunit_chain.cs)
GUARD_FILE = "RepotransPlaceholderGuard.cs"
# a placeholder's exception at a throw statement's or expression's start (not `global::`-qualified: the mutant
# schemata's own guards stay as they are); the text before `throw` must end a statement or open one
_THROW = re.compile(
    r"(?<=[{};)>:?\s])throw(\s+)(new\s+(?:System\s*\.\s*)?"
    r"(?:NotImplementedException\s*\(\s*(?:@?\"[^\"\\\n]*\"\s*)?\)"
    r"|NotSupportedException\s*\(\s*\"(?i:TODO|not implemented|not yet implemented)[^\"\\\n]*\"\s*\)))")
_STATEMENT_END = re.compile(r"(?:[{};)>:?]|\belse)\s*$")
GUARD_SOURCE = f"""// repotrans placeholder guard (generated): each placeholder reached calls the test runner's hook
internal static class {GUARD_CLASS}
{{
    static readonly System.Action hook = System.AppDomain.CurrentDomain.GetData("{HOOK_KEY}") as System.Action;

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    internal static System.Exception Reached(System.Exception e)
    {{
        System.Action h = hook;
        if (h != null) h();
        return e;
    }}
}}
"""


def guard_text(text: str) -> str | None:
    """`text` with each placeholder throw guarded (the same lines), or None when it holds none."""
    found = False
    out, last = [], 0
    for m in _THROW.finditer(text):
        if not _STATEMENT_END.search(text[max(0, m.start() - 80):m.start()]):
            continue
        found = True
        out += [text[last:m.start()], f"throw{m.group(1)}global::{GUARD_CLASS}.Reached({m.group(2)})"]
        last = m.end()
    return "".join(out) + text[last:] if found else None


class GuardScan:
    """guard_text of the files a toolchain compiles in place, read once per content (path, size, modification
    time): a workspace's copy of the target does not change, and each build of a big port would read every
    library file again (2,700 on NPOI: 0.3-0.5 s a build, seconds beside other Python). A file read from a
    build's swap (a candidate's, the schemata's) is read each time. One instance per toolchain; never global."""

    def __init__(self) -> None:
        self._found: dict[tuple[str, int, int], str | None] = {}
        self._lock = threading.Lock()

    def guarded(self, path: Path, in_place: bool) -> str | None:
        """`path`'s text with its placeholders guarded, None when it holds none (OSError, UnicodeDecodeError:
        unreadable)."""
        if not in_place:
            return guard_text(path.read_text(encoding="utf-8-sig"))
        st = path.stat()
        key = (str(path), st.st_size, st.st_mtime_ns)
        with self._lock:
            if key in self._found:
                return self._found[key]
        found = guard_text(path.read_text(encoding="utf-8-sig"))
        with self._lock:
            self._found[key] = found
        return found


def guarded_sources(root: Path, folder: Path, sources: list[Path], swap: dict[Path, Path],
                    shown: dict[Path, str], scan: GuardScan | None = None) -> tuple[dict[Path, Path], list[Path]]:
    """For one library project: source -> its guarded copy under `folder` (for each file read from `swap` or
    in place that holds a placeholder), and the guard class to compile with them: in every library build, the
    baseline's too, so it is never a candidate's code (the capability checker judges what a build adds).
    `shown[path]`: the file name the compiler is given for it (relative to `root`, its working folder), whose
    absolute path the copy's `#line` names. `scan`: the toolchain's memo of files read in place."""
    scan = scan or GuardScan()
    guarded: dict[Path, Path] = {}
    for src in sources:
        read = swap.get(src, src)
        try:
            new = scan.guarded(read, in_place=read is src)
        except (OSError, UnicodeDecodeError):
            continue
        if new is None:
            continue
        body = f'#line 1 "{os.path.abspath(root / shown.get(read, read))}"\n{new}'
        digest = hashlib.sha256(body.encode()).hexdigest()[:16]
        guarded[src] = _write(folder / digest / read.name, body)
    return guarded, [_write(folder / GUARD_FILE, GUARD_SOURCE)]


def _write(path: Path, text: str) -> Path:
    """`text` at `path` (kept when already there), readable by the build uid alone when we are root."""
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    if os.geteuid() == 0:
        os.chown(tmp, 0, BUILD_UID)
        os.chmod(tmp, 0o640)
    tmp.replace(path)
    return path
