"""Test names as mapping evidence (mapping/test_names.py): a JUnit test and the NUnit test it was paired
with name the same member, renamed on both sides; with the signature agreeing, that pairs the member."""
from __future__ import annotations

from tests.support.indexes import mapped_pair, target_of

JAVA = {"src/main/java/p/Encoder.java": ("package p;\npublic class Encoder {\n  private int n;\n"
                                          "  public boolean isFull() { return n >= 16; }\n"
                                          "  public void push(int v) { n++; }\n}\n"),
        "src/test/java/p/EncoderTest.java": ("package p;\nimport org.junit.Test;\nimport static org.junit.Assert.*;\n"
                                              "public class EncoderTest {\n"
                                              "  @Test public void testIsFull() { Encoder e = new Encoder(); assertFalse(e.isFull()); }\n"
                                              "  @Test public void testPush() { new Encoder().push(1); }\n}\n")}
CS = {"Acme/Encoder.cs": ("namespace P {\n public class Encoder {\n  private int n;\n  const int Capacity = 16;\n"
                          "  public bool IsCodeFull(%s) { return Size() == Capacity; }\n"
                          "  public void Push(int v) { n++; }\n  public int Size() { return n; }\n }\n}\n"),
      "Acme.Tests/EncoderTest.cs": ("using NUnit.Framework;\nnamespace P.Tests {\n [TestFixture] public class EncoderTest {\n"
                                    "  [Test] public void TestIsCodeFull() { var e = new Encoder(); Assert.IsFalse(e.IsCodeFull()); }\n"
                                    "  [Test] public void TestPush() { new Encoder().Push(1); }\n }\n}\n")}


def _cs(params: str = "") -> dict[str, str]:
    return {path: text % params if "%s" in text else text for path, text in CS.items()}


def test_a_member_renamed_with_its_test_is_paired_by_the_test_names(tmp_path):
    m, _ = mapped_pair(tmp_path, JAVA, _cs())
    found = m.target_method("source:p.Encoder.isFull()")
    assert found is not None and target_of(m, "p.Encoder.isFull()") == "P.Encoder.IsCodeFull()"
    assert (found.reason, found.evidence) == ("test names", (
        "test names p.EncoderTest.testIsFull() ~ P.Tests.EncoderTest.TestIsCodeFull()", "name carries IsCodeFull",
        "signature agrees"))


def test_test_names_alone_are_not_enough(tmp_path):
    """The port's IsCodeFull takes a parameter Java's isFull has not: the test names say nothing then."""
    m, _ = mapped_pair(tmp_path, JAVA, _cs("string mode"))
    assert target_of(m, "p.Encoder.isFull()") is None
