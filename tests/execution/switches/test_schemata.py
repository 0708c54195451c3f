"""Mutant schemata: which members are guarded, and how the guard reads."""
from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field

import pytest

from repotrans.execution.switches.schemata import SWITCH_CLASS, guard_text, unguardable


@dataclass
class _M:
    id: str
    kind: str
    body_start_byte: int | None
    body_end_byte: int | None
    return_type: str | None = "int"
    modifiers: list[str] = field(default_factory=list)


def _method(source: bytes, body: bytes, kind: str = "method", returns: str = "int") -> _M:
    start = source.index(body)
    return _M(f"target:{kind}", kind, start, start + len(body), returns)


SOURCE = b"""class C {
    C(int x) : base() { this.x = x; }
    int Twice(int y) { return y * 2; }
    int Half(int y) => y / 2;
    System.Collections.Generic.IEnumerable<int> Up() { yield return 1; }
    int P { get { return 1; } }
}
"""


def test_methods_and_constructors_with_block_bodies_are_guarded_the_rest_go_per_task():
    assert unguardable(_method(SOURCE, b"{ this.x = x; }", "constructor"), SOURCE) is None
    assert unguardable(_method(SOURCE, b"{ return y * 2; }"), SOURCE) is None
    assert unguardable(_method(SOURCE, b"=> y / 2;"), SOURCE) is None
    assert "iterator" in unguardable(_method(SOURCE, b"{ yield return 1; }"), SOURCE)
    assert unguardable(_method(SOURCE, b"{ get { return 1; } }", "property"), SOURCE) is None
    assert unguardable(_M("target:x", "method", None, None), SOURCE) == "no body"


def test_the_guard_opens_each_body_and_keeps_the_rest_byte_for_byte():
    ctor, twice = _method(SOURCE, b"{ this.x = x; }", "constructor"), _method(SOURCE, b"{ return y * 2; }")
    out = guard_text(SOURCE, [(twice, 7), (ctor, 3)], SWITCH_CLASS).decode()
    guard = "throw new global::System.NotImplementedException();"
    assert f"C(int x) : base() {{ if (global::{SWITCH_CLASS}.On(3)) {guard} this.x = x; }}" in out
    assert f"int Twice(int y) {{ if (global::{SWITCH_CLASS}.On(7)) {guard} return y * 2; }}" in out
    assert out.replace(f" if (global::{SWITCH_CLASS}.On(3)) {guard}", "").replace(
        f" if (global::{SWITCH_CLASS}.On(7)) {guard}", "") == SOURCE.decode()


PROPERTIES = b"""using System;
public class S { public static bool On(int n) { return Environment.GetEnvironmentVariable("SW") == n.ToString(); } }
public class C {
    int x = 1; int[] a = { 10, 20 };
    public int Block { get { return x; } set { x = value; } }
    public int Arrows { get => x + 1; private set => x = value; }
    public int Arrow => x + 2;
    public int this[int i] { get => a[i]; set { a[i] = value; } }
    public int Throws { get => throw new InvalidOperationException(); }
    public int Auto { get; set; }
    public int Half(int y) => y / 2;
    public void Put(int v) => x = v;
    public static void Main() {
        var c = new C();
        foreach (var read in new Func<int>[] { () => c.Block, () => c.Arrows, () => c.Arrow, () => c[1],
                                                () => { c.Block = 5; return c.x; }, () => { c.Arrows = 6; return c.x; },
                                                () => { c[0] = 7; return c.a[0]; }, () => c.Throws,
                                                () => c.Half(9), () => { c.Put(8); return c.x; } }) {
            try { Console.Write(read() + " "); } catch (Exception e) { Console.Write(e.GetType().Name + " "); }
        }
    }
}
"""


def test_each_accessor_of_a_property_or_indexer_throws_with_its_switch_on_and_runs_as_written_off(tmp_path):
    """Guarded as the placeholder throws (datasets.masking): every accessor, block or arrow, of the member, and
    a method's expression body (returning a value or nothing); an auto property has no body to guard."""
    if shutil.which("mcs") is None:
        pytest.skip("mono's mcs is not installed")
    members = {b"{ get { return x; } set { x = value; } }": 1, b"{ get => x + 1; private set => x = value; }": 2,
               b"=> x + 2;": 3, b"{ get => a[i]; set { a[i] = value; } }": 4,
               b"{ get => throw new InvalidOperationException(); }": 5, b"=> y / 2;": 6, b"=> x = v;": 7}
    kinds = {4: ("indexer", "int"), 6: ("method", "int"), 7: ("method", "void")}
    guards = [(_method(PROPERTIES, body, *kinds.get(switch, ("property", "int"))), switch)
              for body, switch in members.items()]
    assert all(unguardable(m, PROPERTIES) is None for m, _ in guards)
    assert unguardable(_method(PROPERTIES, b"{ get; set; }", "property"), PROPERTIES) == "an accessor without a body"
    (tmp_path / "c.cs").write_bytes(guard_text(PROPERTIES, guards, "S"))
    subprocess.run(["mcs", "-out:" + str(tmp_path / "c.exe"), str(tmp_path / "c.cs")], check=True, capture_output=True)

    def run(switch: int) -> list[str]:
        return subprocess.run(["mono", str(tmp_path / "c.exe")], env={"SW": str(switch), "PATH": "/usr/bin:/bin"},
                              capture_output=True, text=True, check=True).stdout.split()

    nie, ioe = "NotImplementedException", "InvalidOperationException"
    assert run(0) == ["1", "2", "3", "20", "5", "6", "7", ioe, "4", "8"]
    assert run(1) == [nie, "2", "3", "20", nie, "6", "7", ioe, "4", "8"]
    assert run(2) == ["1", nie, "3", "20", "5", nie, "7", ioe, "4", "8"]
    assert run(3) == ["1", "2", nie, "20", "5", "6", "7", ioe, "4", "8"]
    assert run(4) == ["1", "2", "3", nie, "5", "6", nie, ioe, "4", "8"]
    assert run(5) == ["1", "2", "3", "20", "5", "6", "7", nie, "4", "8"]
    assert run(6) == ["1", "2", "3", "20", "5", "6", "7", ioe, nie, "8"]
    assert run(7) == ["1", "2", "3", "20", "5", "6", "7", ioe, "4", nie]
