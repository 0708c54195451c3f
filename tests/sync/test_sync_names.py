"""A sync edit writes what it translates anew with the port's own names (policy/edit_names.py): what the
port wrote where the builtin translation of the old Java wrote something else. Exact texts, no compiler."""
from __future__ import annotations

from pathlib import Path

from repotrans.sync.diff import read_tree
from repotrans.translator.edit import edit_member
from repotrans.translator.edit_names import PortNames, learn_port_names
from repotrans.translator.java2cs import translate_method
from repotrans.translator.resolver import ConventionResolver
from repotrans.translator.tool_outputs import target_type


def _java(tmp_path: Path, name: str, body: str):
    root = tmp_path / name
    (root / "p").mkdir(parents=True)
    (root / "p" / "A.java").write_text("package p;\npublic class A {\n" + body + "\n}\n")
    return read_tree(root).methods["source:p.A.pick(int[])"]


OLD = """  boolean pick(int[] counts) {
    if (counts.length == 0) {
      throw NotFoundException.getNotFoundInstance();
    }
    if (counts[ASCII_ENCODATION] > 0) {
      return true;
    }
    return false;
  }"""

# the port at the old Java: its own constants (Encodation.ASCII), no exceptions (return false), `var`
PORT = ("internal bool Pick(int[] counts)\n"
        "        {\n"
        "            if (counts.Length == 0)\n"
        "            {\n"
        "                return false;\n"
        "            }\n"
        "            if (counts[Encodation.ASCII] > 0)\n"
        "            {\n"
        "                return true;\n"
        "            }\n"
        "            return false;\n"
        "        }")


def test_the_names_are_read_from_where_the_port_differs_from_the_translation(tmp_path):
    old = _java(tmp_path, "old", OLD)
    plain = translate_method(old, ConventionResolver()).split("\n", 1)[1]
    names = learn_port_names(plain, PORT.split("\n", 1)[1])
    assert names.rules == {("ASCII_ENCODATION",): "Encodation.ASCII",
                           ("throw", "NotFoundException.GetNotFoundInstance", "(", ")"): "return false"}


def test_an_edit_writes_the_new_statements_with_the_ports_names(tmp_path):
    """The new Java adds a check with the old body's constant and jump: the edit writes them as the port
    does (was: `ASCII_ENCODATION`, `throw NotFoundException.GetNotFoundInstance()`: CS0103 in the port)."""
    old = _java(tmp_path, "old", OLD)
    new = _java(tmp_path, "new", OLD.replace(
        "    return false;\n  }",
        "    if (counts[ASCII_ENCODATION] < 0) {\n      throw NotFoundException.getNotFoundInstance();\n    }\n"
        "    return false;\n  }"))
    plain = translate_method(old, ConventionResolver()).split("\n", 1)[1]
    names = learn_port_names(plain, PORT.split("\n", 1)[1])
    edit = edit_member(old, new, PORT, ConventionResolver(), names)
    assert edit.how == "statements", edit.notes
    assert edit.code == PORT.replace(
        "            return false;\n        }",
        "            if (counts[Encodation.ASCII] < 0)\n"
        "            {\n"
        "                return false;\n"
        "            }\n"
        "            return false;\n        }")
    plain_edit = edit_member(old, new, PORT, ConventionResolver())      # without the port's names
    assert "counts[ASCII_ENCODATION] < 0" in plain_edit.code


def test_rewrites_that_are_style_or_logic_are_no_names():
    """`int` -> `var` is the port's style, an operator or separator run is a rewrite, a name sharing no word
    with the port's text is no renaming of it; a name seen kept as translated is never a rule."""
    plain = "int n = Count(x);\nif (a == b) { Use(FOO); }\nBar(Baz);\nBar(Baz);\nQux(Baz);"
    port = "var n = Count(x);\nif (a.Equals(b)) { Use(Other); }\nBar(Baz);\nBar(BazValue);\nQux(BazValue);"
    assert learn_port_names(plain, port).rules == {}


def test_a_rule_rewrites_the_longest_run_and_keeps_the_texts_layout():
    names = PortNames({("CODE_A",): "Writer.CODE_A", ("throw", "Err.Get", "(", ")"): "return -1"})
    assert names.apply("if (x == CODE_A)\n    throw Err.Get();  // CODE_A\nvar s = \"CODE_A\";") == \
        "if (x == Writer.CODE_A)\n    return -1;  // CODE_A\nvar s = \"CODE_A\";"


def test_a_property_with_an_attribute_is_a_property():
    """find_target_class_info lists `[Obsolete("...")] public int[] OptionalData { get; set; }`; the
    attribute's parentheses made it a method, so Java's setOptionalData(x) stayed SetOptionalData(x) (CS1061)."""
    info = target_type({"class": "Meta", "members": [
        '[System.Obsolete("use the [parsed] fields")] public int[] OptionalData { get; set; }',
        "public void Reset(int a)"]})
    assert info.properties == {"OptionalData": "int[]"}
    assert info.methods == ["public void Reset(int a)"]


def test_a_class_name_two_port_types_share_is_looked_up_as_csharp_finds_it(tmp_path):
    """The Java method's `Marker` is ambiguous in the port (Qr.Marker and Rss.Marker): the edit's context
    asks again for the one C# finds from the method's namespace, so `getCount()` is the property `Count`
    (was: the type stayed unknown, `fp.GetCount()`, CS1061)."""
    from repotrans.index.store import Index
    from repotrans.mapping.load import load_mapping
    from repotrans.translator.edit_names import resolver_for_pair

    java, cs = tmp_path / "java" / "p", tmp_path / "cs"
    java.mkdir(parents=True)
    cs.mkdir()
    (java / "Marker.java").write_text("package p;\npublic class Marker {\n  private int count;\n"
                                       "  int getCount() { return count; }\n}\n")
    (java / "Finder.java").write_text(
        "package p;\nimport java.util.List;\npublic class Finder {\n  int total(List<Marker> list) {\n"
        "    int n = 0;\n    for (Marker fp : list) {\n      n += fp.getCount();\n    }\n    return n;\n  }\n}\n")
    (cs / "Marker.cs").write_text("namespace Z.Qr\n{\n    public class Marker\n    {\n        private int count;\n"
                                   "        internal int Count { get { return count; } }\n    }\n}\n")
    (cs / "RssMarker.cs").write_text("namespace Z.Rss\n{\n    public class Marker\n    {\n"
                                      "        public int Value { get; set; }\n    }\n}\n")
    (cs / "Finder.cs").write_text(
        "using System.Collections.Generic;\nnamespace Z.Qr\n{\n    public class Finder\n    {\n"
        "        internal int total(List<Marker> list)\n        {\n            return 0;\n        }\n    }\n}\n")
    index = Index.open(tmp_path / "index")
    try:
        index.build(tmp_path / "java", cs, progress=False)
        mapping = load_mapping(index)
        source = "source:p.Finder.total(List<Marker>)"
        target = index.method(mapping.target_method(source).target_id)
        resolver = resolver_for_pair(index, mapping, index.method(source), target)
        assert "fp.Count" in translate_method(index.method(source), resolver, target)
    finally:
        index.close()
