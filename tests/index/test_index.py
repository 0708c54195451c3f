"""The index: tree-sitter parsing of Java and C# into the symbol model, the SQLite store, lookups, CLI."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from repotrans import cli
from repotrans.errors import ConfigError
from repotrans.index import store as store_module
from repotrans.index.model import Import
from repotrans.index.store import SCHEMA_VERSION, Index
from tests.support.solutions import write_tree

JAVA_SHAPES = """\
package com.acme.geo;

import java.util.*;
import java.util.List;
import static java.lang.Math.max;
import static java.util.Objects.*;

@Deprecated
@SuppressWarnings("unchecked")
public final class Circle<T extends Number, U> extends Shape implements Comparable<Circle<T, U>>, java.io.Serializable {
    private static final int A = 1, B[] = {2};
    protected List<String> names;
    transient Map<String,  Integer> counts = new HashMap<>();

    public Circle(int r) {
        super(r);
    }

    @Override
    public <R> List<R> map(final int x, String... rest) throws Exception {
        return null;
    }

    abstract double area();

    static int[] sizes(int[][] grid, java.util.Map<String, List<Integer>> m) { return new int[0]; }

    interface Visitor extends Runnable, java.io.Closeable {
        default void visit(Circle<?, ?> c) { }
        int K = 3;
    }
}
"""

JAVA_ENUM = """\
package com.acme.geo;

public enum Color implements Named {
    RED("r") {
        @Override public String label() { return "red"; }
    },
    GREEN("g"),
    BLUE("b");

    private final String code;

    Color(String code) { this.code = code; }

    public String label() {
        Runnable r = new Runnable() { public void run() { } };
        class Local { void hidden() { } }
        return code;
    }

    public record Pair(int x, String y) implements Named {
        public Pair { if (x < 0) throw new IllegalArgumentException(); }
        static int count;
        public String label() { return y; }
    }

    @interface Marker { String value() default ""; int[] ids(); }
}
"""

CS_SHAPES = """\
using System;
using System.Collections.Generic;
using Geo = Acme.Geo.Shapes;
using static System.Math;

namespace Acme.Geo
{
    namespace Shapes
    {
        [Serializable]
        [Obsolete("use Ring"), CLSCompliant(false)]
        public sealed partial class Circle<T> : Shape, IComparable<Circle<T>> where T : class
        {
            private int a = 1, b;
            public const double Pi = 3.14;
            public event EventHandler Changed;
            public event EventHandler Moved { add { } remove { } }

            public double Radius { get; set; } = 2.0;
            public double Area => PI * Radius * Radius;
            public int this[int i, string s] { get { return i; } }

            public Circle(int r) : base(r) { }

            public static T Max<TItem>(params int[] xs) where TItem : new() { return default(T); }

            public void Out(ref int a, out int b, in int c) { b = a + c; }

            internal int Twice(int x) => x * 2;

            public abstract void Draw();

            public static Circle<T> operator +(Circle<T> l, Circle<T> r) => l;

            ~Circle() { }

            public struct Point { public int X, Y; }

            public enum Kind : byte { Small, Large = 2 }

            public interface IVisitor { void Visit(Circle<T> c); }
        }
    }
}
"""

CS_PARTIAL = """\
namespace Acme.Geo.Shapes
{
    public partial class Circle<T> : IDisposable
    {
        public void Dispose() { }
    }
}
"""

CS_FILE_SCOPED = """\
namespace Acme.Util;

public static class Strings
{
    public static string Trim(this string s) => s.Trim();
}

