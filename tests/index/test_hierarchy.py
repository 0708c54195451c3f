"""Index.supertypes: bases bound as Java and C# bind them (imports, usings, namespaces, nested and
inherited member types, generic bases), cycle-safe, nearest first."""
from __future__ import annotations

import pytest

from repotrans.index.store import Index
from tests.support.solutions import write_tree

JAVA = {
    "a/Encoder.java": "package a;\npublic interface Encoder { void encode(); }\n",
    "b/Encoder.java": "package b;\npublic interface Encoder { void encode(); }\n",
    "b/X.java": "package b;\nclass X implements Encoder { public void encode() {} }\n",
    "c/Y.java": "package c;\nimport b.*;\nimport a.Encoder;\nclass Y implements Encoder { public void encode() {} }\n",
    "c/Z.java": "package c;\nimport b.*;\nclass Z implements Encoder { public void encode() {} }\n",
    "d/Lock.java": "package d;\npublic class Lock {}\n",
    "c/W.java": "package c;\nimport java.util.concurrent.locks.Lock;\nabstract class W implements Lock {}\n",
    "c/Lonely.java": "package c;\nclass Lonely extends Exception {}\n",
    "e/Outer.java": ("package e;\npublic class Outer {\n  public static class Base { void f() {} }\n"
                     "  static class Sub extends Base { void f() {} }\n}\n"),
    "e/P.java": "package e;\npublic class P {\n  public static class Node {}\n}\n",
    "e/Q.java": "package e;\npublic class Q extends P {\n  static class Leaf extends Node {}\n}\n",
    "f/Far.java": "package f;\nimport e.Outer;\nclass Far extends Outer.Base {}\nclass Full extends e.P {}\n",
    "g/Levels.java": ("package g;\nimport java.util.List;\ninterface I { void m(); }\nclass Box<T> {}\n"
                      "class L1 extends Box<List<String>> implements I, Comparable<L1> { public void m() {} }\n"
                      "class L2 extends L1 {}\nclass L3 extends L2 { public void m() {} }\n"
                      "class C1 extends C2 {}\nclass C2 extends C1 {}\n"),
}

CSHARP = {
    "Geo.cs": "namespace A.Geo { public interface IShape { } }\nnamespace B.Geo { public interface IShape { } }\n",
    "Circle.cs": "namespace A.Geo.Shapes { class Circle : IShape { } }\n",
    "Square.cs": "using B.Geo;\nnamespace C { class Square : IShape { } }\n",
    "Tri.cs": "using Shape2 = A.Geo.IShape;\nnamespace D { class Tri : Shape2 { } }\n",
    "Outer.cs": ("namespace A.Geo {\n  public class Outer {\n    public class Base { }\n    public class Sub : Base { }\n"
                 "  }\n  class Deep : Outer.Base { }\n  class Rooted : global::B.Geo.IShape { }\n}\n"),
    "Attr.cs": ("namespace Other { public class Attribute { } }\n"
                "namespace A.Geo { using System; class MyAttribute : Attribute { } }\n"),
    "Spell.cs": ("namespace SpellChecker.Net { public class SpellChecker { } }\n"
                 "namespace SpellChecker.Tests { using SpellChecker.Net; class Mock : SpellChecker.Net.SpellChecker { } }\n"),
    "Pair.cs": ("using System;\nnamespace A.Geo { public class Base<T> { }\n"
                "  public class Pair<T> : Base<T>, IEquatable<Pair<T>>, IShape { public bool Equals(Pair<T> o) { return true; } }\n"
                "  class K1 : K2 { }\n  class K2 : K1 { }\n}\n"),
}


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> Index:
    root = tmp_path_factory.mktemp("hierarchy")
    write_tree(root / "java", JAVA)
    write_tree(root / "cs", CSHARP)
    index = Index.open(root / "wd")
    index.build(root / "java", root / "cs", progress=False)
    yield index
    index.close()


def ups(index: Index, type_id: str, depth: int | None = None) -> list[str]:
    t = index.type(type_id)
    assert t is not None, type_id
    return [x.id.split(":", 1)[1] for x in index.supertypes(t, depth)]


def test_java_names_bind_through_imports_and_package(index):
    assert ups(index, "source:b.X") == ["b.Encoder"]                 # own package
    assert ups(index, "source:c.Y") == ["a.Encoder"]                 # a single-type import beats b.*
    assert ups(index, "source:c.Z") == ["b.Encoder"]                 # on-demand import
    assert ups(index, "source:c.W") == []                            # java.util.concurrent.locks.Lock, not d.Lock
    assert ups(index, "source:c.Lonely") == []                       # java.lang.Exception


def test_java_nested_inherited_and_qualified_bases(index):
    assert ups(index, "source:e.Outer.Sub") == ["e.Outer.Base"]      # a sibling nested type
    assert ups(index, "source:e.Q.Leaf") == ["e.P.Node"]             # a member type inherited from P
    assert ups(index, "source:f.Far") == ["e.Outer.Base"]            # Outer imported, then its nested Base
    assert ups(index, "source:f.Full") == ["e.P"]                    # fully qualified


def test_java_generic_bases_transitive_order_depth_and_cycles(index):
    assert ups(index, "source:g.L1") == ["g.Box", "g.I"]            # Comparable<L1> is not in the index
    assert ups(index, "source:g.L3") == ["g.L2", "g.L1", "g.Box", "g.I"]
    assert ups(index, "source:g.L3", 1) == ["g.L2"]
    assert ups(index, "source:g.C1") == ["g.C2"]                     # a cycle ends
    assert ups(index, "source:g.C2") == ["g.C1"]


def test_csharp_names_bind_through_namespaces_usings_and_aliases(index):
    assert ups(index, "target:A.Geo.Shapes.Circle") == ["A.Geo.IShape"]   # an enclosing namespace
    assert ups(index, "target:C.Square") == ["B.Geo.IShape"]              # a using
    assert ups(index, "target:D.Tri") == ["A.Geo.IShape"]                 # a using alias
    assert ups(index, "target:A.Geo.Rooted") == ["B.Geo.IShape"]          # global::
    assert ups(index, "target:A.Geo.MyAttribute") == []                   # System.Attribute, not Other.Attribute


def test_csharp_nested_qualified_generic_and_cycles(index):
    assert ups(index, "target:A.Geo.Outer.Sub") == ["A.Geo.Outer.Base"]
    assert ups(index, "target:A.Geo.Deep") == ["A.Geo.Outer.Base"]
    # the namespace SpellChecker is nearer than the type SpellChecker.Net.SpellChecker the using brings in
    assert ups(index, "target:SpellChecker.Tests.Mock") == ["SpellChecker.Net.SpellChecker"]
    assert ups(index, "target:A.Geo.Pair") == ["A.Geo.Base", "A.Geo.IShape"]
    assert ups(index, "target:A.Geo.K1") == ["A.Geo.K2"]


def test_resolve_type_and_overridden_methods(index):
    y = index.type("source:c.Y")
    assert index.resolve_type(y, "Encoder").id == "source:a.Encoder"
    assert index.resolve_type(y, "java.util.List<String>") is None
    overridden = index.overridden_methods("source")
    assert "source:a.Encoder.encode()" in overridden and "source:b.Encoder.encode()" in overridden
    assert "source:e.Outer.Base.f()" in overridden
    assert "source:g.L1.m()" in overridden                           # L3 declares m() again, two levels down
