"""index.typename: a type name written in C# code is bound from its scope (nested types, namespaces, usings,
aliases, qualified chains) to one project type; a name the rules cannot bind falls back to every type of
that simple name (and written arity), counted. Index.subtypes is Index.supertypes followed downwards."""
from __future__ import annotations

import pytest

from repotrans.index.store import Index
from repotrans.index.typename import (TypeName, TypeNames, erased_name, simple_name, without_annotations,
                                      without_type_arguments, written_parts)
from tests.support.solutions import write_tree

CSHARP = {
    "Qr.cs": ("namespace Acme.Qr {\n  public class Decoder { }\n"
              "  public class Version { public class ECB { } }\n  public class Box<T> { }\n}\n"),
    "Az.cs": ("namespace Acme.Aztec {\n  public class Decoder { }\n  public class Version { public class ECB { } }\n"
              "  public class Box { }\n}\n"),
    "Use.cs": ("using Acme.Qr;\nusing AzDec = Acme.Aztec.Decoder;\nnamespace Acme.App {\n"
               "  public class User : Decoder { public class Decoder { } }\n  public class Other { }\n"
               "  public class Leaf : User { }\n}\n"),
    "Broken.cs": "using Acme.Qr;\nnamespace Acme.Broken {\n  public class Half { void F( { }\n}\n",
}


@pytest.fixture
def index(tmp_path):
    write_tree(tmp_path / "java", {"A.java": "class A {}\n"})
    write_tree(tmp_path / "cs", CSHARP)
    ix = Index.open(tmp_path / "wd")
    ix.build(tmp_path / "java", tmp_path / "cs", progress=False)
    return ix


def test_written_names_and_identities():
    assert written_parts("global::A.B<int>.C<K, List<V>>[]?") == (["A", "B", "C"], 2)
    assert written_parts("Foo") == (["Foo"], None)
    assert simple_name("target:Acme.Qr.Version.ECB") == "ECB" and simple_name("Box<int>[]") == "Box"
    assert TypeName("Acme.Qr", "Version.ECB").type_id("target") == "target:Acme.Qr.Version.ECB"
    assert TypeName("Acme.Qr", "Box", 1) != TypeName("Acme.Qr", "Box", 0)


def test_one_way_to_drop_type_arguments_and_annotations():
    """The index's, the hierarchy's and the mapping's readers of a written type share these three."""
    assert without_type_arguments("Map<K, List<V>>.Entry<K>") == "Map.Entry"
    assert without_type_arguments("Foo.<init>(List<int>)") == "Foo.<init>(List)"
    assert without_annotations("@NonNull List<@Foo(1) T>") == "List<T>"
    assert erased_name("@Deprecated java.util.Map< K , List<V> >") == "java.util.Map"


def test_names_bind_from_their_scope_not_by_simple_name(index):
    names = TypeNames(index)
    user, other = index.type("target:Acme.App.User"), index.type("target:Acme.App.Other")
    assert TypeName.of(index.type("target:Acme.Qr.Version.ECB")) == TypeName("Acme.Qr", "Version.ECB", 0)
    assert TypeName.of(index.type("target:Acme.Qr.Box")).arity == 1
    assert names.bind(other, "Decoder") == {"target:Acme.Qr.Decoder"}                 # using namespace
    assert names.bind(user, "Decoder") == {"target:Acme.App.User.Decoder"}            # its own nested type
    assert names.bind(other, "AzDec") == {"target:Acme.Aztec.Decoder"}                # a using alias
    assert names.bind(other, "Decoder.Missing") == set()
    assert names.bind(other, "Version.ECB") == {"target:Acme.Qr.Version.ECB"}         # nested, through a using
    assert names.bind(other, "Acme.Aztec.Version.ECB", strict=True) == {"target:Acme.Aztec.Version.ECB"}
    assert names.bind(other, "Box<int>") == {"target:Acme.Qr.Box"}
    assert names.fallbacks == {}


def test_unbound_names_fall_back_to_every_type_of_the_simple_name_and_arity(index):
    names = TypeNames(index)
    half = index.type("target:Acme.Broken.Half")                  # a file parsed in part: never narrower
    assert names.bind(half, "Decoder") == {"target:Acme.Qr.Decoder", "target:Acme.Aztec.Decoder",
                                           "target:Acme.App.User.Decoder"}
    assert names.bind(None, "Box<int>") == {"target:Acme.Qr.Box"}              # Box<T>, not Box: the arity
    assert names.bind(None, "Box") == {"target:Acme.Qr.Box", "target:Acme.Aztec.Box"}
    assert names.bind(None, "Version.ECB") == {"target:Acme.Qr.Version.ECB", "target:Acme.Aztec.Version.ECB"}
    assert names.bind(half, "AzDec") == {"target:Acme.Aztec.Decoder"}    # an alias of another file, unbound here
    assert names.fallbacks == {"Decoder": 1, "Box": 2, "ECB": 1, "AzDec": 1}


def test_subtypes_follow_the_bound_bases_downwards(index):
    qr = index.type("target:Acme.Qr.Decoder")
    assert [t.id for t in index.subtypes(qr)] == ["target:Acme.App.User", "target:Acme.App.Leaf"]
    assert index.subtypes(index.type("target:Acme.Aztec.Decoder")) == []
