"""Test fixtures as mapping evidence (mapping/test_fixtures.py): a JUnit 3 test class's constructor and a
JUnit 4 @Before method are the port's [TestFixtureSetUp] and [SetUp] members, as libphonenumber's C# port
writes them, whatever their names."""
from __future__ import annotations

from tests.support.indexes import mapped_pair, target_of

JAVA = {"src/main/java/p/Cache.java": "package p;\npublic class Cache {\n  public int size() { return 0; }\n}\n",
        "src/test/java/p/CacheTest.java": ("package p;\nimport junit.framework.TestCase;\n"
                                           "public class CacheTest extends TestCase {\n  private Cache cache;\n"
                                           "  public CacheTest() { cache = new Cache(); }\n"
                                           "  public void testSize() { assertEquals(0, cache.size()); }\n}\n"),
        "src/test/java/p/EntryTest.java": ("package p;\nimport org.junit.Before;\nimport org.junit.Test;\n"
                                           "public class EntryTest {\n  private Cache cache;\n"
                                           "  @Before public void prepare() { cache = new Cache(); }\n"
                                           "  @Test public void testSize() { cache.size(); }\n}\n")}


def _cs(cache_attribute: str = "TestFixtureSetUp") -> dict[str, str]:
    return {"P/Cache.cs": "namespace P {\n public class Cache {\n  public int Size() { return 0; }\n }\n}\n",
            "P.Test/CacheTest.cs": ("using NUnit.Framework;\nnamespace P.Test {\n [TestFixture] public class CacheTest {\n"
                                    "  private Cache cache;\n"
                                    f"  [{cache_attribute}] public void SetupFixture() {{ cache = new Cache(); }}\n"
                                    "  [Test] public void TestSize() { Assert.AreEqual(0, cache.Size()); }\n }\n}\n"),
            "P.Test/EntryTest.cs": ("using NUnit.Framework;\nnamespace P.Test {\n [TestFixture] public class EntryTest {\n"
                                    "  private Cache cache;\n"
                                    "  [SetUp] public void Init() { cache = new Cache(); }\n"
                                    "  [Test] public void TestSize() { cache.Size(); }\n }\n}\n")}


def test_fixture_members_pair_by_their_role(tmp_path):
    mapping, _ = mapped_pair(tmp_path, JAVA, _cs())
    assert target_of(mapping, "p.CacheTest.<init>()") == "P.Test.CacheTest.SetupFixture()"
    assert target_of(mapping, "p.EntryTest.prepare()") == "P.Test.EntryTest.Init()"
    match = mapping.target_method("source:p.CacheTest.<init>()")
    assert (match.reason, match.evidence) == ("test fixture", (
        "a JUnit 3 test class's constructor ~ [TestFixtureSetUp]", "both parameterless",
        "the only unclaimed fixture set-up member of its class"))


def test_a_member_of_another_role_is_not_paired(tmp_path):
    """A tear-down is no set-up: the constructor stays unmatched."""
    mapping, _ = mapped_pair(tmp_path, JAVA, _cs("TearDown"))
    assert target_of(mapping, "p.CacheTest.<init>()") is None
