"""A Java enum's method where the port's enum can hold none (C# enums have no methods): the class holding the
enum declares it with the enum value as its first parameter (libphonenumber's `Leniency.verify(number,
candidate, util)` -> `PhoneNumberUtil.Verify(Leniency, number, candidate, util)`)."""
from __future__ import annotations

from tests.support.indexes import mapped_pair, target_of

JAVA = {"p/Util.java": """package p;
public class Util {
  public enum Leniency {
    POSSIBLE { boolean verify(String number, int length) { return length > 2; } },
    VALID { boolean verify(String number, int length) { return length > 5; } };
    abstract boolean verify(String number, int length);
  }
}
"""}


def _cs(first: str = "Leniency leniency") -> dict[str, str]:
    return {"P/Util.cs": f"""namespace P {{
 public class Util {{
  public enum Leniency {{ POSSIBLE, VALID }}
  public bool Verify({first}, string number, int length) {{
   return length > 2;
  }}
 }}
}}
"""}


def test_an_enum_method_moves_to_the_enums_holder_with_the_value_first(tmp_path):
    mapping, _ = mapped_pair(tmp_path, JAVA, _cs())
    assert target_of(mapping, "p.Util.Leniency.verify(String, int)") == "P.Util.Verify(Leniency, string, int)"
    assert "the enum value its first parameter" in mapping.target_method("source:p.Util.Leniency.verify(String, int)").reason


def test_a_method_of_the_holder_without_the_enum_is_not_the_enums(tmp_path):
    mapping, _ = mapped_pair(tmp_path, JAVA, _cs("object leniency"))
    assert target_of(mapping, "p.Util.Leniency.verify(String, int)") is None
