"""What a sync edit reaches that the port does not give it yet (sync/reach.py): a member added
upstream that the new body calls is filled in the same judged step; a member C# keeps private where Java
reaches it from its package is made internal (CS0122); and the port's tests that follow a JUnit test
changed upstream (by name, or by the old expectation they hold) are left out of the verdicts."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from repotrans.execution.toolchains import Limits
from repotrans.sync.diff import Change
from repotrans.sync.port import FileSnapshot, widen_member
from repotrans.sync.reach import inaccessible, new_callees
from repotrans.sync.steps import SyncSteps
from repotrans.sync.upstream_tests import dropped_literals
from repotrans.index.store import Index
from repotrans.mapping.load import load_mapping

JAVA = ("package p;\npublic final class Outer {\n"
        "  static final class Edge {\n    int size(int n) { return n + 1; }\n  }\n"
        "  static final class Result {\n    int bytes;\n"
        "    Result(Edge e) { bytes = e.size(2); bytes += pad(bytes); }\n"
        "    private static int pad(int at) { return at % 3; }\n  }\n}\n")
CS = ("namespace Z\n{\n    public sealed class Outer\n    {\n"
      "        internal sealed class Edge\n        {\n            int size(int n) { return n + 1; }\n"
      "            private int Spare() { return 0; }\n        }\n"
      "        internal sealed class Result\n        {\n            int bytes;\n"
      "            public Result(Edge e) { bytes = 0; }\n"
      "            private static int pad(int at) { throw new NotImplementedException(); }\n"
      "        }\n    }\n}\n")


def _index(tmp_path: Path) -> Index:
    (tmp_path / "java" / "p").mkdir(parents=True)
    (tmp_path / "cs").mkdir()
    (tmp_path / "java" / "p" / "Outer.java").write_text(JAVA)
    (tmp_path / "cs" / "Outer.cs").write_text(CS)
    index = Index.open(tmp_path / "index")
    index.build(tmp_path / "java", tmp_path / "cs", progress=False)
    return index


def _cs0122(member: str):
    return SimpleNamespace(diagnostics=[SimpleNamespace(
        code="CS0122", severity="error", message=f"`{member}' is inaccessible due to its protection level")])


def test_a_member_java_reaches_from_its_package_is_made_internal_and_put_back(tmp_path):
    index = _index(tmp_path)
    try:
        mapping = load_mapping(index)
        found = inaccessible(_cs0122("Z.Outer.Edge.size(int)"), index, mapping)
        assert [m.id for m in found] == ["target:Z.Outer.Edge.size(int)"]
        assert inaccessible(_cs0122("Z.Outer.Edge.Spare()"), index, mapping) == []     # port-only: no Java
        snap = FileSnapshot(tmp_path / "cs")
        assert widen_member(tmp_path / "cs", found[0], snap) == ["Outer.cs"]
        text = (tmp_path / "cs" / "Outer.cs").read_text()
        assert "internal int size(int n) { return n + 1; }" in text and "private int Spare()" in text
        snap.restore()
        assert (tmp_path / "cs" / "Outer.cs").read_text() == CS
    finally:
        index.close()


def test_an_added_member_the_new_body_calls_is_found_with_its_placeholder(tmp_path):
    index = _index(tmp_path)
    try:
        mapping = load_mapping(index)
        ctor = index.method("source:p.Outer.Result.<init>(Edge)")
        pad = Change("added", None, "source:p.Outer.Result.pad(int)")
        methods = {m.id: m for m in index.all_methods("source")}
        found = new_callees(ctor, {pad.new_id: pad}, methods, index, mapping)
        assert [(c, t.id) for c, t in found] == [(pad, "target:Z.Outer.Result.pad(int)")]
        size = Change("added", None, "source:p.Outer.Edge.size(int)")            # not a placeholder in the port
        assert new_callees(ctor, {size.new_id: size}, methods, index, mapping) == []
    finally:
        index.close()


def test_the_old_expectation_a_changed_junit_test_dropped_names_the_port_tests_that_follow_it():
    old = 'assertEquals("239 209 116 42", v); v = f(UTF_8); assertEquals("241 27 116 42", v); assertEquals(1, n);'
    new = 'assertEquals("239 209 116 42 129", v); v = f(UTF_8); assertEquals("241 27 116 42 129 1", v); ' \
          'assertEquals(3, n);'
    assert dropped_literals(old, new) == {"239 209 116 42", "241 27 116 42"}
    assert dropped_literals('f("abc")', 'g("abc")') == set()                  # kept: no expectation dropped


def test_superseded_port_tests_join_the_known_failures_of_the_runner():
    runner = SimpleNamespace(limits=Limits(timeout=1.0, memory_mb=64, known_failures=((":A.B.c", "env"),)))
    steps = SyncSteps(index=None, after=None, work=None, runner=runner, config=None, report=None, say=None,
                      old_tree=None, new_tree=None, old_index=None, old_mapping=None, ledger=None)
    steps.supersede({":Z.T.testSizes": "changed upstream"})
    assert dict(runner.limits.known_failures) == {":A.B.c": "env", ":Z.T.testSizes": "changed upstream"}
    assert steps.superseded == {":Z.T.testSizes": "changed upstream"}
