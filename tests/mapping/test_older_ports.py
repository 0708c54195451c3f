"""A port of an older, smaller version that renamed its types (javaewah -> csharpewah): a type most of whose
member names the Java type has and named with half its words (EWAHCompressedBitmap -> EwahCompressedBitArray),
a name key ignoring case (EWAHIterator -> EwahEnumerator), a test class named after its tested type's counterpart,
and of two Java tests claiming one C# test the one whose name the port kept as written."""
from __future__ import annotations

from tests.support.indexes import mapped_pair, target_of

OPS = ["add", "and", "andNot", "or", "xor", "not", "set", "clear", "shrink", "reserve", "toDebugString", "intersects"]
NEWER = ["orCardinality", "andCardinality", "xorCardinality", "toArray", "andToContainer", "orToContainer",
         "xorToContainer", "serializedSizeInBytes"]


def _java() -> dict[str, str]:
    body = "".join(f"  public void {m}() {{ words++; }}\n" for m in OPS + NEWER)
    return {"src/main/java/p/BITSCompressedBitmap.java": f"package p;\npublic class BITSCompressedBitmap {{\n"
                                                           f"  private int words;\n{body}}}\n",
            "src/main/java/p/BITSIterator.java": "package p;\npublic class BITSIterator {\n"
                                                 "  public boolean hasNext() { return false; }\n}\n",
            "src/main/java/p/Word.java": "package p;\npublic class Word {\n  public int size() { return 1; }\n}\n",
            "src/test/java/p/BITSCompressedBitmapTest.java": (
                "package p;\nimport org.junit.Test;\npublic class BITSCompressedBitmapTest {\n"
                "  @Test public void testsetSize() { new BITSCompressedBitmap().set(); }\n"
                "  @Test public void testSetSize() { new BITSCompressedBitmap().clear(); }\n}\n")}


def _cs(name: str = "BitsCompressedBitArray", kept: list[str] = OPS[:11]) -> dict[str, str]:
    body = "".join(f"  public void {m[:1].upper() + m[1:]}() {{ words++; }}\n" for m in kept)
    return {"P/Bits.cs": f"namespace P {{\n public class {name} {{\n  private int words;\n{body} }}\n"
                         " public class BitsEnumerator {\n  public bool HasNext() { return false; }\n }\n"
                         " public class Word {\n  public int Size() { return 1; }\n }\n}\n",
            "P.Tests/BitsTest.cs": ("using NUnit.Framework;\nnamespace P.Tests {\n"
                                    f" [TestFixture] public class {name}Test {{\n"
                                    f"  [Test] public void testsetSize() {{ new {name}().Set(); }}\n }}\n}}\n")}


def test_an_older_ports_renamed_types_and_their_members(tmp_path):
    mapping, _ = mapped_pair(tmp_path, _java(), _cs())
    assert target_of(mapping, "p.BITSCompressedBitmap") == "P.BitsCompressedBitArray"
    assert target_of(mapping, "p.BITSCompressedBitmap.andNot()") == "P.BitsCompressedBitArray.AndNot()"
    assert target_of(mapping, "p.BITSCompressedBitmap.toArray()") is None
    assert target_of(mapping, "p.BITSIterator") == "P.BitsEnumerator"
    assert target_of(mapping, "p.BITSCompressedBitmapTest") == "P.Tests.BitsCompressedBitArrayTest"
    assert target_of(mapping, "p.BITSCompressedBitmapTest.testsetSize()") == "P.Tests.BitsCompressedBitArrayTest.testsetSize()"
    assert target_of(mapping, "p.BITSCompressedBitmapTest.testSetSize()") is None


def test_a_type_sharing_few_members_or_no_name_word_is_not_the_older_port(tmp_path):
    mapping, _ = mapped_pair(tmp_path / "few", _java(), _cs(kept=OPS[:6]))
    assert target_of(mapping, "p.BITSCompressedBitmap") is None
    mapping, _ = mapped_pair(tmp_path / "name", _java(), _cs(name="PackedSet"))
    assert target_of(mapping, "p.BITSCompressedBitmap") is None


def test_a_member_named_after_a_renamed_type_follows_its_rename(tmp_path):
    java = _java()
    java["src/main/java/p/BITSCompressedBitmap.java"] = java["src/main/java/p/BITSCompressedBitmap.java"][:-2] + \
        "  public BITSIterator getBITSIterator() { return new BITSIterator(); }\n}\n"
    cs = _cs()
    cs["P/Bits.cs"] = cs["P/Bits.cs"].replace("  private int words;\n",
                                              "  private int words;\n  public BitsEnumerator GetBitsEnumerator() "
                                              "{ return null; }\n", 1)
    mapping, _ = mapped_pair(tmp_path, java, cs)
    assert target_of(mapping, "p.BITSCompressedBitmap.getBITSIterator()") == \
        "P.BitsCompressedBitArray.GetBitsEnumerator()"
    assert mapping.target_method("source:p.BITSCompressedBitmap.getBITSIterator()").reason == \
        "a renamed type's name in it"
