"""bench_whole_types applies a regenerated class's compiled bodies together when its translated tests pass
with all of them (each alone fails on its siblings' placeholders), and only then (issue 34 item 9)."""
from __future__ import annotations

import textwrap
from pathlib import Path

from repotrans.runs.store import RunStore, TaskRecord
from repotrans.index.store import Index
from tests.scripts.test_bench_whole_types import _bench

JAVA = """\
    package org.demo;

    public class Meter {
        private int value;
        public Meter(int value) { this.value = value; }
        public int read() { return value; }
    }
    """
CS = """\
using System;

namespace Demo
{
    public class Meter
    {
        private int value;
        public Meter(int value)
        {
            throw new NotImplementedException();
        }
        public int read()
        {
            throw new NotImplementedException();
        }
    }
}
"""
BODIES = {"Demo.Meter.<init>(int)": "public Meter(int value)\n{\n    this.value = value;\n}",
          "Demo.Meter.read()": "public int read()\n{\n    return value;\n}"}


def _setup(tmp_path: Path, status: dict[str, str]) -> tuple[Path, Path, Path]:
    java, cs, run = tmp_path / "java", tmp_path / "cs", tmp_path / "run"
    (java / "org" / "demo").mkdir(parents=True)
    (java / "org" / "demo" / "Meter.java").write_text(textwrap.dedent(JAVA))
    cs.mkdir()
    (cs / "Meter.cs").write_text(CS)
    index = Index.open(tmp_path / "ix")
    index.build(java, cs, progress=False)
    ids = {m.id.split(":", 1)[1] for m in index.all_methods("target")}
    index.close()
    assert ids == set(BODIES), ids
    store = RunStore(run)
    for task, code in BODIES.items():
        store.add(TaskRecord("builtin", "d", task, status[task], code=code))
    store.close()
    return java, cs, run


def test_a_class_whose_bodies_pass_only_together_is_applied_as_a_class(tmp_path):
    java, cs, run = _setup(tmp_path, {t: "runtime_error" for t in BODIES})
    seen = []

    def judge(port, tests, work):
        seen.append((tests, (port / "Meter.cs").read_text()))
        return 1, 0, "", []
    apply_bodies = _bench("whole_types_apply").apply_bodies
    applied, joint, left = apply_bodies(run, cs, java, ["tests/MeterTest.cs", "tests/OtherTest.cs"], judge,
                                        tmp_path / "j")
    assert (applied, joint, sum(left.values())) == (0, 2, 0)
    assert [tests for tests, _ in seen] == [["tests/MeterTest.cs", "tests/OtherTest.cs"], ["tests/MeterTest.cs"]]
    assert "this.value = value;" not in seen[0][1]  # every translated file, once, before any body
    assert "this.value = value;" in seen[1][1]      # then the class's own, with its bodies
    text = (cs / "Meter.cs").read_text()
    assert "this.value = value;" in text and "return value;" in text and "NotImplementedException()" not in text


def test_a_class_failing_its_translated_tests_keeps_its_placeholders(tmp_path):
    java, cs, run = _setup(tmp_path, {"Demo.Meter.<init>(int)": "passed", "Demo.Meter.read()": "blocked"})
    apply_bodies = _bench("whole_types_apply").apply_bodies
    applied, joint, left = apply_bodies(run, cs, java, ["tests/MeterTest.cs"], lambda p, t, w: (1, 1, "", []),
                                        tmp_path / "j")
    assert (applied, joint, dict(left)) == (1, 0, {"blocked": 1})
    text = (cs / "Meter.cs").read_text()
    assert "this.value = value;" in text and "return value;" not in text
    _, _, left = apply_bodies(run, cs, java, [], lambda p, t, w: (1, 0, "", []), tmp_path / "k")
    assert dict(left) == {"blocked": 1}             # no translated tests of the class: nothing applied jointly


def test_classes_that_pass_only_together_are_applied_together(tmp_path):
    """Two regenerated classes that call each other (NSoup's TextNode and StringUtil): each class's tests
    fail while the other's bodies are placeholders, so neither is applied alone; together they pass."""
    java, cs, run = _with_gauge(tmp_path)
    seen: list[list[str]] = []
    judge = _passing_with_both(seen)
    apply_bodies = _bench("whole_types_apply").apply_bodies
    applied, joint, left = apply_bodies(run, cs, java, ["tests/MeterTest.cs", "tests/GaugeTest.cs"], judge,
                                        tmp_path / "j")
    both = ["tests/GaugeTest.cs", "tests/MeterTest.cs"]
    assert seen == [both[::-1], ["tests/GaugeTest.cs"], ["tests/MeterTest.cs"], both]   # before bodies, alone, together
    assert (applied, joint, sum(left.values())) == (0, 3, 0)
    assert "return 2;" in (cs / "Gauge.cs").read_text() and "return value;" in (cs / "Meter.cs").read_text()


