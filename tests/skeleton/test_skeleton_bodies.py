"""Members a skeleton writes with bodies because batch pairs no Java method with them: enum constants
with bodies (a nested subclass per constant) and interface default methods (copied into the classes
that implement the interface). Real tree-sitter, real mcs and mono on tests/fixtures/skeleton_pair."""
from __future__ import annotations

import shutil
import subprocess
import textwrap

import pytest

from repotrans.skeleton.create import create_skeleton
from tests.skeleton.test_skeleton import _port
from tests.support.skeleton_pair import index_pair

needs_mono = pytest.mark.skipif(shutil.which("mcs") is None or shutil.which("mono") is None,
                                reason="mcs/mono not installed")

JAVA = {
    "Op.java": """\
        package org.demo.zoo.calc;

        public enum Op {
            PLUS("+") {
                @Override
                public int apply(int a, int b) { return a + b; }
            },
            TIMES("*") {
                @Override
                public int apply(int a, int b) { return a * b; }

                @Override
                public String describe() { return "times " + symbol; }
            },
            NEGATE_FIRST("-") {
                @Override
                public int apply(int a, int b) { return -a; }
            };

            protected final String symbol;

            Op(String symbol) { this.symbol = symbol; }

            public abstract int apply(int a, int b);

            public String describe() { return "op " + symbol; }
        }
        """,
    "Pricer.java": """\
        package org.demo.zoo.calc;

        public interface Pricer {
            int base();

            default int withTax(int percent) { return base() + base() * percent / 100; }
        }
        """,
    "FlatPricer.java": """\
        package org.demo.zoo.calc;

        public class FlatPricer implements Pricer {
            private final int amount;

            public FlatPricer(int amount) { this.amount = amount; }

            @Override
            public int base() { return amount; }
        }
        """,
}

METER = """\
    package org.demo.zoo.calc;

    public class Meter {
        private int reading;

        public int getReading() { return reading * 2; }

        public void add(int amount) { reading += amount; }
    }
    """
METER_USE = """\
namespace Demo.Zoo.Calc
{
    public static class MeterUse
    {
        public static int Twice(Meter m) { return m.GetReading() + m.GetReading(); }
    }
}
"""

MAIN = """\
using System;
using Demo.Zoo.Calc;

public static class Program
{
    public static void Main()
    {
        Console.WriteLine(Op.PLUS.Apply(2, 3) + " " + Op.TIMES.Apply(2, 3) + " " + Op.NEGATE_FIRST.Apply(2, 3));
        Console.WriteLine(Op.PLUS.Describe() + "|" + Op.TIMES.Describe() + "|" + Op.TIMES.Ordinal() + "|" + Op.TIMES);
        Console.WriteLine(new FlatPricer(200).WithTax(10));
    }
}
"""


