"""Skeletons for Java types the port lacks, on tests/fixtures/skeleton_pair (real tree-sitter, real mcs)."""
from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from repotrans.index.store import Index
from repotrans.mapping.load import load_mapping
from repotrans.skeleton.conventions import learn
from repotrans.skeleton.create import create_skeleton
from repotrans.skeleton.generate import plan_skeleton
from repotrans.skeleton.place import add_compile_items
from tests.support.skeleton_pair import FIXTURE, copy_pair, index_pair

needs_mcs = pytest.mark.skipif(shutil.which("mcs") is None, reason="mcs not installed")


def _port(tmp_path: Path, layout: str = "sdk") -> tuple[Path, Path]:
    """A copy of the Java side and of the C# port (SDK-style, or the library as a classic project)."""
    java, cs = copy_pair(tmp_path)
    if layout == "classic":
        shutil.rmtree(cs / "tests")
        shutil.copyfile(FIXTURE / "classic" / "Demo.Zoo.csproj", cs / "src" / "Demo.Zoo" / "Demo.Zoo.csproj")
    return java, cs


def _members(index: Index, type_id: str) -> set[tuple[str, str]]:
    return {(m.kind, m.name) for m in index.methods(type_id)}


def test_conventions_are_measured_from_the_port(tmp_path):
    java, cs = _port(tmp_path)
    index = index_pair(tmp_path, java, cs)
    conv = learn(index, load_mapping(index))
    assert (conv.getters_as_properties.yes, conv.getters_as_properties.no) == (6, 0)
    assert (conv.interface_prefix.yes, conv.interface_prefix.no) == (1, 0)
    assert (conv.pascal_methods.yes, conv.pascal_methods.no) == (5, 0)
    assert (conv.enum_body_as_class.yes, conv.enum_body_as_class.no) == (1, 0)
    assert conv.final_class_sealed.holds(False) and conv.constants_const.holds(False)
    assert conv.enum_member("name") == ("property", "Name")
    assert conv.package_private_internal.evidence == 0          # no evidence: the C# default is used
    assert (conv.get_as_indexer.yes, conv.get_as_indexer.no) == (1, 0)      # Row.get(int) -> this[int]


def test_plan_places_new_types_by_the_package_map(tmp_path):
    java, cs = _port(tmp_path)
    index = index_pair(tmp_path, java, cs)
    plan = plan_skeleton(index, load_mapping(index), ["org.demo.*"])
    assert sorted((f.path, f.namespace) for f in plan.files) == [
        ("src/Demo.Zoo/Box.cs", "Demo.Zoo"), ("src/Demo.Zoo/Care/Vet.cs", "Demo.Zoo.Care"),
        ("src/Demo.Zoo/Dog.cs", "Demo.Zoo"), ("src/Demo.Zoo/Grid.cs", "Demo.Zoo"), ("src/Demo.Zoo/IFeeder.cs", "Demo.Zoo"),
        ("src/Demo.Zoo/Kind.cs", "Demo.Zoo"), ("src/Demo.Zoo/Size.cs", "Demo.Zoo")]
    dog = next(f for f in plan.files if f.path.endswith("Dog.cs")).text
    assert "public class Dog : Animal, IComparable<Dog>" in dog
    assert "public const int MAX_TRICKS = 3;" in dog
    assert "public Dog(string name) : base(name)" in dog
    assert "public override string Sound()" in dog                # abstract in the C# base
    assert "public class Leash" in dog                             # nested type kept nested
    assert "public class Box<T> where T : IComparable<T>" in next(f.text for f in plan.files if f.path.endswith("Box.cs"))
    grid = next(f.text for f in plan.files if f.path.endswith("Grid.cs"))
    assert "public bool this[int x, int y]" in grid and "public void Set(int x, int y)" in grid
    # setters are written now (batch translates a property or indexer from its getter and keeps the setter)
    assert "get { throw new NotImplementedException(); }\n            set\n            {\n                cells[y][x] = value;" in grid
    box = next(f.text for f in plan.files if f.path.endswith("Box.cs"))
    assert "set\n            {\n                this.label = value == null ? \"\" : value;" in box