public record Money(decimal Amount, string Currency);
"""


@pytest.fixture
def repos(tmp_path: Path) -> tuple[Path, Path]:
    java = write_tree(tmp_path / "java", {"src/com/acme/geo/Circle.java": JAVA_SHAPES,
                                      "src/com/acme/geo/Color.java": JAVA_ENUM})
    cs = write_tree(tmp_path / "cs", {"Shapes/Circle.cs": CS_SHAPES, "Shapes/Circle.Dispose.cs": CS_PARTIAL,
                                 "Util/Strings.cs": CS_FILE_SCOPED})
    return java, cs


@pytest.fixture
def index(tmp_path: Path, repos) -> Index:
    ix = Index.open(tmp_path / "work")
    ix.build(*repos, progress=False)
    return ix


def params(method) -> list[tuple]:
    return [(p.name, p.type, p.varargs, p.modifiers) for p in method.params]


# ---- Java ------------------------------------------------------------------------------------------
def test_java_package_and_imports(index):
    info = index.file("source", "src/com/acme/geo/Circle.java")
    assert info.namespaces == ["com.acme.geo"]
    assert info.imports == [
        Import("import java.util.*;", "java.util", static=False, wildcard=True),
        Import("import java.util.List;", "java.util.List"),
        Import("import static java.lang.Math.max;", "java.lang.Math.max", static=True),
        Import("import static java.util.Objects.*;", "java.util.Objects", static=True, wildcard=True),
    ]
    assert info.syntax_errors == 0 and len(info.sha256) == 64


def test_java_class_header(index):
    t = index.type("source:com.acme.geo.Circle")
    assert (t.kind, t.name, t.container, t.outer_id) == ("class", "Circle", "com.acme.geo", None)
    assert t.type_params == ["T extends Number", "U"]
    assert t.bases == ["Shape", "Comparable<Circle<T, U>>", "java.io.Serializable"]
    assert t.modifiers == ["public", "final"]
    assert t.annotations == ["@Deprecated", '@SuppressWarnings("unchecked")']
    assert (t.path, t.start_line, t.end_line) == ("src/com/acme/geo/Circle.java", 8, 32)


def test_java_nested_types(index):
    nested = index.nested_types("source:com.acme.geo.Circle")
    assert [(t.id, t.kind, t.bases) for t in nested] == [
        ("source:com.acme.geo.Circle.Visitor", "interface", ["Runnable", "java.io.Closeable"])]
    enum_nested = index.nested_types("source:com.acme.geo.Color")
    assert [(t.id, t.kind, t.outer_id) for t in enum_nested] == [
        ("source:com.acme.geo.Color.Pair", "record", "source:com.acme.geo.Color"),
        ("source:com.acme.geo.Color.Marker", "annotation", "source:com.acme.geo.Color"),
    ]
    # local and anonymous classes are not types of the repository
    assert [t.id for t in index.types("source")] == [
        "source:com.acme.geo.Circle", "source:com.acme.geo.Circle.Visitor", "source:com.acme.geo.Color",
        "source:com.acme.geo.Color.Pair", "source:com.acme.geo.Color.Marker"]


def test_java_fields_one_per_declarator(index):
    fields = index.fields("source:com.acme.geo.Circle")
    assert [(f.id, f.type, f.modifiers, f.initializer, f.line) for f in fields] == [
        ("source:com.acme.geo.Circle.A", "int", ["private", "static", "final"], "1", 11),
        ("source:com.acme.geo.Circle.B", "int[]", ["private", "static", "final"], "{2}", 11),
        ("source:com.acme.geo.Circle.names", "List<String>", ["protected"], None, 12),
        ("source:com.acme.geo.Circle.counts", "Map<String, Integer>", ["transient"], "new HashMap<>()", 13),
    ]
    assert [(f.name, f.type) for f in index.fields("source:com.acme.geo.Circle.Visitor")] == [("K", "int")]


def test_java_methods(index):
    methods = index.methods("source:com.acme.geo.Circle")
    assert [m.id for m in methods] == [
        "source:com.acme.geo.Circle.<init>(int)",
        "source:com.acme.geo.Circle.map(int, String...)",
        "source:com.acme.geo.Circle.area()",
        "source:com.acme.geo.Circle.sizes(int[][], java.util.Map<String, List<Integer>>)",
    ]
    ctor, mapper, area, sizes = methods
    assert (ctor.kind, ctor.name, ctor.return_type, ctor.modifiers) == ("constructor", "<init>", None, ["public"])
    assert ctor.body == "{\n        super(r);\n    }"
    assert params(mapper) == [("x", "int", False, ["final"]), ("rest", "String...", True, [])]
    assert (mapper.return_type, mapper.modifiers, mapper.annotations, mapper.type_params) == (
        "List<R>", ["public"], ["@Override"], ["R"])
    assert mapper.signature == "@Override public <R> List<R> map(final int x, String... rest) throws Exception"
    assert (mapper.start_line, mapper.end_line) == (19, 22)
    assert (area.body, area.body_start_byte, area.signature) == (None, None, "abstract double area()")
    assert params(sizes) == [("grid", "int[][]", False, []), ("m", "java.util.Map<String, List<Integer>>", False, [])]
    assert sizes.return_type == "int[]"
    visit = index.methods("source:com.acme.geo.Circle.Visitor")
    assert [(m.id, m.modifiers) for m in visit] == [("source:com.acme.geo.Circle.Visitor.visit(Circle<?, ?>)", ["default"])]


def test_java_byte_ranges_slice_the_file(index, repos):
    data = (repos[0] / "src/com/acme/geo/Circle.java").read_bytes()
    for m in index.methods("source:com.acme.geo.Circle"):
        decl = data[m.start_byte:m.end_byte].decode()
        assert decl.startswith(("public", "@Override", "abstract", "static")) and decl.rstrip().endswith(("}", ";"))
        if m.body is not None:
            assert data[m.body_start_byte:m.body_end_byte].decode() == m.body
            assert decl.endswith(m.body)


def test_java_enum_constants_record_and_annotation(index):
    color = index.type("source:com.acme.geo.Color")
    assert (color.kind, color.bases, color.enum_constants) == ("enum", ["Named"], ["RED", "GREEN", "BLUE"])
    # methods of the RED constant body, the anonymous Runnable and the local class are not members
    assert [m.id for m in index.methods(color.id)] == [
        "source:com.acme.geo.Color.<init>(String)", "source:com.acme.geo.Color.label()"]
    assert [(f.name, f.type, f.modifiers) for f in index.fields(color.id)] == [("code", "String", ["private", "final"])]
    pair = "source:com.acme.geo.Color.Pair"
    assert [(f.name, f.type, f.modifiers) for f in index.fields(pair)] == [
        ("x", "int", ["private", "final"]), ("y", "String", ["private", "final"]), ("count", "int", ["static"])]
    compact, label = index.methods(pair)
    assert (compact.id, compact.kind, params(compact)) == (
        f"{pair}.<init>(int, String)", "constructor", [("x", "int", False, []), ("y", "String", False, [])])
    assert label.id == f"{pair}.label()"
    marker = index.methods("source:com.acme.geo.Color.Marker")
    assert [(m.id, m.return_type, m.body) for m in marker] == [
        ("source:com.acme.geo.Color.Marker.value()", "String", None),
        ("source:com.acme.geo.Color.Marker.ids()", "int[]", None)]


# ---- C# --------------------------------------------------------------------------------------------
def test_csharp_usings_and_namespaces(index):
    info = index.file("target", "Shapes/Circle.cs")
    assert info.namespaces == ["Acme.Geo", "Acme.Geo.Shapes"]
    assert info.imports == [
        Import("using System;", "System"),
        Import("using System.Collections.Generic;", "System.Collections.Generic"),
        Import("using Geo = Acme.Geo.Shapes;", "Acme.Geo.Shapes", alias="Geo"),
        Import("using static System.Math;", "System.Math", static=True),
    ]
    scoped = index.file("target", "Util/Strings.cs")
    assert (scoped.namespaces, scoped.imports) == (["Acme.Util"], [])
    assert [t.id for t in index.types("target") if t.path == "Util/Strings.cs"] == [
        "target:Acme.Util.Strings", "target:Acme.Util.Money"]


def test_csharp_class_header_and_partial_parts(index):
    t = index.type("target:Acme.Geo.Shapes.Circle")
    assert (t.kind, t.container, t.type_params) == ("class", "Acme.Geo.Shapes", ["T"])
    assert t.bases == ["Shape", "IComparable<Circle<T>>", "IDisposable"]      # second part adds IDisposable
    assert t.modifiers == ["public", "sealed", "partial"]
    assert t.annotations == ["Serializable", 'Obsolete("use Ring")', "CLSCompliant(false)"]
    assert (t.path, t.start_line) == ("Shapes/Circle.cs", 10)
    assert [m.id for m in index.methods(t.id)][-1] == "target:Acme.Geo.Shapes.Circle.Dispose()"
    assert [(n.id, n.kind, n.bases) for n in index.nested_types(t.id)] == [
        ("target:Acme.Geo.Shapes.Circle.Point", "struct", []),
        ("target:Acme.Geo.Shapes.Circle.Kind", "enum", ["byte"]),
        ("target:Acme.Geo.Shapes.Circle.IVisitor", "interface", []),
    ]
    assert index.type("target:Acme.Geo.Shapes.Circle.Kind").enum_constants == ["Small", "Large"]


def test_csharp_fields(index):
    fields = index.fields("target:Acme.Geo.Shapes.Circle")
    assert [(f.name, f.type, f.modifiers, f.initializer) for f in fields] == [
        ("a", "int", ["private"], "1"), ("b", "int", ["private"], None),
        ("Pi", "double", ["public", "const"], "3.14"), ("Changed", "EventHandler", ["event", "public"], None)]
    assert [(f.id, f.type) for f in index.fields("target:Acme.Geo.Shapes.Circle.Point")] == [
        ("target:Acme.Geo.Shapes.Circle.Point.X", "int"), ("target:Acme.Geo.Shapes.Circle.Point.Y", "int")]


def test_csharp_members(index):
    by_id = {m.id: m for m in index.methods("target:Acme.Geo.Shapes.Circle")}
    base = "target:Acme.Geo.Shapes.Circle."
    assert list(by_id) == [base + s for s in (
        "Moved", "Radius", "Area", "this[int, string]", "<init>(int)", "Max(int[])", "Out(int, int, int)", "Twice(int)",
        "Draw()", "operator +(Circle<T>, Circle<T>)", "~Circle()", "Dispose()")]
    moved = by_id[base + "Moved"]
    assert (moved.kind, moved.modifiers, moved.return_type, moved.body) == (
        "property", ["event", "public"], "EventHandler", "{ add { } remove { } }")
    radius, area, indexer = by_id[base + "Radius"], by_id[base + "Area"], by_id[base + "this[int, string]"]
    assert (radius.kind, radius.return_type, radius.params, radius.body) == ("property", "double", [], "{ get; set; } = 2.0;")
    assert (area.kind, area.body, area.signature) == ("property", "=> PI * Radius * Radius;", "public double Area")
    assert (indexer.kind, indexer.name, indexer.return_type) == ("indexer", "this", "int")
    assert params(indexer) == [("i", "int", False, []), ("s", "string", False, [])]
    ctor = by_id[base + "<init>(int)"]
    assert (ctor.kind, ctor.signature, ctor.body) == ("constructor", "public Circle(int r) : base(r)", "{ }")
    mx = by_id[base + "Max(int[])"]
    assert params(mx) == [("xs", "int[]", True, [])]
    assert (mx.return_type, mx.type_params, mx.modifiers) == ("T", ["TItem"], ["public", "static"])
    assert params(by_id[base + "Out(int, int, int)"]) == [
        ("a", "int", False, ["ref"]), ("b", "int", False, ["out"]), ("c", "int", False, ["in"])]
    twice = by_id[base + "Twice(int)"]
    assert (twice.body, twice.modifiers, twice.return_type) == ("=> x * 2;", ["internal"], "int")
    assert by_id[base + "Draw()"].body is None
    ext = index.find_methods("target", "Strings.Trim")
    assert [(m.id, params(m)) for m in ext] == [("target:Acme.Util.Strings.Trim(string)", [("s", "string", False, ["this"])])]


def test_csharp_byte_ranges_slice_the_file(index, repos):
    data = (repos[1] / "Shapes/Circle.cs").read_bytes()
    for m in index.methods("target:Acme.Geo.Shapes.Circle"):
        if m.path != "Shapes/Circle.cs":
            continue
        decl = data[m.start_byte:m.end_byte].decode()
        if m.body is not None:
            assert data[m.body_start_byte:m.body_end_byte].decode() == m.body
            assert decl.endswith(m.body)
        assert " ".join(decl.split()).startswith(m.signature)


def test_csharp_record_positional_properties(index):
    money = index.type("target:Acme.Util.Money")
    assert money.kind == "record"
    assert [(m.id, m.kind, m.return_type) for m in index.methods(money.id)] == [
        ("target:Acme.Util.Money.Amount", "property", "decimal"),
        ("target:Acme.Util.Money.Currency", "property", "string")]


CS_EXPLICIT = """\
using System.Collections;
using System.Collections.Generic;

