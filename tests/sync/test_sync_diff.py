"""The member-level diff of the bundled history: one upstream commit per kind, each change found with
the commit that made it (renames and moves by body similarity, not by name)."""
from __future__ import annotations

import subprocess

import pytest

from repotrans.errors import ConfigError
from repotrans.sync.diff import JavaTree, diff_trees, read_tree, touched, with_commits
from repotrans.sync.history import commits, export, resolve

G, U = "source:org.acme.geometry", "source:org.acme.util"


def test_the_history_has_the_same_commit_ids_on_every_machine(history):
    log = subprocess.run(["git", "-C", str(history), "log", "--format=%h %s", "v1..v2"], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert log == ["d4c620f Vector2D.negate() and the Segment type", "4e87bd1 StringUtils: drop toSnakeCase",
                   "100dec2 orientation moves from GeometryMath to Point2D",
                   "a7c4a89 Vector2D.magnitude() is now length()",
                   "a1d8d89 Preconditions.checkArgument takes any message object",
                   "1840bda GeometryMath.clamp returns a NaN value before comparing it"]


def test_every_kind_of_change_with_its_commit(history, tmp_path):
    old = read_tree(export(history, "v1", tmp_path / "v1"))
    new = read_tree(export(history, "v2", tmp_path / "v2"))
    per_commit = [(c, touched(history, c)) for c in commits(history, "v1", "v2")]
    found = [(c.kind, c.old_id, c.new_id, c.similarity, c.commits, c.member)
             for c in with_commits(diff_trees(old, new), per_commit)]
    seg = f"{G}.Segment"
    assert found == [
        ("added", None, f"{seg}.<init>(Point2D, Point2D)", None, ("d4c620f",), True),
        ("added", None, f"{seg}.getEnd()", None, ("d4c620f",), True),
        ("added", None, f"{seg}.getStart()", None, ("d4c620f",), True),
        ("added", None, f"{seg}.length()", None, ("d4c620f",), True),
        ("added", None, f"{seg}.midpoint()", None, ("d4c620f",), True),
        ("added", None, f"{G}.Vector2D.negate()", None, ("d4c620f",), True),
        ("added", None, seg, None, ("d4c620f",), False),
        ("removed", f"{U}.StringUtils.toSnakeCase(String)", None, None, ("4e87bd1",), True),
        ("body", f"{G}.GeometryMath.clamp(double, double, double)", f"{G}.GeometryMath.clamp(double, double, double)",
         0.887, ("1840bda",), True),
        # the callers of a renamed member change with it
        ("body", f"{G}.Vector2D.angleTo(Vector2D)", f"{G}.Vector2D.angleTo(Vector2D)", 0.974, ("a7c4a89",), True),
        ("body", f"{G}.Vector2D.normalize()", f"{G}.Vector2D.normalize()", 0.978, ("a7c4a89",), True),
        ("body", f"{G}.shapes.Polygon.isConvex()", f"{G}.shapes.Polygon.isConvex()", 0.992, ("100dec2",), True),
        ("signature", f"{U}.Preconditions.checkArgument(boolean, String)",
         f"{U}.Preconditions.checkArgument(boolean, Object)", 0.865, ("a1d8d89",), True),
        ("renamed", f"{G}.Vector2D.magnitude()", f"{G}.Vector2D.length()", 1.0, ("a7c4a89",), True),
        ("moved", f"{G}.GeometryMath.orientation(Point2D, Point2D, Point2D)",
         f"{G}.Point2D.orientation(Point2D, Point2D, Point2D)", 1.0, ("100dec2",), True),
    ]


def test_a_renamed_member_with_a_changed_body_is_not_taken_for_a_rename_when_the_bodies_differ():
    before, after = JavaTree(), JavaTree()
    before.add_file("A.java", b"package p; public class A { public int f(int x) { return x + 1; } }")
    after.add_file("A.java", b"package p; public class A { public int g(int x) { "
                             b"int y = x * x; for (int i = 0; i < y; i++) { y -= i; } return y; } }")
    assert [(c.kind, c.old_id, c.new_id) for c in diff_trees(before, after)] == [
        ("added", None, "source:p.A.g(int)"), ("removed", "source:p.A.f(int)", None)]


def test_a_bad_revision_is_one_clear_error(history):
    with pytest.raises(ConfigError, match=r"'v9' is no revision of"):
        resolve(history, "v9")


def test_a_field_whose_initializer_changed_is_a_field_change():
    def tree(sets: str) -> JavaTree:
        t = JavaTree()
        t.add_file("src/main/java/p/Parser.java", (
            "package p;\nfinal class Parser {\n  private static final String[] SETS = {" + sets + "};\n"
            "  private static final int PAD = 1;\n  int size() { return SETS.length; }\n}\n").encode())
        return t

    changes = diff_trees(tree('"\\nABC"'), tree('"\\rABC"'))
    assert [(c.kind, c.old_id, c.new_id) for c in changes] == [("field", "source:p.Parser.SETS", "source:p.Parser.SETS")]
    assert diff_trees(tree('"\\nABC"'), tree('"\\nABC"')) == []
