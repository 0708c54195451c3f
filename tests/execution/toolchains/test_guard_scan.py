"""The placeholder scan a toolchain keeps (guards.GuardScan): a file read in place is scanned once per content,
a file a build reads from its swap every time; guarded_sources copies only files holding a placeholder."""
from __future__ import annotations

import os

from repotrans.execution.toolchains.guards import GUARD_CLASS, GuardScan, guard_text, guarded_sources

PLACEHOLDER = "class A { int F() { throw new NotImplementedException(); } }\n"
PLAIN = "class A { int F() { return 1; } }\n"


def test_a_file_in_place_is_scanned_once_per_content_and_a_swapped_file_each_time(tmp_path):
    path = tmp_path / "A.cs"
    path.write_text(PLACEHOLDER)
    scan = GuardScan()
    first = scan.guarded(path, in_place=True)
    assert first == guard_text(PLACEHOLDER) and f"global::{GUARD_CLASS}.Reached(" in first
    st = path.stat()
    path.write_text(PLACEHOLDER.replace("A", "B"))             # same size and time: read from the memo
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert scan.guarded(path, in_place=True) == first
    assert "class B" in scan.guarded(path, in_place=False)    # a swap's file is read each time
    path.write_text(PLAIN + "// changed\n")                   # another content: scanned again
    assert scan.guarded(path, in_place=True) is None


def test_guarded_sources_copy_only_files_with_a_placeholder_and_read_swaps(tmp_path):
    a, b, swapped = tmp_path / "A.cs", tmp_path / "B.cs", tmp_path / "swap" / "B.cs"
    a.write_text(PLACEHOLDER)
    b.write_text(PLAIN)
    swapped.parent.mkdir()
    swapped.write_text(PLACEHOLDER.replace("class A", "class B"))
    scan = GuardScan()
    copies, guard = guarded_sources(tmp_path, tmp_path / "guarded", [a, b], {}, {a: "A.cs", b: "B.cs"}, scan)
    assert list(copies) == [a] and guard[0].name == "RepotransPlaceholderGuard.cs"
    assert copies[a].read_text().startswith(f'#line 1 "{tmp_path / "A.cs"}"')
    copies, _ = guarded_sources(tmp_path, tmp_path / "guarded", [a, b], {b: swapped},
                                {a: "A.cs", b: "B.cs", swapped: "swap/B.cs"}, scan)
    assert sorted(copies) == sorted([a, b]) and "class B" in copies[b].read_text()