@needs_mcs
def test_skeleton_compiles_with_an_sdk_port_and_the_mapping_learns_it(tmp_path):
    java, cs = _port(tmp_path)
    index = index_pair(tmp_path, java, cs)
    result = create_skeleton(index, ["org.demo.*"])
    assert result.check.compiled and result.check.dropped == []
    assert result.placement.globbed == {"Demo.Zoo": sorted(result.placement.written)}
    assert result.placement.projects == {}
    assert len(result.mapped) == 7
    kinds = {t.qualified_name: t.kind for t in index.types("target")}
    assert kinds["Demo.Zoo.IFeeder"] == "interface" and kinds["Demo.Zoo.Kind"] == "enum"
    assert kinds["Demo.Zoo.Size"] == "class" and kinds["Demo.Zoo.Dog.Leash"] == "class"
    assert _members(index, "target:Demo.Zoo.Dog") == {
        ("constructor", "<init>"), ("method", "Sound"), ("method", "Learn"), ("property", "TrickCount"),
        ("method", "CompareTo")}
    assert _members(index, "target:Demo.Zoo.IFeeder") == {("method", "Portion"), ("property", "Food")}
    assert ("property", "Weight") in _members(index, "target:Demo.Zoo.Size")
    mapping = load_mapping(index)
    learn_id = "source:org.demo.zoo.Dog.learn(String)"
    assert mapping.target_method(learn_id).target_id == "target:Demo.Zoo.Dog.Learn(string)"


@needs_mcs
def test_skeleton_is_added_to_a_classic_compile_list(tmp_path):
    java, cs = _port(tmp_path, "classic")
    index = index_pair(tmp_path, java, cs)
    result = create_skeleton(index, ["org.demo.zoo.Dog", "org.demo.zoo.care.*"])
    assert result.check.compiled
    csproj = (cs / "src" / "Demo.Zoo" / "Demo.Zoo.csproj").read_text()
    assert '<Compile Include="Dog.cs" />' in csproj and '<Compile Include="Care\\Vet.cs" />' in csproj
    assert result.placement.projects == {"Demo.Zoo": ["src/Demo.Zoo/Care/Vet.cs", "src/Demo.Zoo/Dog.cs"]}


@needs_mcs
def test_a_member_that_does_not_compile_is_left_out_and_named_with_its_java_origin(tmp_path):
    java, cs = _port(tmp_path)
    (java / "org" / "demo" / "zoo" / "Tag.java").write_text(textwrap.dedent("""\
        package org.demo.zoo;

        import java.nio.ByteBuffer;

        public class Tag {
            private static final ByteBuffer SHAPE = ByteBuffer.allocate(8);
            private final String text;

            public Tag(String text) {
                this.text = text;
            }

            public String getText() {
                return text;
            }
        }
        """))
    index = index_pair(tmp_path, java, cs)
    result = create_skeleton(index, ["org.demo.zoo.Tag"])
    assert result.check.compiled
    assert len(result.check.dropped) == 1 and result.check.dropped[0].startswith("Tag.SHAPE: CS0246")
    assert [e.origin for e in result.check.errors] == ["Tag.SHAPE"]
    text = (cs / "src" / "Demo.Zoo" / "Tag.cs").read_text()
    assert "// repotrans: left out Tag.SHAPE: CS0246" in text and "public virtual string Text" in text


def test_compile_items_follow_the_projects_path_style(tmp_path):
    csproj = tmp_path / "Lib.csproj"
    csproj.write_text('<Project>\r\n  <ItemGroup>\r\n    <Compile Include="a\\A.cs" />\r\n  </ItemGroup>\r\n</Project>\r\n')
    add_compile_items(csproj, [tmp_path / "b" / "B.cs"])
    assert csproj.read_bytes().decode() == ('<Project>\r\n  <ItemGroup>\r\n    <Compile Include="a\\A.cs" />\r\n'
                                  '    <Compile Include="b\\B.cs" />\r\n  </ItemGroup>\r\n</Project>\r\n')


