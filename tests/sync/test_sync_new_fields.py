"""A new public field or constant upstream is a change sync reports (for a human: it edits members only); a new
private field is the type's own business and a field of a new type comes with the type."""
from __future__ import annotations

from repotrans.sync.diff import JavaTree, diff_trees

OLD = b"package org.acme;\npublic class Ring {\n    private int size;\n    public int size() { return size; }\n}\n"
NEW = (b"package org.acme;\npublic class Ring {\n    public static final int MAX = 64;\n    private int head;\n"
       b"    private int size;\n    public int size() { return size; }\n}\n")
EXTRA = b"package org.acme;\npublic class Mark {\n    public static final int AT = 1;\n}\n"


def test_a_new_public_constant_is_a_field_change_and_a_private_field_is_none():
    old, new = JavaTree(), JavaTree()
    old.add_file("src/org/acme/Ring.java", OLD)
    new.add_file("src/org/acme/Ring.java", NEW)
    new.add_file("src/org/acme/Mark.java", EXTRA)
    changes = [(c.kind, c.old_id, c.new_id, c.member) for c in diff_trees(old, new)]
    assert ("field", None, "source:org.acme.Ring.MAX", True) in changes
    assert not any(c[2] and c[2].endswith(("Ring.head", "Mark.AT")) for c in changes)
    assert ("added", None, "source:org.acme.Mark", False) in changes
