"""Java test code is never library code: JUnit classes, their bases and the harness they share, beside
the library in one folder, are left out of tasks, the dry run's misses, the mapping and parity, as C#
test projects are; `--junit DIR` names a folder of tests the layout does not show."""
from __future__ import annotations

import shutil
from pathlib import Path

from repotrans.cli.main import main
from repotrans.index.store import Index
from repotrans.mapping.load import load_mapping
from repotrans.mapping.overrides import MappingOverrides
from repotrans.mapping.test_code import index_test_files
from repotrans.parity.api import parity
from repotrans.runs.batch_plan import plan_batch

PAIR = Path(__file__).resolve().parents[1] / "fixtures" / "stranger_pair"
RING = "src/com/example/ring"
PROBE = """package com.example.ring;

public class RingProbe {
    public static boolean probe() {
        RingBuffer ring = new RingBuffer(1);
        ring.add(1);
        return ring.isFull();
    }
}
"""


def _index(tmp_path: Path, probe: bool = False) -> Index:
    shutil.copytree(PAIR, tmp_path / "pair")
    if probe:                       # a test folder no layout rule knows: named by --junit only
        folder = tmp_path / "pair" / "java" / "probes" / "com" / "example" / "ring"
        folder.mkdir(parents=True)
        (folder / "RingProbe.java").write_text(PROBE)
    index = Index.open(tmp_path / "wd")
    index.build(tmp_path / "pair" / "java", tmp_path / "pair" / "csharp", progress=False)
    return index


def test_junit_classes_their_bases_and_harness_beside_the_library_are_test_code(tmp_path):
    index = _index(tmp_path)
    assert sorted(index_test_files(index, "source")) == [
        f"{RING}/CounterCheck.java",        # @org.junit.Test, no import
        f"{RING}/LegacyRingCase.java",      # extends the project's own TestCase subclass
        f"{RING}/RingBufferTest.java",      # imports org.junit
        f"{RING}/RingHarness.java",         # test support: used by the tests, by no library code
        f"{RING}/RingTestBase.java"]        # extends junit.framework.TestCase
    # Counter is used by the tests only too, but it is no test support by name: library code


def test_the_dry_run_lists_no_java_test_code_and_tasks_are_the_library_placeholders(tmp_path):
    index = _index(tmp_path)
    plan = plan_batch(index, load_mapping(index))
    assert sorted(t.target_method_id for t in plan.tasks) == [
        "target:Example.Ring.Counter.See(int)", "target:Example.Ring.RingBuffer.IsFull()",
        "target:Example.Ring.RingBuffer.Take()"]
    assert plan.missing_types == {}
    listed = [m for ms in plan.missing_members.values() for m in ms]
    assert not [m for m in listed if m.startswith(("addThenTake", "helper", "testEmpty", "counts", "filled"))]
    mapping = load_mapping(index)
    test_types = {t.id for t in index.types("source") if t.path in index_test_files(index, "source")}
    library = {t.id for t in index.types("target") if "Tests" not in t.id}
    assert not [m for m in mapping.type_matches if m.source_id in test_types and m.target_id in library]


def test_junit_dir_names_tests_the_layout_does_not_show(tmp_path):
    index = _index(tmp_path, probe=True)
    assert "com.example.ring.RingProbe" in plan_batch(index, load_mapping(index)).missing_types
    folder = str(tmp_path / "pair" / "java" / "probes")
    overrides = MappingOverrides(java_tests=(folder,))
    assert "com.example.ring.RingProbe" not in plan_batch(index, load_mapping(index, overrides), java_tests=overrides.java_tests).missing_types
    report = parity(index, load_mapping(index, overrides), java_tests=overrides.java_tests)
    shown = {e.java for g in report.groups for c in ("missing", "matched", "signature") for e in g.of(c)}
    assert "com.example.ring.RingProbe" not in shown and "com.example.ring.RingBuffer" in shown
    assert not [j for j in shown if j and ("RingBufferTest" in j or "RingHarness" in j)]


def test_batch_takes_junit_without_create_missing(tmp_path, capsys):
    _index(tmp_path, probe=True).close()
    java, cs = tmp_path / "pair" / "java", tmp_path / "pair" / "csharp"
    code = main(["--workdir", str(tmp_path / "wd"), "batch", "--dry-run", "--source", str(java), "--target", str(cs),
                 "--junit", str(java / "probes")])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "RingProbe" not in out.out and "RingHarness" not in out.out and "3 tasks" in out.out