def test_a_new_package_gets_its_namespace_and_folder_by_the_ports_rule():
    from repotrans.skeleton.names import Names

    names = Names({"org.acme": "Acme", "org.acme.geo": "Acme.Geo"}, {"org.acme": "src", "org.acme.geo": "src/geo"},
                  lower_folders=True, referenced={"acme.geo.reedsolomon": "Acme.Geo.ReedSolomon"})
    assert names.namespace("org.acme.geo.shapes") == "Acme.Geo.Shapes"
    assert names.folder("org.acme.geo.shapes") == "src/geo/shapes"
    assert names.namespace("org.acme.geo.reedsolomon") == "Acme.Geo.ReedSolomon"   # as the port's usings spell it
    assert names.namespace("org.acme.geo") == "Acme.Geo"


def test_a_package_the_port_split_goes_where_most_of_its_types_are(tmp_path):
    """HdrHistogram.NET keeps org.HdrHistogram in two namespaces (its iterators in HdrHistogram.NET.Iteration):
    no majority, so a regenerated type went to `Org.HdrHistogram` in a folder no project compiles (the port's
    callers could not see it); it now goes to the namespace and folder most of the package's types are in."""
    from repotrans.mapping.load import build_mapping
    from repotrans.skeleton.names import learn_names
    from tests.support.indexes import write_tree

    java = {f"org/h/{n}.java": f"package org.h;\npublic class {n} {{ }}\n" for n in ("A", "B", "C", "D", "E")}
    cs = {"H/A.cs": "namespace H.Net { public class A { } }", "H/B.cs": "namespace H.Net { public class B { } }",
          "H/Iteration/C.cs": "namespace H.Net.Iteration { public class C { } }",
          "H/Iteration/D.cs": "namespace H.Net.Iteration { public class D { } }",
          "H/Iteration/F.cs": "namespace H.Net.Iteration { public class F { } }"}
    write_tree(tmp_path / "j", java)
    write_tree(tmp_path / "c", {**cs, "H/X.cs": "namespace H.Net { public class X { } }"})
    index = Index.open(tmp_path / "w")
    index.build(tmp_path / "j", tmp_path / "c", progress=False)
    mapping = build_mapping(index)
    assert "org.h" not in mapping.namespace_map          # 2 against 2: no majority
    names = learn_names(index, mapping)
    assert names.namespace("org.h") in ("H.Net", "H.Net.Iteration")
    assert names.folder("org.h") in ("H", "H/Iteration")
    # where each paired type is, whatever the package's map: a generated type naming C gets its using
    assert names.namespace_of["C"] == "H.Net.Iteration" and names.namespace_of["A"] == "H.Net"


def test_a_nested_type_left_out_goes_whole():
    """A nested type that did not compile was commented out by its header line only: its braces and members
    stayed, and every later line of the file was a syntax error (HdrHistogram's HistogramData.Percentiles)."""
    from repotrans.skeleton.check import MemberError, _leave_out
    from repotrans.skeleton.generate import SkeletonFile
    from repotrans.skeleton.lines import Line

    body = [Line("    public class Outer", "Outer", "type"), Line("    {", "Outer"),
            Line("        public class Inner : IEnumerable<int>", "Outer.Inner"), Line("        {", "Outer.Inner"),
            Line("            public int x;", "Outer.Inner.x"), Line("        }", "Outer.Inner"),
            Line("        public int y;", "Outer.y"), Line("    }", "Outer")]
    f = SkeletonFile("A.cs", "N", ["p.Outer"], body, ["namespace N", "{"])
    assert _leave_out(f, MemberError("A.cs", 3 + 2, "CS0535", "does not implement", "Outer.Inner"))
    texts = [ln.text.strip() for ln in f.lines]
    assert texts[2].startswith("// repotrans: left out Outer.Inner")
    assert texts[3:7] == ["// public class Inner : IEnumerable<int>", "// {", "// public int x;", "// }"]
    assert texts[7:] == ["public int y;", "}"]


