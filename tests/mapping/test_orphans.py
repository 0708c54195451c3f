"""A static method of a Java class the port did not port, moved into a ported type (javaewah's
IteratingBufferedRunningLengthWord.discharge -> csharpewah's EwahCompressedBitArray.Discharge); of the class and
its 32-bit twin, the one whose parameter types are the C# method's (neighbours.match_orphans)."""
from __future__ import annotations

from tests.support.indexes import mapped_pair, target_of

BODY = "{ int s = 0; for (int i = 0; i < n; i++) { s += words[i] * 31 + (s >>> 3); } return s ^ n; }"
JAVA = {"p/Bits.java": "package p;\npublic class Bits {\n  public int size() { return 0; }\n}\n",
        "p/Runner.java": f"package p;\nclass Runner {{\n  static int fold(Bits words, int n) {BODY}\n}}\n".replace(
            "words[i]", "words.size()"),
        "p32/Runner32.java": f"package p32;\nclass Runner32 {{\n  static int fold(Object words, int n) {BODY}\n}}\n"
        .replace("words[i]", "words.hashCode()")}


def _cs(name: str = "Fold") -> dict[str, str]:
    body = BODY.replace("words[i]", "words.Size()").replace(">>>", ">>")
    return {"P/Bits.cs": f"namespace P {{\n public class Bits {{\n  public int Size() {{ return 0; }}\n"
                         f"  private static int {name}(Bits words, int n) {body}\n }}\n}}\n"}


def test_a_static_helper_of_an_unported_class_moved_into_a_ported_one(tmp_path):
    mapping, _ = mapped_pair(tmp_path, JAVA, _cs())
    assert target_of(mapping, "p.Runner.fold(Bits, int)") == "P.Bits.Fold(Bits, int)"
    assert "its class not ported" in mapping.target_method("source:p.Runner.fold(Bits, int)").reason
    assert target_of(mapping, "p32.Runner32.fold(Object, int)") is None


def test_another_name_is_not_the_helper(tmp_path):
    mapping, _ = mapped_pair(tmp_path, JAVA, _cs("Combine"))
    assert target_of(mapping, "p.Runner.fold(Bits, int)") is None


def test_a_parameter_that_plainly_disagrees_is_not_the_helper(tmp_path):
    """POI's CFRule12Record.create(HSSFSheet, ...) is not NPOI's CFRuleRecord.Create(HSSFWorkbook, ...)."""
    java = {path: text for path, text in JAVA.items() if "32" not in path}
    java["p/Other.java"] = "package p;\npublic class Other {\n  public int size() { return 1; }\n}\n"
    java["p/Runner.java"] = java["p/Runner.java"].replace("fold(Bits words", "fold(Other words")
    cs = _cs()
    cs["P/Other.cs"] = "namespace P { public class Other { public int Size() { return 1; } } }\n"
    mapping, _ = mapped_pair(tmp_path, java, cs)
    assert target_of(mapping, "p.Runner.fold(Other, int)") is None
