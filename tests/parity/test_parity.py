"""`repotrans parity` on the sample: a complete port is at parity; edits on either side show up in
their category (exact structures), exclusions take entries out and name unused rules, --fail-over
gives CI an exit status."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from repotrans.cli.main import main
from repotrans.errors import ConfigError
from repotrans.parity.api import parity
from repotrans.parity.exclude import Exclusions
from repotrans.parity.render import render
from repotrans.index.store import Index
from repotrans.mapping.load import load_mapping

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"
CIRCLE_JAVA = "java/src/main/java/org/acme/geometry/shapes/Circle.java"
CIRCLE_CS = "csharp/src/Acme.Geo/Shapes/Circle.cs"
STRINGS_CS = "csharp/src/Acme.Geo/Common/StringUtils.cs"


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


STRANGER_PAIR = Path(__file__).resolve().parents[1] / "fixtures" / "stranger_pair"
JAVA_COUNTER, CS_COUNTER = "java/src/com/example/ring/Counter.java", "csharp/Ring/Counter.cs"


def _edited_pair_parity(tmp_path: Path, edits: list[tuple[str, str, str]]):
    """Parity over a copy of the stranger pair with each (file in the pair, old text, new text) edit made."""
    shutil.copytree(STRANGER_PAIR, tmp_path / "pair")
    for rel, old, new in edits:
        _edit(tmp_path / "pair" / rel, old, new)
    index = Index.open(tmp_path / "wd")
    try:
        index.build(tmp_path / "pair" / "java", tmp_path / "pair" / "csharp", progress=False)
        return parity(index, load_mapping(index))
    finally:
        index.close()


def _outcomes(report, *members: str) -> dict[str, tuple[str, str | None]]:
    """Java member -> (parity category, C# partner) of each of `members` in `report`."""
    entries = {e.java: e for g in report.groups for e in g.entries if e.java}
    return {m: (entries[m].category, entries[m].cs) for m in members}


def _detail(report, member: str) -> tuple[str, ...]:
    return next(e.detail for g in report.groups for e in g.entries if e.java == member)


@pytest.fixture(scope="module")
def edited(tmp_path_factory) -> Path:
    """The sample with one change of each kind: a Java method the port lacks, a Java type the port
    lacks, a parameter type the port changed, a member the port made internal, a port-only method."""
    root = tmp_path_factory.mktemp("parity")
    shutil.copytree(SAMPLE / "java", root / "java")
    shutil.copytree(SAMPLE / "csharp", root / "csharp")
    _edit(root / CIRCLE_JAVA, "    public Circle scale(double factor) {",
          "    public double circumference() {\n        return perimeter();\n    }\n\n"
          "    public Circle scale(double factor) {")
    (root / "java/src/main/java/org/acme/util/Strings2.java").write_text(
        "package org.acme.util;\n\npublic class Strings2 {\n    public static int width(String s) {\n"
        "        return s.length();\n    }\n}\n")
    _edit(root / CIRCLE_CS, "public Circle Scale(double factor)", "public Circle Scale(string factor)")
    _edit(root / CIRCLE_CS, "        public bool Intersects(Circle other)",
          "        public string Debug()\n        {\n            return \"circle\";\n        }\n\n"
          "        internal bool Intersects(Circle other)")
    return root


def _report(root: Path, workdir: Path, exclusions: Exclusions | None = None):
    index = Index.open(workdir)
    try:
        index.build(root / "java", root / "csharp", progress=False)
        return parity(index, load_mapping(index), exclusions)
    finally:
        index.close()


def _not_matched(report) -> list[tuple]:
    return [(g.package, g.namespace, e.category, e.kind, e.java, e.cs, e.detail)
            for g in report.groups for e in g.entries if e.category != "matched"]


def test_the_complete_sample_port_is_at_parity(tmp_path):
    report = _report(SAMPLE, tmp_path / "wd")
    assert report.counts() == {"matched": 200, "missing": 0, "signature": 0, "port_only": 0, "excluded": 0}
    assert [(g.package, g.namespace) for g in report.groups] == [
        ("org.acme.geometry", "Acme.Geo"), ("org.acme.geometry.shapes", "Acme.Geo.Shapes"),
        ("org.acme.geometry.units", "Acme.Geo.Measure"), ("org.acme.util", "Acme.Common")]


def test_each_kind_of_difference_lands_in_its_category(edited, tmp_path):
    report = _report(edited, tmp_path / "wd")
    shapes, util = "org.acme.geometry.shapes", "org.acme.util"
    assert _not_matched(report) == [
        (shapes, "Acme.Geo.Shapes", "missing", "method", f"{shapes}.Circle.circumference()", None,
         ("no C# member by the naming rules; best structural candidate target:Acme.Geo.Shapes.Circle.Debug() "
          "scored 0.23 < 0.6",)),
        (shapes, "Acme.Geo.Shapes", "signature", "method", f"{shapes}.Circle.intersects(Circle)",
         "Acme.Geo.Shapes.Circle.Intersects(Circle)", ("less visible in the port",)),
        # Scale(string) no longer agrees with scale(double): the mapping leaves both unpaired, parity pairs them by
        # name and arity (the port has the member, with another parameter type), and Scale is not port-only
        (shapes, "Acme.Geo.Shapes", "signature", "method", f"{shapes}.Circle.scale(double)",
         "Acme.Geo.Shapes.Circle.Scale(string)",
         ("present by name and arity, not paired by the mapping: no C# member by the naming rules",)),
        (shapes, "Acme.Geo.Shapes", "port_only", "method", None, "Acme.Geo.Shapes.Circle.Debug()", ()),
        (util, "Acme.Common", "missing", "type", f"{util}.Strings2", None, ("no C# type with this name",)),
        (util, "Acme.Common", "missing", "method", f"{util}.Strings2.width(String)", None,
         ("type missing in the port",)),
    ]
    assert report.counts() == {"matched": 198, "missing": 3, "signature": 2, "port_only": 1, "excluded": 0}
    assert report.problems() == 5


def test_a_changed_parameter_type_is_a_signature_difference_when_the_mapping_still_pairs_it(tmp_path):
    root = tmp_path / "pair"
    shutil.copytree(SAMPLE / "java", root / "java")
    shutil.copytree(SAMPLE / "csharp", root / "csharp")
    _edit(root / STRINGS_CS, "public static string Repeat(string text, int times)",
          "public static string Repeat(string text, long times)")
    report = _report(root, tmp_path / "wd")
    diffs = [e for g in report.groups for e in g.entries if e.category == "signature"]
    assert [(e.java, e.cs, e.detail) for e in diffs] == [
        ("org.acme.util.StringUtils.repeat(String, int)", "Acme.Common.StringUtils.Repeat(string, long)",
         ("parameter 2: int in Java, long in the port",))]


def test_exclusions_take_entries_out_by_category_and_name_unused_rules(edited, tmp_path):
    rules = Exclusions.parse("# deliberate differences\n"
                             "missing: org.acme.util.Strings2.*   # not ported yet\n"
                             "port-only: Acme.Geo.Shapes.Circle.Debug()\n"
                             "signature: org.acme.nothing.*\n")
    report = _report(edited, tmp_path / "wd", rules)
    assert sorted((e.java or e.cs, e.category, p, r) for e, p, r in report.excluded) == [
        ("Acme.Geo.Shapes.Circle.Debug()", "port_only", "Acme.Geo.Shapes.Circle.Debug()", ""),
        ("org.acme.util.Strings2", "missing", "org.acme.util.Strings2.*", "not ported yet"),
        ("org.acme.util.Strings2.width(String)", "missing", "org.acme.util.Strings2.*", "not ported yet"),
    ]
    assert report.unused_exclusions == ["line 4: org.acme.nothing.*"]
    assert report.counts() == {"matched": 198, "missing": 1, "signature": 2, "port_only": 0, "excluded": 3}


def test_an_unknown_category_is_one_clear_error():
    with pytest.raises(ConfigError, match=r"exclusions:2: unknown category 'mising:'"):
        Exclusions.parse("org.acme.*\nmising: org.acme.util.Pair.*\n")


def test_formats_carry_the_same_report(edited, tmp_path):
    report = _report(edited, tmp_path / "wd")
    data = json.loads(render(report, "json"))
    assert data["summary"] == report.counts()
    util = next(g for g in data["groups"] if g["package"] == "org.acme.util")
    assert [m["java"] for m in util["missing"]] == ["org.acme.util.Strings2", "org.acme.util.Strings2.width(String)"]
    md = render(report, "md")
    assert "198 matched, 3 missing in the port, 2 signature difference(s), 1 port-only, 0 excluded." in md
    assert ("- method `org.acme.geometry.shapes.Circle.scale(double)` -> `Acme.Geo.Shapes.Circle.Scale(string)`: present "
            "by name and arity, not paired by the mapping: no C# member by the naming rules\n") in md
    page = render(report, "html")
    assert page.count("<tr class='missing'>") == 3 and page.count("<tr class='port_only'>") == 1


def test_cli_exit_status_follows_fail_over(edited, tmp_path, capsys):
    args = ["--workdir", str(tmp_path / "wd"), "parity", "--source", str(edited / "java"),
            "--target", str(edited / "csharp"), "--quiet", "--format", "json"]
    assert main(args + ["--fail-over", "5"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["missing"] == 3
    assert main(args + ["--fail-over", "4"]) == 1
    assert "5 missing or differing declaration(s), over --fail-over 4" in capsys.readouterr().err
    assert main(args) == 0


def test_an_accessor_the_port_made_a_public_field_is_no_missing_member(tmp_path):
    """getLimit()/setLimit(int) became `public int Limit;` in the port (found on a real port: javaewah's
    BufferedRunningLengthWord accessors are csharpewah's public fields): a signature difference naming the
    field, never missing; an accessor whose field the port keeps private stays missing."""
    report = _edited_pair_parity(tmp_path, [
        (JAVA_COUNTER, "    public int seen() {", "    public int getLimit() {\n        return 0;\n    }\n\n"
         "    public void setLimit(int limit) {\n    }\n\n    public int getStep() {\n        return 1;\n    }\n\n"
         "    public int seen() {"),
        (CS_COUNTER, "        private int seen;", "        private int seen;\n        public int Limit;\n        private int Step;")])
    entries = {e.java: e for g in report.groups for e in g.entries if e.java and "Limit" in e.java or
               e.java and "Step" in e.java}
    limit = entries["com.example.ring.Counter.getLimit()"]
    assert (limit.category, limit.cs, limit.detail) == ("signature", "Example.Ring.Counter.Limit",
                                                         ("a field in the port (int Limit)",))
    assert entries["com.example.ring.Counter.setLimit(int)"].category == "signature"
    assert entries["com.example.ring.Counter.getStep()"].category == "missing"


def test_overloads_the_mapping_cannot_tell_apart_and_implicit_constructors_are_present(tmp_path):
    """Found on xmlunit -> xmlunit.net (a hand-checked sample of 20 'missing': 8 were present): Java's
    feed(Source) against the port's Feed(ISource) and Feed(Stream) (types the type map does not know: the
    mapping could not choose) is there, paired with the likelier overload and named as a signature difference;
    Java's explicit no-argument constructor is the C# class's implicit one (matched); see(long), whose only
    C# namesake See(int) pairs with see(int), stays missing."""
    report = _edited_pair_parity(tmp_path, [
        (JAVA_COUNTER, "    public int seen() {", "    public Counter() {\n    }\n\n    public void feed(Source s) {\n"
         "    }\n\n    public void see(long value) {\n    }\n\n    public int seen() {"),
        (CS_COUNTER, "        public int Seen()", "        public void Feed(System.IO.Stream s)\n        {\n        }\n\n"
         "        public void Feed(ISource s)\n        {\n        }\n\n        public int Seen()")])
    feed, ctor, see = (f"com.example.ring.Counter.{m}" for m in ("feed(Source)", "<init>()", "see(long)"))
    assert _outcomes(report, feed, ctor, see) == {feed: ("signature", "Example.Ring.Counter.Feed(ISource)"),
                                                  ctor: ("matched", "Example.Ring.Counter.<init>()"),
                                                  see: ("missing", None)}
    assert _detail(report, feed)[0].startswith("present by name and arity, not paired by the mapping (one of "
                                               "Example.Ring.Counter.Feed(ISource), Example.Ring.Counter.Feed(System.IO.Stream))")


def test_a_listener_registration_the_port_made_an_event_is_no_missing_member(tmp_path):
    """addSeenListener(l)/removeSeenListener(l) became `public event Action<int> SeenListener;` (found on
    xmlunit.net: AbstractDifferenceEngine's addComparisonListener and its kin are C# events): a signature
    difference naming the event, never missing; a registration with no event of that name stays missing."""
    report = _edited_pair_parity(tmp_path, [
        (JAVA_COUNTER, "    public int seen() {", "    public void addSeenListener(Runnable l) {\n    }\n\n"
         "    public void removeSeenListener(Runnable l) {\n    }\n\n    public void addResetListener(Runnable l) {\n"
         "    }\n\n    public int seen() {"),
        (CS_COUNTER, "        private int seen;", "        private int seen;\n        public event Action<int> SeenListener;")])
    add, remove, reset = (f"com.example.ring.Counter.{m}Listener(Runnable)" for m in ("addSeen", "removeSeen",
                                                                                     "addReset"))
    assert _outcomes(report, add, remove, reset) == {add: ("signature", "Example.Ring.Counter.SeenListener"),
                                                     remove: ("signature", "Example.Ring.Counter.SeenListener"),
                                                     reset: ("missing", None)}
    assert _detail(report, add) == ("an event in the port (Action<int> SeenListener)",)


def test_an_inner_class_constructor_taking_the_outer_instance_is_present(tmp_path):
    """Java's inner (non-static) class Cursor() and Cursor(int) are C#'s nested Cursor(RingBuffer) and
    Cursor(RingBuffer, int), the enclosing instance made explicit (found on xmlunit.net:
    AbstractDifferenceEngine.OngoingComparisonState(engine) and (engine, result), which the mapping left
    unpaired): each a signature difference with its own partner, never missing; a static nested class's
    constructor gets no such pairing."""
    report = _edited_pair_parity(tmp_path, [
        ("java/src/com/example/ring/RingBuffer.java", "public class RingBuffer {",
         "public class RingBuffer {\n    public class Cursor {\n        public Cursor() {\n        }\n\n"
         "        public Cursor(int at) {\n        }\n    }\n\n"
         "    public static class Mark {\n        public Mark(int at) {\n        }\n    }\n"),
        ("csharp/Ring/RingBuffer.cs", "    public class RingBuffer\n    {",
         "    public class RingBuffer\n    {\n        public class Cursor\n        {\n"
         "            internal Cursor(RingBuffer ring)\n            {\n            }\n\n"
         "            internal Cursor(RingBuffer ring, int at)\n            {\n            }\n        }\n\n"
         "        public class Mark\n        {\n            internal Mark(RingBuffer ring, int at)\n            {\n"
         "            }\n        }\n")])
    bare, at = "com.example.ring.RingBuffer.Cursor.<init>()", "com.example.ring.RingBuffer.Cursor.<init>(int)"
    assert _outcomes(report, bare, at) == {bare: ("signature", "Example.Ring.RingBuffer.Cursor.<init>(RingBuffer)"),
                                           at: ("signature", "Example.Ring.RingBuffer.Cursor.<init>(RingBuffer, int)")}
    assert "the outer instance is an explicit first parameter in the port" not in \
        _detail(report, "com.example.ring.RingBuffer.Mark.<init>(int)")


def test_a_type_the_port_renamed_is_suggested_for_mapping_types(tmp_path):
    """The port calls Counter 'Tally' and ported 3 of its 7 methods, too few for the mapping's member overlap
    (found on csharpewah: EWAHCompressedBitmap is EwahCompressedBitArray, 21 of 49 names, and the user had to
    find [mapping.types] alone): the missing Counter names the unpaired C# type holding its method names, and
    what to write."""
    report = _edited_pair_parity(tmp_path, [
        (JAVA_COUNTER, "    public int seen() {",
         "".join(f"    public void {n}() {{\n    }}\n\n" for n in ("skip", "mark", "clear", "rewind"))
         + "    public int seen() {"),
        (CS_COUNTER, "public class Counter", "public class Tally"),
        (CS_COUNTER, "        public int Seen()", "        public void Reset()\n        {\n        }\n\n        public int Seen()")])
    missing = {e.java: e.detail for g in report.groups for e in g.entries if e.category == "missing" and e.kind == "type"}
    assert missing["com.example.ring.Counter"] == (
        "no C# type with this name; the port's Example.Ring.Tally, which pairs with no Java type, has 3 of its 7 "
        "method names: if it is this type, name it under [mapping.types]",)