def test_an_override_takes_the_access_of_the_ports_base_member():
    """HdrHistogram's package-private `void incrementIterationLevel()` overrides a member HdrHistogram.NET's
    base declares protected: the regenerated `public override` was CS0507."""
    from repotrans.skeleton.check import MemberError, _base_access
    from repotrans.skeleton.generate import SkeletonFile
    from repotrans.skeleton.lines import Line

    body = [Line("    public class It : Base", "It", "type"), Line("    {", "It"),
            Line("        public override void step()", "It.step()"), Line("        {", "It.step()"),
            Line("        }", "It.step()"), Line("    }", "It")]
    f = SkeletonFile("It.cs", "N", ["p.It"], body, ["namespace N", "{"])
    message = ("`N.It.step()': cannot change access modifiers when overriding `protected' inherited member "
               "`N.Base.step()'")
    assert _base_access(f, MemberError("It.cs", 3 + 2, "CS0507", message, "It.step()"))
    assert f.lines[2].text == "        protected override void step()"


@needs_mcs
def test_an_iterable_nested_class_compiles_with_the_ports_callers(tmp_path):
    """HdrHistogram's HistogramData.Percentiles: a nested class implementing Iterable<T> whose constructor is
    private (Java lets the enclosing class call it). The port's own code walks it with foreach and builds it:
    its `iterator()` is IEnumerable<T>'s GetEnumerator (with the non-generic one C# requires) and the private
    constructor is internal. Was: CS0535 (no GetEnumerator) and the nested class left out."""
    java, cs = _port(tmp_path)
    (java / "org" / "demo" / "zoo" / "Pack.java").write_text(textwrap.dedent("""\
        package org.demo.zoo;

        import java.util.Iterator;
        import java.util.List;

        public class Pack {
            final List<String> names;

            public Pack(List<String> names) {
                this.names = names;
            }

            public Members roster() {
                return new Members(this);
            }

            public class Members implements Iterable<String> {
                private final Pack pack;

                private Members(Pack pack) {
                    this.pack = pack;
                }

                public Iterator<String> iterator() {
                    return pack.names.iterator();
                }
            }
        }
        """))
    (cs / "src" / "Demo.Zoo" / "Roll.cs").write_text(textwrap.dedent("""\
        namespace Demo.Zoo
        {
            public static class Roll
            {
                public static int Count(Pack pack)
                {
                    int n = 0;
                    foreach (string name in new Pack.Members(pack)) { n += name.Length; }
                    return n;
                }
            }
        }
        """))
    index = index_pair(tmp_path, java, cs)
    result = create_skeleton(index, ["org.demo.zoo.Pack"])
    assert result.check.compiled and result.check.dropped == []
    text = (cs / "src" / "Demo.Zoo" / "Pack.cs").read_text()
    assert "internal Members(Pack pack)" in text
    assert "public IEnumerator<string> GetEnumerator()" in text
    assert "System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() { return GetEnumerator(); }" \
        in text


