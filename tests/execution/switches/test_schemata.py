"""Mutant schemata: which members are guarded, and how the guard reads."""
from __future__ import annotations

from dataclasses import dataclass

from repotrans.execution.switches.schemata import SWITCH_CLASS, guard_text, unguardable


@dataclass
class _M:
    id: str
    kind: str
    body_start_byte: int | None
    body_end_byte: int | None


def _method(source: bytes, body: bytes, kind: str = "method") -> _M:
    start = source.index(body)
    return _M(f"target:{kind}", kind, start, start + len(body))


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
    assert "expression body" in unguardable(_method(SOURCE, b"=> y / 2;"), SOURCE)
    assert "iterator" in unguardable(_method(SOURCE, b"{ yield return 1; }"), SOURCE)
    assert "property" in unguardable(_method(SOURCE, b"{ get { return 1; } }", "property"), SOURCE)
    assert unguardable(_M("target:x", "method", None, None), SOURCE) == "no body"


def test_the_guard_opens_each_body_and_keeps_the_rest_byte_for_byte():
    ctor, twice = _method(SOURCE, b"{ this.x = x; }", "constructor"), _method(SOURCE, b"{ return y * 2; }")
    out = guard_text(SOURCE, [(twice, 7), (ctor, 3)], SWITCH_CLASS).decode()
    guard = "throw new global::System.NotImplementedException();"
    assert f"C(int x) : base() {{ if (global::{SWITCH_CLASS}.On(3)) {guard} this.x = x; }}" in out
    assert f"int Twice(int y) {{ if (global::{SWITCH_CLASS}.On(7)) {guard} return y * 2; }}" in out
    assert out.replace(f" if (global::{SWITCH_CLASS}.On(3)) {guard}", "").replace(
        f" if (global::{SWITCH_CLASS}.On(7)) {guard}", "") == SOURCE.decode()
