"""A skeleton copies into a class the default methods of the interfaces its declaration names, bound as Java
binds them (imports, package), never those of another interface of the same simple name."""
from __future__ import annotations

from repotrans.index.store import Index
from repotrans.skeleton.generate import _interface_defaults
from tests.support.solutions import write_tree


def test_defaults_follow_the_interface_the_class_binds_to(tmp_path):
    write_tree(tmp_path / "java", {
        "a/Pricer.java": "package a;\npublic interface Pricer { default int tax() { return 1; } }\n",
        "b/Pricer.java": "package b;\npublic interface Pricer { default int tax() { return 2; } }\n",
        "c/Flat.java": "package c;\nimport b.Pricer;\nclass Flat implements Pricer { class In implements a.Pricer {} }\n",
        "c/Plain.java": "package c;\nclass Plain implements java.io.Serializable {}\n",
    })
    write_tree(tmp_path / "cs", {"A.cs": "namespace A { class A { } }\n"})
    index = Index.open(tmp_path / "wd")
    index.build(tmp_path / "java", tmp_path / "cs", progress=False)
    found = _interface_defaults(index)
    assert {k: [(i, text.split("return")[1].strip()) for i, text in v] for k, v in found.items()} == {
        "source:c.Flat": [("Pricer", "2; }")], "source:c.Flat.In": [("Pricer", "1; }")]}