def test_a_type_of_a_split_package_goes_beside_its_superclass_or_its_users(tmp_path):
    """HdrHistogram.NET keeps org.HdrHistogram's iterators in HdrHistogram.NET.Iteration: a regenerated
    LinearIterator (extends AbstractHistogramIterator) and HistogramIterationValue (named by the iterators)
    went to the package's plurality namespace HdrHistogram.NET; they now go where their superclass's
    counterpart is, else where most of the package's types that name them are, in that namespace's folder.
    A type named equally from both sides keeps the package's namespace."""
    from repotrans.mapping.load import build_mapping
    from repotrans.skeleton.generate import plan_skeleton
    from repotrans.skeleton.names import learn_names
    from tests.support.indexes import write_tree

    java = {"org/h/A.java": "package org.h;\npublic class A { Value v; }\n",
            "org/h/B.java": "package org.h;\npublic class B { Both b; }\n",
            "org/h/C.java": "package org.h;\npublic abstract class C { Value v; Both b; }\n",
            "org/h/D.java": "package org.h;\npublic class D extends C { Value w; }\n",
            "org/h/Leaf.java": "package org.h;\npublic class Leaf extends C { }\n",
            "org/h/Value.java": "package org.h;\npublic class Value { }\n",
            "org/h/Both.java": "package org.h;\npublic class Both { }\n"}
    cs = {"H/A.cs": "namespace H.Net { public class A { } }", "H/B.cs": "namespace H.Net { public class B { } }",
          "H/Iteration/C.cs": "namespace H.Net.Iteration { public abstract class C { } }",
          "H/Iteration/D.cs": "namespace H.Net.Iteration { public class D : C { } }"}
    write_tree(tmp_path / "j", java)
    write_tree(tmp_path / "c", cs)
    index = Index.open(tmp_path / "w")
    index.build(tmp_path / "j", tmp_path / "c", progress=False)
    mapping = build_mapping(index)
    plan = plan_skeleton(index, mapping, ["org.h.*"])
    placed = {f.java_types[0]: (f.namespace, f.path) for f in plan.files}
    assert placed["org.h.Leaf"] == ("H.Net.Iteration", "H/Iteration/Leaf.cs")       # its superclass's
    assert placed["org.h.Value"] == ("H.Net.Iteration", "H/Iteration/Value.cs")     # named by C and D, and A
    names = learn_names(index, mapping)
    assert placed["org.h.Both"] == (names.namespace("org.h"), f"{names.folder('org.h')}/Both.cs")   # B and C: a tie


def _classic(folder: Path, name: str, body: str, references: str = "", project_refs: str = "") -> None:
    folder.mkdir(parents=True)
    (folder / f"{name}.cs").write_text(body)
    (folder / f"{name}.csproj").write_text(textwrap.dedent(f"""\
        <?xml version="1.0" encoding="utf-8"?>
        <Project ToolsVersion="14.0" DefaultTargets="Build" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">
          <PropertyGroup><OutputType>Library</OutputType><AssemblyName>{name}</AssemblyName>
            <TargetFrameworkVersion>v4.5</TargetFrameworkVersion></PropertyGroup>
          <ItemGroup><Reference Include="System" />{references}</ItemGroup>
          <ItemGroup>{project_refs}</ItemGroup>
          <ItemGroup><Compile Include="{name}.cs" /></ItemGroup>
          <Import Project="$(MSBuildToolsPath)\\Microsoft.CSharp.targets" />
        </Project>
        """))


@needs_mcs
def test_the_check_builds_only_the_projects_the_skeleton_concerns(tmp_path):
    """A dependent project that cannot build on this machine whatever the skeleton holds (a reference
    assembly mono lacks: a WinForms demo's System.Deployment) is set aside and named; a project that does
    not reference the library is not built at all (here it would not compile)."""
    java, cs = _port(tmp_path, "classic")
    lib = '<ProjectReference Include="..\\Demo.Zoo\\Demo.Zoo.csproj" />'
    _classic(cs / "src" / "Demo.Desktop", "Desktop", "namespace Demo.Desktop { class Shell { } }",
             references='<Reference Include="System.Deployment" />', project_refs=lib)
    _classic(cs / "src" / "Demo.Other", "Other", "namespace Demo.Other { class Broken { int x = \"no\"; } }")
    index = index_pair(tmp_path, java, cs)
    result = create_skeleton(index, ["org.demo.zoo.Dog"])
    assert result.check.compiled
    assert list(result.check.set_aside) == ["Desktop"]
    assert "System.Deployment" in result.check.set_aside["Desktop"]
    assert "not the skeleton's concern" in result.check.render()


def test_a_dotnet_name_a_namespace_hides_is_qualified():
    """Pinyin4j.NET's exception lives in Net.Sourceforge.Pinyin4j.Format.Exception: there (and beside that
    namespace, in ...Format) `Exception` names the namespace (CS0118), so the skeleton writes System.Exception;
    elsewhere the short name stays."""
    from repotrans.skeleton.generate import dotnet_shadowed
    spaces = {"P", "P.Format", "P.Format.Exception", "P.Text"}
    assert dotnet_shadowed("P.Format.Exception", spaces) == {"Exception": "System.Exception"}
    assert dotnet_shadowed("P.Format", spaces) == {"Exception": "System.Exception"}
    assert dotnet_shadowed("P", spaces) == {}
    assert dotnet_shadowed("P.Format.Regex", spaces) == {"Exception": "System.Exception",
                                                         "Regex": "System.Text.RegularExpressions.Regex"}


