"""Test classes the port renamed the other framework's way (`RegexCacheTest` -> `TestRegexCache`,
`XTest` -> `XTests`), and the types nested in them (typematch: name keys, nesting in the outer's
counterpart), as libphonenumber's C# port and xmlunit.net name them."""
from __future__ import annotations

from tests.support.indexes import mapped_pair, target_of

JAVA = {"src/main/java/p/Cache.java": "package p;\npublic class Cache {\n  public int size() { return 0; }\n}\n",
        "src/test/java/p/CacheTest.java": ("package p;\nimport junit.framework.TestCase;\n"
                                           "public class CacheTest extends TestCase {\n"
                                           "  public void testSize() { assertEquals(0, new Cache().size()); }\n"
                                           "  private static class Entry {\n    Entry(String key) { }\n  }\n}\n")}


def _cs(test_class: str) -> dict[str, str]:
    return {"P/Cache.cs": "namespace P {\n public class Cache {\n  public int Size() { return 0; }\n }\n}\n",
            "P.Test/CacheTests.cs": ("using NUnit.Framework;\nnamespace P.Test {\n"
                                     f" [TestFixture] class {test_class} {{\n"
                                     "  [Test] public void TestSize() { Assert.AreEqual(0, new Cache().Size()); }\n"
                                     "  private class Entry {\n   public Entry(string key) { }\n  }\n }\n}\n")}


def test_a_junit_test_class_is_the_nunit_class_named_the_other_way(tmp_path):
    for name in ("TestCache", "CacheTests"):
        mapping, _ = mapped_pair(tmp_path / name, JAVA, _cs(name))
        assert target_of(mapping, "p.CacheTest") == f"P.Test.{name}"
        assert target_of(mapping, "p.CacheTest.testSize()") == f"P.Test.{name}.TestSize()"
        assert target_of(mapping, "p.CacheTest.Entry") == f"P.Test.{name}.Entry"
        assert target_of(mapping, "p.CacheTest.Entry.<init>(String)") == f"P.Test.{name}.Entry.<init>(string)"


def test_a_test_class_of_another_type_is_not_paired(tmp_path):
    mapping, _ = mapped_pair(tmp_path, JAVA, _cs("TestCacheEntries"))
    assert target_of(mapping, "p.CacheTest") is None
    assert target_of(mapping, "p.CacheTest.Entry") is None