def test_bodies_whose_tests_stop_only_in_placeholders_are_applied(tmp_path):
    """A translated test that stops in a placeholder (a member left out, or whose body failed) does not
    contradict the bodies (NSoup's StringUtil.join(Iterator) is left out; its join test throws
    NotImplementedException while the other seven pass); a failed assertion does."""
    apply_bodies = _bench("whole_types_apply")
    stop = apply_bodies.stopped_in_placeholders(1)
    java, cs, run = _setup(tmp_path, {t: "blocked" for t in BODIES})
    applied, joint, left = apply_bodies.apply_bodies(run, cs, java, ["tests/MeterTest.cs"],
                                                     lambda p, t, w: (8, 1, stop, []), tmp_path / "j")
    assert (applied, joint, sum(left.values())) == (0, 2, 0)
    java, cs, run = _setup(tmp_path / "b", {t: "blocked" for t in BODIES})
    applied, joint, left = apply_bodies.apply_bodies(run, cs, java, ["tests/MeterTest.cs"],
                                                     lambda p, t, w: (8, 1, "1 test(s) failed", []), tmp_path / "k")
    assert (applied, joint, dict(left)) == (0, 0, {"blocked": 2})


def test_a_class_without_tests_is_applied_with_the_class_whose_tests_need_it(tmp_path):
    """HdrHistogram's HistogramData: its translated tests stop in HistogramIterationValue, a regenerated class
    with no translated test of its own, so its bodies were never applied and HistogramData's failed alone.
    The untested classes' compiled bodies join the failing classes' unit, judged by their tests."""
    java, cs, run = _with_gauge(tmp_path)
    seen: list[list[str]] = []
    judge = _passing_with_both(seen)
    apply_bodies = _bench("whole_types_apply").apply_bodies
    applied, joint, left = apply_bodies(run, cs, java, ["tests/MeterTest.cs"], judge, tmp_path / "j")
    assert seen == [["tests/MeterTest.cs"]] * 3       # before the bodies, Meter alone, with Gauge's
    assert (applied, joint, sum(left.values())) == (0, 3, 0)
    assert "return 2;" in (cs / "Gauge.cs").read_text() and "return value;" in (cs / "Meter.cs").read_text()


def _with_gauge(tmp_path: Path) -> tuple[Path, Path, Path]:
    """_setup's pair with a second regenerated class, Gauge, whose blocked body Meter's passing needs."""
    java, cs, run = _setup(tmp_path, {t: "blocked" for t in BODIES})
    (java / "org" / "demo" / "Gauge.java").write_text("package org.demo;\n\npublic class Gauge {\n"
                                                     "    public int read() { return 2; }\n}\n")
    (cs / "Gauge.cs").write_text("using System;\n\nnamespace Demo\n{\n    public class Gauge\n    {\n"
                                 "        public int read()\n        {\n            throw new NotImplementedException();\n"
                                 "        }\n    }\n}\n")
    store = RunStore(run)
    store.add(TaskRecord("builtin", "d", "Demo.Gauge.read()", "blocked", code="public int read()\n{\n    return 2;\n}"))
    store.close()
    return java, cs, run


def _passing_with_both(seen: list[list[str]]):
    """A judge whose tests pass only when Meter's and Gauge's bodies are both in the port; it notes what it ran."""
    def judge(port, tests, work):
        both = "return value;" in (port / "Meter.cs").read_text() and "return 2;" in (port / "Gauge.cs").read_text()
        seen.append(tests)
        return 2, 0 if both else 1, "", []
    return judge


