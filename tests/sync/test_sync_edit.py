"""The builtin policy's edit of a ported member (policy/edit.py) and the port's structural edits
(sync_port.py), on the bundled history: exact texts, no compiler needed."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from repotrans.sync.diff import read_tree
from repotrans.sync.files import file_digests, unified_patch, write_back
from repotrans.sync.history import export
from repotrans.sync.port import FileSnapshot, move_member, remove_member, rename_member
from repotrans.index.store import Index
from repotrans.mapping.load import load_mapping
from repotrans.translator.edit import edit_member
from repotrans.translator.edit_names import resolver_for_pair

from .conftest import SAMPLE

G, U = "source:org.acme.geometry", "source:org.acme.util"


@pytest.fixture(scope="module")
def pair(history, tmp_path_factory):
    """(old tree, new tree, index of v2 + the port, its mapping, the old mapping)."""
    root = tmp_path_factory.mktemp("edit")
    v1, v2 = export(history, "v1", root / "v1"), export(history, "v2", root / "v2")
    old_index, index = Index.open(root / "old"), Index.open(root / "new")
    old_index.build(v1, SAMPLE / "csharp", progress=False)
    index.build(v2, SAMPLE / "csharp", progress=False)
    yield read_tree(v1), read_tree(v2), index, load_mapping(index), load_mapping(old_index)
    index.close()
    old_index.close()


def _edit(pair, old_id: str, new_id: str):
    old, new, index, mapping, old_mapping = pair
    member = index.method(old_mapping.target_method(old_id).target_id)
    text = (SAMPLE / "csharp" / member.path).read_bytes()[member.start_byte:member.end_byte].decode()
    return edit_member(old.methods[old_id], new.methods[new_id], text,
                       resolver_for_pair(index, mapping, new.methods[new_id], member))


def test_a_local_adaptation_survives_the_edit(pair):
    clamp = f"{G}.GeometryMath.clamp(double, double, double)"
    edit = _edit(pair, clamp, clamp)
    assert edit.how == "statements" and edit.notes == ["insert Java statement(s) 2-1 -> 2-2"]
    assert edit.code == (
        "public static double Clamp(double value, double min, double max)\n"
        "        {\n"
        "            if (min > max)\n"
        "            {\n"
        "                throw new ArgumentException(\"min \" + min.ToString(CultureInfo.InvariantCulture)\n"
        "                    + \" is greater than max \" + max.ToString(CultureInfo.InvariantCulture));\n"
        "            }\n"
        "            if (double.IsNaN(value))\n"
        "            {\n"
        "                return value;\n"
        "            }\n"
        "            if (value < min)\n"
        "            {\n"
        "                return min;\n"
        "            }\n"
        "            if (value > max)\n"
        "            {\n"
        "                return max;\n"
        "            }\n"
        "            return value;\n"
        "        }")


def test_a_signature_change_edits_the_declaration_and_the_changed_statement(pair):
    edit = _edit(pair, f"{U}.Preconditions.checkArgument(boolean, String)", f"{U}.Preconditions.checkArgument(boolean, Object)")
    assert edit.how == "statements"
    assert edit.notes == ["parameter message: String -> Object (object)", "replace Java statement(s) 1-1 -> 1-1",
                          "replace Java statement(s) 1-1 -> 1-1 in 1.1"]
    assert edit.code.splitlines()[0] == "public static void CheckArgument(bool condition, object message)"
    assert "throw new ArgumentException(Convert.ToString(message, CultureInfo.InvariantCulture));" in edit.code


def test_a_property_getter_takes_the_edit_in_its_accessor(pair):
    edit = _edit(pair, f"{G}.shapes.Polygon.isConvex()", f"{G}.shapes.Polygon.isConvex()")
    assert edit.how == "statements" and edit.notes == ["replace Java statement(s) 3-3 -> 3-3",
                                                     "replace Java statement(s) 1-1 -> 1-1 in 3.1"]
    lines = edit.code.splitlines()
    assert lines[:4] == ["public bool IsConvex", "        {", "            get", "            {"]
    assert [line for line in lines if "Orientation" in line] == [
        "                    double turn = Point2D.Orientation(vertices[i], vertices[(i + 1) % n], "
        "vertices[(i + 2) % n]);"]


def test_bodies_that_do_not_align_are_retranslated_under_the_ports_declaration(pair):
    old, new, index, mapping, old_mapping = pair
    m = old.methods[f"{G}.GeometryMath.clamp(double, double, double)"]
    member = index.method(old_mapping.target_method(m.id).target_id)
    one_statement = ("public static double Clamp(double value, double min, double max)\n        {\n"
                     "            return Math.Min(max, Math.Max(min, value));\n        }")
    edit = edit_member(m, new.methods[m.id], one_statement, resolver_for_pair(index, mapping, new.methods[m.id], member))
    assert edit.how == "retranslated"
    assert edit.notes == ["the port's body has 1 top-level statement(s), the old Java 4: not aligned"]
    assert edit.code.splitlines()[0] == "public static double Clamp(double value, double min, double max)"
    assert "double.IsNaN(value)" in edit.code


@pytest.fixture()
def port(tmp_path):
    """A copy of the sample port and its index (target side only matters here)."""
    work = tmp_path / "cs"
    shutil.copytree(SAMPLE / "csharp", work)
    index = Index.open(tmp_path / "wd")
    index.build(SAMPLE / "java", work, progress=False)
    yield work, index
    index.close()


def test_rename_takes_the_call_sites_along(port):
    work, index = port
    snap = FileSnapshot(work)
    changed = rename_member(work, index.method("target:Acme.Geo.Vector2D.Magnitude()"), "Length", True, snap)
    assert changed == ["src/Acme.Geo/Vector2D.cs", "tests/Acme.Geo.Tests/Vector2DTests.cs"]
    text = (work / "src/Acme.Geo/Vector2D.cs").read_text()
    assert "public double Length()" in text and "Magnitude" not in text
    tests = (work / "tests/Acme.Geo.Tests/Vector2DTests.cs").read_text()
    assert "public void MagnitudeIsLength()" in tests and "v.Length()" in tests and ".Magnitude()" not in tests
    snap.restore()
    assert (work / "src/Acme.Geo/Vector2D.cs").read_text() == (SAMPLE / "csharp/src/Acme.Geo/Vector2D.cs").read_text()


def test_move_and_remove_keep_the_doc_comment_with_the_member(port):
    work, index = port
    snap = FileSnapshot(work)
    member = index.method("target:Acme.Geo.GeometryMath.Orientation(Point2D, Point2D, Point2D)")
    changed = move_member(work, member, index.type("target:Acme.Geo.GeometryMath"),
                          index.type("target:Acme.Geo.Point2D"), snap)
    assert changed == ["src/Acme.Geo/GeometryMath.cs", "src/Acme.Geo/Point2D.cs", "src/Acme.Geo/Shapes/Polygon.cs",
                       "tests/Acme.Geo.Tests/GeometryMathTests.cs"]
    math = (work / "src/Acme.Geo/GeometryMath.cs").read_text()
    assert "Orientation" not in math and math.endswith("        }\n    }\n}\n")
    point = (work / "src/Acme.Geo/Point2D.cs").read_text()
    assert point.endswith("        /// <summary>\n        /// Orientation of the turn o -> a -> b: positive for "
                          "counter-clockwise,\n        /// negative for clockwise, zero when collinear.\n"
                          "        /// </summary>\n        public static double Orientation(Point2D o, Point2D a, "
                          "Point2D b)\n        {\n            return (a.X - o.X) * (b.Y - o.Y) - (a.Y - o.Y) * "
                          "(b.X - o.X);\n        }\n    }\n}\n")
    index.build(SAMPLE / "java", work, progress=False)
    remove_member(work, index.method("target:Acme.Common.StringUtils.ToSnakeCase(string)"), snap)
    assert "ToSnakeCase" not in (work / "src/Acme.Geo/Common/StringUtils.cs").read_text()


def test_the_patch_applies_with_git_apply_and_write_back_spares_a_file_the_user_changed(port, tmp_path):
    work, index = port
    rename_member(work, index.method("target:Acme.Geo.Vector2D.Magnitude()"), "Length", True, FileSnapshot(work))
    (work / "src/Acme.Geo/Extra.cs").write_text("namespace Acme.Geo\n{\n    public static class Extra { }\n}\n")
    (work / "src/Acme.Geo/Resources/unit-aliases.properties").unlink()
    user = tmp_path / "user"
    shutil.copytree(SAMPLE / "csharp", user)
    digests = file_digests(user)
    patch = unified_patch(user, work)
    subprocess.run(["git", "init", "-q"], cwd=user, check=True)
    check = subprocess.run(["git", "apply", "--check", "-"], cwd=user, input=patch, text=True, capture_output=True)
    assert check.returncode == 0, check.stderr
    (user / "tests/Acme.Geo.Tests/Vector2DTests.cs").write_text("// the user's own change\n")
    written, refused = write_back(work, user, digests)
    assert written == ["src/Acme.Geo/Extra.cs", "src/Acme.Geo/Resources/unit-aliases.properties",
                       "src/Acme.Geo/Vector2D.cs"]
    assert list(refused) == ["tests/Acme.Geo.Tests/Vector2DTests.cs"]
    assert (user / "tests/Acme.Geo.Tests/Vector2DTests.cs").read_text() == "// the user's own change\n"
    assert not (user / "src/Acme.Geo/Resources/unit-aliases.properties").exists()


def _java(tmp_path: Path, name: str, body: str):
    root = tmp_path / name
    (root / "p").mkdir(parents=True)
    (root / "p" / "A.java").write_text("package p;\npublic class A {\n" + body + "\n}\n")
    return read_tree(root).methods["source:p.A.parse(int[])"]


def _statement_edit(old, new, port: str):
    """edit_member with the naming conventions alone, applied statement by statement (asserted)."""
    from repotrans.translator.resolver import ConventionResolver
    edit = edit_member(old, new, port, ConventionResolver())
    assert edit.how == "statements", edit.notes
    return edit


def test_a_change_inside_a_loop_and_switch_keeps_the_ports_adaptations_around_it(tmp_path):
    """The Java diff is inside while/switch/case: only the changed case group is retranslated; the port's
    adapted sibling case (TryParse, not Java's parse) and its loop survive (the old edit replaced the loop)."""
    before = """  int parse(int[] w) {
    int i = 0;
    while (i < w.length) {
      switch (w[i]) {
        case 1:
          i++;
          count = Integer.parseInt(s);
          break;
        case 2:
          size = Long.parseLong(s);
          break;
        default:
          return -1;
      }
    }
    return i;
  }"""
    old = _java(tmp_path, "old", before)
    new = _java(tmp_path, "new", before.replace("case 2:\n", "case 2:\n          i += 2;\n"))
    port = ("internal int Parse(int[] w)\n"
            "        {\n"
            "            var i = 0;\n"
            "            while (i < w.Length)\n"
            "            {\n"
            "                switch (w[i])\n"
            "                {\n"
            "                    case 1:\n"
            "                        i++;\n"
            "                        int parsed;\n"
            "                        if (Int32.TryParse(s, out parsed)) count = parsed;\n"
            "                        break;\n"
            "                    case 2:\n"
            "                        size = long.Parse(s);\n"
            "                        break;\n"
            "                    default:\n"
            "                        return -1;\n"
            "                }\n"
            "            }\n"
            "            return i;\n"
            "        }")
    edit = _statement_edit(old, new, port)
    assert edit.notes[-1] == "insert Java statement(s) 1-0 -> 1-1 in 2.1/1.2", edit.notes
    assert edit.code == port.replace("                    case 2:\n",
                                     "                    case 2:\n                        i += 2;\n")
    assert edit.notes[-1] == "insert Java statement(s) 1-0 -> 1-1 in 2.1/1.2"


def test_a_compile_errors_reason_names_the_first_error():
    """'1 error(s) compiling X' alone hides the cause: the report adds the compiler's first error."""
    from types import SimpleNamespace

    from repotrans.sync.steps import _why
    diag = SimpleNamespace(code="CS0103", message="The name 'SHIFT_JIS' does not exist", severity="error")
    result = SimpleNamespace(status="compile_error", reason="1 error(s) compiling zxing", diagnostics=[diag],
                             failures=[])
    assert _why(result) == "1 error(s) compiling zxing; first: CS0103: The name 'SHIFT_JIS' does not exist"


def test_a_statement_the_port_added_does_not_stop_the_alignment(tmp_path):
    """The port guards with a statement Java lacks: the old Java and the port are aligned by statement kind,
    the changed statement is edited in place, the port's own guard survives (was: counts differ ->
    retranslated, the guard lost)."""
    body = """  int parse(int[] w) {
    int i = 0;
    while (i < w.length) {
      i += %s;
    }
    return i;
  }"""
    old, new = _java(tmp_path, "old", body % "1"), _java(tmp_path, "new", body % "2")
    port = ("internal int Parse(int[] w)\n"
            "        {\n"
            "            if (w == null)\n"
            "                return -1;\n"
            "            var i = 0;\n"
            "            while (i < w.Length)\n"
            "            {\n"
            "                i += 1;\n"
            "            }\n"
            "            return i;\n"
            "        }")
    edit = _statement_edit(old, new, port)
    assert edit.code == port.replace("i += 1;", "i += 2;")