@needs_mono
def test_enum_constant_bodies_and_interface_defaults_compile_and_behave(tmp_path):
    java, cs = _port(tmp_path)
    folder = java / "org" / "demo" / "zoo" / "calc"
    folder.mkdir()
    for name, text in JAVA.items():
        (folder / name).write_text(textwrap.dedent(text))
    index = index_pair(tmp_path, java, cs)
    result = create_skeleton(index, ["org.demo.zoo.calc.*"])
    assert result.check.compiled and result.check.dropped == []
    op = (cs / "src" / "Demo.Zoo" / "Calc" / "Op.cs").read_text()
    assert "public abstract class Op" in op and "private sealed class OpTimes : Op" in op
    assert "public virtual string Describe()" in op
    pricer = (cs / "src" / "Demo.Zoo" / "Calc" / "FlatPricer.cs").read_text()
    assert "public int WithTax(int percent)" in pricer
    # the bodies batch fills (the enum's constructor and describe(), the class's constructor and base())
    todo = "{\n            throw new NotImplementedException();\n        }"
    for path, bodies in ((cs / "src" / "Demo.Zoo" / "Calc" / "Op.cs", ["this.symbol = symbol;", 'return "op " + symbol;']),
                         (cs / "src" / "Demo.Zoo" / "Calc" / "FlatPricer.cs", ["this.amount = amount;", "return amount;"])):
        text = path.read_text()
        assert text.count(todo) == len(bodies)
        for body in bodies:
            text = text.replace(todo, "{ " + body + " }", 1)
        path.write_text(text)
    sources = [str(p) for p in (cs / "src" / "Demo.Zoo").rglob("*.cs") if "obj" not in p.parts]
    (tmp_path / "Program.cs").write_text(MAIN)
    built = subprocess.run(["mcs", f"-out:{tmp_path / 'p.exe'}", str(tmp_path / "Program.cs"), *sources],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + op + pricer
    ran = subprocess.run(["mono", str(tmp_path / "p.exe")], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == ["5 6 -2", "op +|times *|1|TIMES", "220"]


def _regenerated(tmp_path, name: str, java_files: dict[str, str], port_files: dict[str, str]):
    """(the C# tree, create_skeleton's result) for org.demo.zoo.calc.<name>, from `java_files` in that
    package, with `port_files` (the port's own code using the class) added to Demo.Zoo."""
    java, cs = _port(tmp_path)
    folder = java / "org" / "demo" / "zoo" / "calc"
    folder.mkdir()
    for file, text in java_files.items():
        (folder / file).write_text(textwrap.dedent(text))
    for file, text in port_files.items():
        (cs / "src" / "Demo.Zoo" / file).write_text(text)
    return cs, create_skeleton(index_pair(tmp_path, java, cs), [f"org.demo.zoo.calc.{name}"])


@pytest.mark.skipif(shutil.which("mcs") is None, reason="mcs not installed")
def test_a_getter_the_ports_own_code_calls_as_a_method_becomes_that_method(tmp_path):
    cs, result = _regenerated(tmp_path, "Meter", {"Meter.java": METER}, {"MeterUse.cs": METER_USE})
    assert result.check.compiled and result.check.dropped == [] and len(result.check.reshaped) == 1
    assert result.check.reshaped[0].startswith("Demo.Zoo.Calc.Meter.GetReading: a getter property made the method")
    meter = (cs / "src" / "Demo.Zoo" / "Calc" / "Meter.cs").read_text()
    assert "int GetReading()\n        {\n            throw new NotImplementedException();" in meter
    assert " Reading" not in meter


LEVEL = """\
    package org.demo.zoo.calc;

    public enum Level {
        LOW(1), MID(5), HIGH(9);

        private final int weight;

        Level(int weight) { this.weight = weight; }

        public int getWeight() { return weight; }
    }
    """
LEVEL_USE = """\
namespace Demo.Zoo.Calc
{
    public static class LevelUse
    {
        public static int Rank(Level l)
        {
            switch (l.Name)
            {
                case Level.Names.LOW: return 0;
                case Level.Names.HIGH: return 2;
                default: return 1;
            }
        }
    }
}
"""


@pytest.mark.skipif(shutil.which("mcs") is None, reason="mcs not installed")
def test_the_nested_enum_the_ports_own_code_names_is_made_of_the_constants(tmp_path):
    cs, result = _regenerated(tmp_path, "Level", {"Level.java": LEVEL}, {"LevelUse.cs": LEVEL_USE})
    level = (cs / "src" / "Demo.Zoo" / "Calc" / "Level.cs").read_text()
    assert result.check.compiled and result.check.dropped == [], result.check.render() + level
    assert result.check.reshaped == ["Demo.Zoo.Calc.Level.Names: the enum's constants as the nested enum the "
                                     "port's src/Demo.Zoo/LevelUse.cs:9 names"]
    assert "public enum Names { LOW, MID, HIGH }" in level
    assert "public Names Name { get { return (Names)enumOrdinal; } }" in level


SHAPE_JAVA = {
    "Shape.java": """\
        package org.demo.zoo.calc;

        public abstract class Shape {
            public abstract String label();

            public String tag(String k) { return k; }

            public abstract void draw(StringBuilder out, Style style);

            public static class Style {
                public int width() { return 1; }
            }
        }
        """,
    "Circle.java": """\
        package org.demo.zoo.calc;

        public class Circle extends Shape {
            @Override
            public String label() { return "circle"; }

            @Override
            public void draw(StringBuilder out, Shape.Style style) { out.append("o"); }

            @Override
            public String tag(String k) { return "c" + k; }

            public static boolean isWhitespace(int c) { return c == ' '; }
        }
        """,
}
SHAPE_CS = """\
namespace Demo.Zoo.Calc
{
    public abstract class Shape
    {
        public abstract string Label { get; }

        public abstract void Draw(System.Text.StringBuilder output, Style style);
    }

    public class Style
    {
        public int Width() { return 1; }
    }

    public static class ShapeUse
    {
        public static bool Blank(int c) { return Circle.IsWhiteSpace(c); }

        public static Shape Make() { return new Circle(); }
    }
}
"""


@pytest.mark.skipif(shutil.which("mcs") is None, reason="mcs not installed")
def test_a_class_keeps_its_port_base_its_callers_casing_its_non_virtual_members_and_type_names(tmp_path):
    """Shape's abstract Java method is a property in the port, its nested Style a top-level type: the
    overrides are generated as such, from their Java methods (none left out, none added afterwards)."""
    cs, result = _regenerated(tmp_path, "Circle", SHAPE_JAVA, {"Shape.cs": SHAPE_CS})
    circle = (cs / result.plan.files[0].path).read_text()
    assert result.check.compiled and result.check.dropped == [], result.check.render() + circle
    assert not [r for r in result.check.reshaped if "added the override" in r]   # the Java methods override
    assert "public class Circle : Shape" in circle
    assert "public override string Label\n" in circle and "get { throw new NotImplementedException(); }" in circle
    assert "public override void Draw(StringBuilder @out, Style style)" in circle   # the port's top-level Style
    assert "string Tag(string k)" in circle and "override string Tag" not in circle    # Shape has no Tag
    assert "public static bool IsWhiteSpace(int c)" in circle


def test_an_override_the_ports_base_cannot_take_becomes_new_or_plain():
    from repotrans.skeleton.check import MemberError, _as_new
    from repotrans.skeleton.generate import SkeletonFile
    from repotrans.skeleton.lines import Line
    f = SkeletonFile("A.cs", "N", ["p.A"], [Line("public class A : B", "A", "type"), Line("{"),
                                             Line("    public override string Attr(string k)", "A.attr(String)"),
                                             Line("    public override int Size()", "A.size()")], ["namespace N", "{"])
    assert _as_new(f, MemberError("A.cs", 5, "CS0115", "no suitable method found to override", "A.attr(String)"))
    assert _as_new(f, MemberError("A.cs", 6, "CS0506", "cannot override: not virtual", "A.size()"))
    assert [ln.text for ln in f.lines[2:]] == ["    public string Attr(string k)", "    public new int Size()"]
    assert not _as_new(f, MemberError("A.cs", 5, "CS0115", "again", "A.attr(String)"))


STREAM_JAVA = {
    "Reader.java": """\
        package org.demo.zoo.calc;

        import java.io.InputStream;

        public class Reader {
            public int size(InputStream in) { return 0; }
        }
        """,
    "Loader.java": """\
        package org.demo.zoo.calc;

        import java.io.InputStream;

        public class Loader {
            public static int load(InputStream in) { return new Reader().size(in); }
        }
        """,
}
STREAM_CS = """\
using System.IO;

namespace Demo.Zoo.Calc
{
    public class Reader
    {
        public int Size(Stream input) { return 0; }
    }
}
"""


@pytest.mark.skipif(shutil.which("mcs") is None, reason="mcs not installed")
def test_a_jdk_type_the_table_lacks_is_declared_as_the_port_declares_it(tmp_path):
    """The static JDK table has no InputStream; the port declares Stream where Java declares InputStream
    (Reader.size), so the regenerated Loader does too, with the namespace the port's file imports for it."""
    cs, result = _regenerated(tmp_path, "Loader", STREAM_JAVA, {"Reader.cs": STREAM_CS})
    loader = (cs / result.plan.files[0].path).read_text()
    assert result.check.compiled and result.check.dropped == [], result.check.render() + loader
    assert "public static int Load(Stream @in)" in loader and "using System.IO;" in loader
    assert result.plan.conventions.port_types() == {"InputStream": "Stream"}


CODEC_JAVA = {"Codec.java": """\
    package org.demo.zoo.calc;

    public class Codec {
        public static final String defaultCharset = "UTF-8";

        public static int width(String s) { return s.length(); }
    }
    """}
CODEC_USE = """\
using System.Text;

namespace Demo.Zoo.Calc
{
    public static class CodecUse
    {
        public static byte[] Bytes(string s) { return Encode(s, Codec.DefaultEncoding); }

        public static string Text(byte[] b) { return Codec.DefaultEncoding.GetString(b); }

        private static byte[] Encode(string s, Encoding e) { return e.GetBytes(s); }
    }
}
"""


@pytest.mark.skipif(shutil.which("mcs") is None, reason="mcs not installed")
def test_a_member_only_the_ports_code_has_becomes_a_placeholder_of_the_type_its_uses_need(tmp_path):
    """NSoup's HttpConnection reads DataUtil.DefaultEncoding (an Encoding; jsoup has the String
    defaultCharset): no Java member gives it, and without it the library does not build, so no body of
    the regenerated class can be judged. The skeleton gets a placeholder typed by the conversion a use of
    it needs (Encode's Encoding parameter), and the library builds."""
    cs, result = _regenerated(tmp_path, "Codec", CODEC_JAVA, {"CodecUse.cs": CODEC_USE})
    codec = (cs / result.plan.files[0].path).read_text()
    assert result.check.compiled and result.check.dropped == [], result.check.render() + codec
    assert "public static System.Text.Encoding DefaultEncoding { get { throw new NotImplementedException(); } }" \
        in codec
    assert [r for r in result.check.reshaped if "DefaultEncoding" in r] == [
        "Demo.Zoo.Calc.Codec.DefaultEncoding: a placeholder for the port's src/Demo.Zoo/CodecUse.cs:7 (no Java "
        "counterpart), typed by the port's uses"]


TEXTS_JAVA = {"Texts.java": """\
    package org.demo.zoo.calc;

    public final class Texts {
        private Texts() {}

        public static boolean isBlank(String s) { return s == null || s.trim().length() == 0; }

        public static int width(int n) { return n; }

        public static String trimmed(String s) { return s.trim(); }
    }
    """}
TEXTS_USE = """\
namespace Demo.Zoo.Calc
{
    public static class TextsUse
    {
        public static bool Empty(string label) { return label.IsBlank(); }

        public static string Clean(string label) { return label.Trimmed(); }
    }
}
"""


@pytest.mark.skipif(shutil.which("mcs") is None, reason="mcs not installed")
def test_a_static_helper_the_ports_code_calls_as_an_extension_method_becomes_one(tmp_path):
    """NSoup's TextNode calls `text.IsBlank()`: the port's StringUtil is a static class of extension methods
    (jsoup's StringUtil.isBlank(String) is a plain static). Regenerated plain, the port's code did not build
    (CS1061), so no test of the class could run; the method takes `this` and the class becomes static."""
    cs, result = _regenerated(tmp_path, "Texts", TEXTS_JAVA, {"TextsUse.cs": TEXTS_USE})
    texts = (cs / result.plan.files[0].path).read_text()
    assert result.check.compiled and result.check.dropped == [], result.check.render() + texts
    assert "public static class Texts" in texts and "public static bool IsBlank(this string s)" in texts
    assert "Texts()" not in texts and "public static int Width(int n)" in texts
    assert "public static string Trimmed(this string s)" in texts and "static static" not in texts   # a second one