def test_a_nested_classs_bodies_go_with_its_outer_class(tmp_path):
    """libphonenumber's RegexCache.LRUCache: its bodies (no covering test while they were placeholders) are
    judged and applied with RegexCache's, whose translated tests reach them, not left among untested classes."""
    java, cs, run = tmp_path / "java", tmp_path / "cs", tmp_path / "run"
    (java / "org" / "demo").mkdir(parents=True)
    (java / "org" / "demo" / "Meter.java").write_text(textwrap.dedent(JAVA).replace(
        "public int read() { return value; }",
        "public int read() { return value; }\n        static class Cell { int get() { return 1; } }"))
    cs.mkdir()
    (cs / "Meter.cs").write_text(CS.replace("    }\n}\n", "        class Cell\n        {\n            int get()\n"
                                            "            {\n                throw new NotImplementedException();\n"
                                            "            }\n        }\n    }\n}\n"))
    bodies = {**BODIES, "Demo.Meter.Cell.get()": "int get()\n{\n    return 1;\n}"}
    store = RunStore(run)
    for task, code in bodies.items():
        store.add(TaskRecord("builtin", "d", task, "runtime_error", code=code))
    store.close()
    seen = []

    def judge(port, tests, work):
        seen.append((tests, (port / "Meter.cs").read_text()))
        return 1, 0, "", []
    applied, joint, left = _bench("whole_types_apply").apply_bodies(run, cs, java, ["tests/MeterTest.cs"], judge,
                                                                    tmp_path / "j")
    assert (applied, joint, sum(left.values())) == (0, 3, 0)
    assert len(seen) == 2 and "return 1;" not in seen[0][1]    # before the bodies, then the class with Cell's
    assert "return 1;" in seen[1][1] and "this.value = value;" in seen[1][1]


def test_a_translated_file_unbuildable_before_the_bodies_says_nothing_about_them(tmp_path):
    """HdrHistogram's translated HistogramTest does not build (JDK buffers the translation leaves), with or
    without the bodies: it does not refuse them. A file that built before the bodies and not with them does."""
    files = ["tests/MeterTest.cs", "tests/MeterEncodingTest.cs"]
    apply_bodies = _bench("whole_types_apply").apply_bodies
    java, cs, run = _setup(tmp_path, {t: "blocked" for t in BODIES})
    applied, joint, left = apply_bodies(run, cs, java, files,
                                        lambda p, t, w: (3, 0, "", ["tests/MeterEncodingTest.cs"]), tmp_path / "j")
    assert (applied, joint, sum(left.values())) == (0, 2, 0)
    assert "return value;" in (cs / "Meter.cs").read_text()

    def unbuilt_with_bodies(port, tests, work):
        bodies = "return value;" in (port / "Meter.cs").read_text()
        return 3, 0, "", ["tests/MeterEncodingTest.cs"] if bodies else []
    java, cs, run = _setup(tmp_path / "b", {t: "blocked" for t in BODIES})
    applied, joint, left = apply_bodies(run, cs, java, files, unbuilt_with_bodies, tmp_path / "k")
    assert (applied, joint, dict(left)) == (0, 0, {"blocked": 2})
    assert "return value;" not in (cs / "Meter.cs").read_text()


def test_classes_without_tests_are_judged_by_every_translated_test_when_no_class_failed_alone(tmp_path):
    """HdrHistogram's iterators and ShortHistogram have no translated test of their own; Histogram's pass alone,
    so no class failed alone. Their bodies are judged by every translated test (they were never tried)."""
    apply_bodies = _bench("whole_types_apply").apply_bodies
    java, cs, run = _with_gauge(tmp_path)
    seen: list[list[str]] = []

    def judge(port, tests, work):
        seen.append(tests)
        return 2, 0, "", []
    applied, joint, left = apply_bodies(run, cs, java, ["tests/MeterTest.cs", "tests/OtherTest.cs"], judge,
                                        tmp_path / "j")
    assert seen == [["tests/MeterTest.cs", "tests/OtherTest.cs"], ["tests/MeterTest.cs"],
                    ["tests/MeterTest.cs", "tests/OtherTest.cs"]]
    assert (applied, joint, sum(left.values())) == (0, 3, 0)
    assert "return 2;" in (cs / "Gauge.cs").read_text()
    java, cs, run = _with_gauge(tmp_path / "b")

    def failing_with_gauge(port, tests, work):
        return 2, 1 if "return 2;" in (port / "Gauge.cs").read_text() else 0, "", []
    applied, joint, left = apply_bodies(run, cs, java, ["tests/MeterTest.cs"], failing_with_gauge, tmp_path / "k")
    assert (applied, joint, dict(left)) == (0, 2, {"blocked": 1})
    assert "return 2;" not in (cs / "Gauge.cs").read_text()