@needs_mcs
def test_the_skeletons_own_project_is_never_set_aside(tmp_path):
    """When the project holding the skeleton (or one it needs) cannot build here, the check fails: setting
    it aside would leave nothing built and call that a skeleton that compiles."""
    java, cs = _port(tmp_path, "classic")
    csproj = cs / "src" / "Demo.Zoo" / "Demo.Zoo.csproj"
    csproj.write_text(csproj.read_text().replace('<Reference Include="System" />',
                                                 '<Reference Include="System" />\n    <Reference Include="System.Deployment" />'))
    index = index_pair(tmp_path, java, cs)
    result = create_skeleton(index, ["org.demo.zoo.Dog"])
    assert not result.check.compiled and not result.check.set_aside


@needs_mcs
def test_a_type_whose_java_builds_an_lru_map_carries_the_support_class(tmp_path):
    """libphonenumber's RegexCache: an anonymous LinkedHashMap overriding removeEldestEntry (an LRU cache), which
    .NET has no class for. The regenerated type declares the table's LinkedHashMap nested and private, its field
    is one, and its constructor's translation (support_types) builds one; was a Dictionary field set to null."""
    java, cs = _port(tmp_path)
    (java / "org" / "demo" / "zoo" / "Memo.java").write_text(textwrap.dedent("""\
        package org.demo.zoo;

        import java.util.LinkedHashMap;
        import java.util.Map;

        public class Memo<K, V> {
            private final int size;
            private LinkedHashMap<K, V> map;

            public Memo(int size) {
                this.size = size;
                map = new LinkedHashMap<K, V>(size * 4 / 3 + 1, 0.75f, true) {
                    protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                        return size() > Memo.this.size;
                    }
                };
            }

            public V get(K key) {
                return map.get(key);
            }
        }
        """))
    index = index_pair(tmp_path, java, cs)
    result = create_skeleton(index, ["org.demo.zoo.Memo"])
    assert result.check.compiled and result.check.dropped == []
    text = (cs / "src" / "Demo.Zoo" / "Memo.cs").read_text()
    assert "private LinkedHashMap<K, V> map;" in text and "Dictionary<K, V> map" not in text
    assert "    private class LinkedHashMap<TKey, TValue> : System.Collections.Generic.IDictionary<TKey, TValue>" in text


def test_a_java_get_type_hides_objects_with_new(tmp_path):
    """In a port whose getters stay methods, Java's getType() is GetType(), beside object's non-virtual
    GetType(): the skeleton writes it `new`, C#'s rule for hiding it (was: warning CS0108, and a name the reader
    takes for object's)."""
    from tests.support.solutions import write_tree
    write_tree(tmp_path / "java", {
        "p/Shape.java": "package p;\npublic class Shape {\n  private int k;\n  public int getType() { return k * 2 + 1; }\n}\n",
        "p/Other.java": "package p;\npublic class Other {\n  private int a, b;\n  public int getSize() { return a + 1; }\n"
                        "  public int getWidth() { return b + 2; }\n  public int getDepth() { return a * b; }\n}\n"})
    write_tree(tmp_path / "cs", {"P/Other.cs": "namespace P { public class Other { int a, b; public int GetSize() { return a + 1; }"
                                               " public int GetWidth() { return b + 2; }"
                                               " public int GetDepth() { return a * b; } } }\n"})   # getters stay methods
    index = Index.open(tmp_path / "wd")
    index.build(tmp_path / "java", tmp_path / "cs", progress=False)
    plan = plan_skeleton(index, load_mapping(index), ["p.Shape"])
    heads = [ln.text.strip() for f in plan.files for ln in f.lines if "GetType" in ln.text]
    assert heads == ["public new int GetType()"]