namespace Acme.Geo.Shapes
{
    public sealed class ShapeCollection<T> : IEnumerable<T>, IList, IOps<T>
    {
        public IEnumerator<T> GetEnumerator() { return null; }
        IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
        int ICollection.Count { get { return 0; } }
        public int Count => 0;
        object System.Collections.IList.this[int i] { get { return null; } set { } }
        event EventHandler INotify<T>.Changed { add { } remove { } }
        static T IOps<T>.operator +(T a, T b) => a;
    }
}
"""


def test_csharp_explicit_interface_implementations(tmp_path, repos):
    """An explicit implementation keeps its interface in its name and id, apart from the public member."""
    write_tree(repos[1], {"Shapes/ShapeCollection.cs": CS_EXPLICIT})
    ix = Index.open(tmp_path / "work")
    ix.build(*repos, progress=False)
    base = "target:Acme.Geo.Shapes.ShapeCollection."
    assert [(m.id, m.kind, m.name, m.return_type) for m in ix.methods(base[:-1])] == [
        (base + "GetEnumerator()", "method", "GetEnumerator", "IEnumerator<T>"),
        (base + "IEnumerable.GetEnumerator()", "method", "IEnumerable.GetEnumerator", "IEnumerator"),
        (base + "ICollection.Count", "property", "ICollection.Count", "int"),
        (base + "Count", "property", "Count", "int"),
        (base + "System.Collections.IList.this[int]", "indexer", "System.Collections.IList.this", "object"),
        (base + "INotify<T>.Changed", "property", "INotify<T>.Changed", "EventHandler"),
        (base + "IOps<T>.operator +(T, T)", "method", "IOps<T>.operator +", "T")]
    explicit = ix.method(base + "IEnumerable.GetEnumerator()")
    assert (explicit.modifiers, explicit.signature, explicit.body) == (
        [], "IEnumerator IEnumerable.GetEnumerator()", "=> GetEnumerator();")
    ids = lambda q: [m.id for m in ix.find_methods("target", q)]  # noqa: E731
    assert ids("ShapeCollection.GetEnumerator()") == ids("GetEnumerator") == [base + "GetEnumerator()"]
    assert ids("ShapeCollection.IEnumerable.GetEnumerator()") == [base + "IEnumerable.GetEnumerator()"]
    assert ids("Shapes.ShapeCollection<T>.IEnumerable.GetEnumerator") == [base + "IEnumerable.GetEnumerator()"]
    assert ids("IEnumerable.GetEnumerator") == [base + "IEnumerable.GetEnumerator()"]
    assert ids("ShapeCollection.Count") == [base + "Count"]
    assert ids("ShapeCollection.ICollection.Count") == [base + "ICollection.Count"]
    assert ids("ShapeCollection.IList.this[int]") == [base + "System.Collections.IList.this[int]"]
    assert ids("ShapeCollection.INotify<T>.Changed") == [base + "INotify<T>.Changed"]
    assert ids("ShapeCollection.IEnumerable.Count") == []


# ---- lookups ---------------------------------------------------------------------------------------
def test_find_types(index):
    ids = lambda side, q: [t.id for t in index.find_types(side, q)]  # noqa: E731
    assert ids("source", "Circle") == ["source:com.acme.geo.Circle"]
    assert ids("source", "com.acme.geo.Circle") == ["source:com.acme.geo.Circle"]
    assert ids("source", "geo.Circle") == ["source:com.acme.geo.Circle"]
    assert ids("source", "Circle.Visitor") == ids("source", "Visitor") == ["source:com.acme.geo.Circle.Visitor"]
    assert ids("target", "Shapes.Circle<T>") == ["target:Acme.Geo.Shapes.Circle"]
    assert ids("target", "eo.Shapes.Circle") == []          # suffixes are whole segments
    assert ids("source", "Point") == []                     # other side
    assert ids("target", "") == []


def test_find_methods(index):
    ids = lambda side, q: [m.id for m in index.find_methods(side, q)]  # noqa: E731
    assert ids("source", "label") == ["source:com.acme.geo.Color.Pair.label()", "source:com.acme.geo.Color.label()"]
    assert ids("source", "Color.label") == ["source:com.acme.geo.Color.label()"]
    assert ids("source", "com.acme.geo.Circle.map(int, String...)") == ["source:com.acme.geo.Circle.map(int, String...)"]
    assert ids("source", "map(final int x, String[] rest)") == ["source:com.acme.geo.Circle.map(int, String...)"]
    assert ids("source", "map(int)") == []
    assert ids("source", "sizes(int[][], Map)") == [
        "source:com.acme.geo.Circle.sizes(int[][], java.util.Map<String, List<Integer>>)"]
    assert ids("source", "Circle(int)") == ids("source", "Circle.<init>") == ["source:com.acme.geo.Circle.<init>(int)"]
    assert ids("target", "Acme.Geo.Shapes.Circle.Out(ref int, out int, in int)") == [
        "target:Acme.Geo.Shapes.Circle.Out(int, int, int)"]
    assert ids("target", "Circle.this[int, string]") == ["target:Acme.Geo.Shapes.Circle.this[int, string]"]
    assert ids("target", "Circle.Radius") == ["target:Acme.Geo.Shapes.Circle.Radius"]
    assert ids("target", "Shapes.Circle.Circle(int)") == ["target:Acme.Geo.Shapes.Circle.<init>(int)"]
    assert ids("target", "public static T Max<TItem>(params int[] xs)") == ["target:Acme.Geo.Shapes.Circle.Max(int[])"]
    assert ids("target", "Nope.Max") == [] and ids("target", "()") == []
    assert index.method("target:Acme.Geo.Shapes.Circle.Twice(int)").name == "Twice"
    assert index.method("target:Acme.Geo.Shapes.Circle.Twice(long)") is None


def test_all_methods_and_files(index):
    assert len(index.all_methods("source")) == 11 and len(index.all_methods("target")) == 16
    assert [f.path for f in index.files("target")] == ["Shapes/Circle.Dispose.cs", "Shapes/Circle.cs", "Util/Strings.cs"]
    assert index.root("source").name == "java" and index.root("target").name == "cs"


# ---- store -----------------------------------------------------------------------------------------
def test_incremental_reindex_parses_only_changes(tmp_path, repos):
    java, cs = repos
    ix = Index.open(tmp_path / "work")
    first = ix.build(java, cs, progress=False)
    assert (first.files, first.parsed, first.unchanged, first.deleted) == (5, 5, 0, 0)
    assert (first.types, first.methods) == (11, 27)         # the partial Circle counts once
    again = ix.build(java, cs, progress=False)
    assert (again.parsed, again.unchanged, again.deleted) == (0, 5, 0)

    (java / "src/com/acme/geo/Circle.java").write_text(JAVA_SHAPES.replace("return null;", "return List.of();"))
    (cs / "Util/Strings.cs").unlink()
    write_tree(cs, {"Util/Extra.cs": "namespace Acme.Util { class Extra { void Go() { } } }"})
    changed = ix.build(java, cs, progress=False)
    assert (changed.files, changed.parsed, changed.unchanged, changed.deleted) == (5, 2, 3, 1)
    assert ix.method("source:com.acme.geo.Circle.map(int, String...)").body == "{\n        return List.of();\n    }"
    assert ix.find_types("target", "Strings") == [] and ix.find_methods("target", "Trim") == []
    assert [m.id for m in ix.find_methods("target", "Extra.Go")] == ["target:Acme.Util.Extra.Go()"]
    assert ix.file("target", "Util/Strings.cs") is None
    counts = ix.conn.execute("SELECT (SELECT COUNT(*) FROM methods), (SELECT COUNT(*) FROM types)").fetchone()
    assert counts == (27 - 3 + 1, 12 - 2 + 1)               # type rows: one per partial part


def test_other_connection_sees_rebuild(tmp_path, repos):
    java, cs = repos
    writer = Index.open(tmp_path / "work")
    writer.build(java, cs, progress=False)
    reader = Index.open(tmp_path / "work", must_exist=True)
    assert reader.find_types("target", "Extra") == []
    write_tree(cs, {"Util/Extra.cs": "namespace Acme.Util { class Extra { } }"})
    writer.build(java, cs, progress=False)
    assert [t.id for t in reader.find_types("target", "Extra")] == ["target:Acme.Util.Extra"]


def test_build_is_one_transaction(tmp_path, repos, monkeypatch):
    java, cs = repos
    ix = Index.open(tmp_path / "work")
    ix.build(java, cs, progress=False)
    before = ix.conn.execute("SELECT COUNT(*), GROUP_CONCAT(sha256) FROM files").fetchone()
    (java / "src/com/acme/geo/Color.java").write_text(JAVA_ENUM.replace("BLUE", "CYAN"))
    (cs / "Util/Strings.cs").write_text(CS_FILE_SCOPED.replace("Trim", "Strip"))

    def failing_insert(self, batch):
        assert len(batch) == 2
        original(self, batch[:1])            # the first file's rows are written, then the disk fills up
        raise OSError("disk full")

    original = Index._insert
    monkeypatch.setattr(Index, "_insert", failing_insert)
    with pytest.raises(OSError):
        ix.build(java, cs, progress=False)
    assert ix.conn.execute("SELECT COUNT(*), GROUP_CONCAT(sha256) FROM files").fetchone() == before
    assert ix.type("source:com.acme.geo.Color").enum_constants == ["RED", "GREEN", "BLUE"]
    monkeypatch.setattr(Index, "_insert", original)
    assert ix.build(java, cs, progress=False).parsed == 2


def test_syntax_error_file_is_indexed_as_far_as_recovered(tmp_path):
    java = write_tree(tmp_path / "java", {"Ok.java": "class Ok { void a() { } }",
                                     "Broken.java": "class Broken {\n  void good() { }\n  void bad( { int x = ; }\n}\n"})
    cs = write_tree(tmp_path / "cs", {"Ok.cs": "class Ok { }"})
    summary = Index.open(tmp_path / "w").build(java, cs, progress=False)
    assert summary.syntax_error_files == ["Broken.java"]
    ix = Index.open(tmp_path / "w", must_exist=True)
    assert ix.file("source", "Broken.java").syntax_errors > 0 and ix.file("source", "Ok.java").syntax_errors == 0
    assert "source:Broken.good()" in [m.id for m in ix.methods("source:Broken")]
    assert "syntax errors (indexed as far as recovered): 1 file(s): Broken.java" in summary.render()


def test_utf8_text_after_multibyte_characters(tmp_path):
    """Names and bodies after non-ASCII characters are cut at the right places (byte offsets vs characters)."""
    cs_text = '// café\nclass Straße { /* ü */ public string Grüß(string ä) => "ü" + ä; }\n'
    java = write_tree(tmp_path / "java", {"A.java": "class A { }"})
    cs = write_tree(tmp_path / "cs", {"S.cs": cs_text})
    ix = Index.open(tmp_path / "w")
    ix.build(java, cs, progress=False)
    [m] = ix.all_methods("target")
    assert (m.id, m.signature, m.body, params(m)) == (
        "target:Straße.Grüß(string)", "public string Grüß(string ä)", '=> "ü" + ä;', [("ä", "string", False, [])])
    data = cs_text.encode("utf-8")
    assert data[m.start_byte:m.end_byte].decode() == 'public string Grüß(string ä) => "ü" + ä;'


def test_binary_large_and_non_utf8_files(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "MAX_FILE_BYTES", 2000)
    latin1 = "class Cafe { String s() { return \"d\u00e9j\u00e0\"; } }".encode("latin-1")
    java = write_tree(tmp_path / "java", {"A.java": "class A { }", "Bin.java": b"class B {\x00\x01}",
                                     "Big.java": "class Big { }\n" + "// filler\n" * 300, "Cafe.java": latin1})
    utf16 = "\ufeffclass Grid { string s() { return \"\u00e9\"; } }".encode("utf-16-le")
    cs = write_tree(tmp_path / "cs", {"A.cs": "class A { }", "Grid.cs": utf16})
    (cs / "Gone.cs").symlink_to(tmp_path / "missing.cs")
    summary = Index.open(tmp_path / "w").build(java, cs, progress=False)
    assert summary.skipped == {"Big.java": "larger than 0 MB", "Bin.java": "binary",
                               "Gone.cs": "unreadable: No such file or directory"}
    assert summary.decode_error_files == ["Cafe.java", "Grid.cs"]
    assert (summary.files, summary.parsed) == (4, 4)
    ix = Index.open(tmp_path / "w", must_exist=True)
    [method] = ix.all_methods("source")
    assert method.id == "source:Cafe.s()" and method.body == '{ return "d\u00e9j\u00e0"; }'   # Windows-1252
    [grid] = ix.all_methods("target")
    assert grid.id == "target:Grid.s()" and grid.body == '{ return "\u00e9"; }'           # by its byte-order mark
    text = summary.render()
    assert "skipped: 3 file(s): Big.java (larger than 0 MB), Bin.java (binary), Gone.cs (unreadable: " in text
    assert "not UTF-8 (decoded by their byte-order mark, else as Windows-1252): 2 file(s): Cafe.java, Grid.cs" in text


def test_missing_or_empty_repository(tmp_path):
    ix = Index.open(tmp_path / "w")
    (tmp_path / "cs").mkdir()
    write_tree(tmp_path / "java", {"A.java": "class A { }"})
    (tmp_path / "empty").mkdir()
    with pytest.raises(ConfigError, match=r"^source repository .*nope does not exist or is not a directory$"):
        ix.build(tmp_path / "nope", tmp_path / "cs", progress=False)
    with pytest.raises(ConfigError, match=r"^target repository .*cs has no \.cs files$"):
        ix.build(tmp_path / "java", tmp_path / "cs", progress=False)
    with pytest.raises(ConfigError, match="never built"):
        Index.open(tmp_path / "w", must_exist=True)
    with pytest.raises(ConfigError, match="no index in"):
        Index.open(tmp_path / "elsewhere", must_exist=True)


def test_schema_version_mismatch_rebuilds(tmp_path, repos):
    ix = Index.open(tmp_path / "w")
    ix.build(*repos, progress=False)
    ix.conn.execute("CREATE TABLE mapping_cache (x)")
    ix.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    ix.close()
    with pytest.raises(ConfigError, match="another repotrans version"):
        Index.open(tmp_path / "w", must_exist=True)
    fresh = Index.open(tmp_path / "w")
    assert fresh.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert fresh.conn.execute("SELECT COUNT(*) FROM files").fetchone()[0] == 0
    tables = {r[0] for r in fresh.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"meta", "files", "types", "fields", "methods"}
    assert fresh.build(*repos, progress=False).parsed == 5


def test_not_a_database_is_replaced(tmp_path, repos):
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "index.sqlite").write_text("not sqlite at all " * 200)
    with pytest.raises(ConfigError, match="is not an index"):
        Index.open(tmp_path / "w", must_exist=True)
    assert Index.open(tmp_path / "w").build(*repos, progress=False).parsed == 5


def test_progress_bar_goes_to_stderr(tmp_path, repos, capsys):
    Index.open(tmp_path / "w").build(*repos, progress=True)
    out, err = capsys.readouterr()
    assert out == "" and "indexing" in err


# ---- CLI -------------------------------------------------------------------------------------------
def test_cli_index(tmp_path, repos, capsys):
    java, cs = repos
    argv = ["--workdir", str(tmp_path / "w"), "index", "--quiet", "--source", str(java), "--target", str(cs)]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("indexed 5 files: 11 types, 27 methods (5 parsed, 0 unchanged, 0 deleted) in ")
    assert cli.main(argv) == 0
    assert "(0 parsed, 5 unchanged, 0 deleted)" in capsys.readouterr().out
    with sqlite3.connect(tmp_path / "w" / "index.sqlite") as conn:
        assert conn.execute("SELECT COUNT(*) FROM methods").fetchone()[0] == 27


def test_cli_index_bad_input_is_one_line(tmp_path, capsys):
    argv = ["--workdir", str(tmp_path / "w"), "index", "--quiet", "--source", str(tmp_path / "no"),
            "--target", str(tmp_path / "no2")]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("repotrans: error: --source: source repository not found: ")
    assert not list((tmp_path / "w").glob("index.sqlite*"))          # no empty index left behind


def test_parallel_build_matches_serial(tmp_path, repos, monkeypatch):
    monkeypatch.setattr(store_module, "PARALLEL_MIN", 1)
    serial, parallel = Index.open(tmp_path / "a"), Index.open(tmp_path / "b")
    assert serial.build(*repos, progress=False, workers=1).parsed == 5
    assert parallel.build(*repos, progress=False, workers=2).parsed == 5
    for table in ("files", "types", "fields", "methods"):
        query = f"SELECT * FROM {table} ORDER BY 1, 2"
        rows = serial.conn.execute(query).fetchall()
        assert rows and rows == parallel.conn.execute(query).fetchall()


def test_csharp_pragma_between_attribute_and_modifiers(tmp_path):
    """A `#pragma` line between an attribute and the declaration keeps the type's and members' modifiers."""
    java = write_tree(tmp_path / "java", {"Ok.java": "class Ok { }"})
    cs = write_tree(tmp_path / "cs", {"X.cs": (
        "namespace N {\n  [System.Serializable]\n#pragma warning disable 1591\n  public sealed class X {\n"
        "    [System.Obsolete]\n#if DEBUG\n#endif\n    public static int F() { return 1; }\n  }\n}\n")})
    ix = Index.open(tmp_path / "w")
    ix.build(java, cs, progress=False)
    x = ix.type("target:N.X")
    assert (x.modifiers, x.annotations) == (["public", "sealed"], ["System.Serializable"])
    f = ix.method("target:N.X.F()")
    assert (f.modifiers, f.annotations) == (["public", "static"], ["System.Obsolete"])


def test_a_directive_inside_a_base_list_is_recovered(tmp_path):
    from repotrans.index.parse import parse_file

    src = b"namespace N {\npublic class Foo : Bar\n#if NET40\n    , IBaz\n#endif\n{\n    public void M() {\n#if X\n" \
          b"        return;\n#endif\n    }\n}\n}\n"
    p = parse_file("target", "Foo.cs", src, "sha")
    assert p.info.syntax_errors == 0
    assert [(t.id, t.bases) for t in p.types] == [("target:N.Foo", ["Bar", "IBaz"])]
    [m] = p.methods
    assert m.body == "{\n#if X\n        return;\n#endif\n    }"          # the file's text, directives kept


def test_members_in_a_csharp_if_block_are_indexed_once(tmp_path):
    """Members a `#if` block declares (its first branch: what the build compiles by default) are the type's
    members, as are types in a block of a namespace; an `#else` branch adds no second copy. Found on a real
    port: every member of a test fixture after `#if !SILVERLIGHT` was missing, and the call-chain judge then
    took the port's own test code for a translation's."""
    from repotrans.index.parse import parse_file

    src = (b"namespace N {\nclass A { void Before(){}\n#if !SILVERLIGHT\n void Inside(){ int x = 1; }\n"
           b" class Nested { void N1(){} }\n#else\n void Inside(){ }\n#endif\n void After(){} }\n"
           b"#if X\nclass B { void InB(){} }\n#endif\n}\n")
    p = parse_file("target", "A.cs", src, "sha")
    assert [m.id for m in p.methods] == ["target:N.A.Before()", "target:N.A.Inside()", "target:N.A.Nested.N1()",
                                         "target:N.A.After()", "target:N.B.InB()"]
    assert [t.id for t in p.types] == ["target:N.A", "target:N.A.Nested", "target:N.B"]
    inside = next(m for m in p.methods if m.name == "Inside")
    assert inside.body == "{ int x = 1; }"
