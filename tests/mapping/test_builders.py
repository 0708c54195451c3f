"""A mutable Java class whose port is immutable and built by a nested Builder (protobuf-csharp, as
libphonenumber's C# port): the Java mutators are the builder's (member_hosts.builder_classes), and a Java
setter is never a get-only property's writer."""
from __future__ import annotations

from tests.support.indexes import mapped_pair, target_of

JAVA = {"p/Format.java": """package p;
public class Format {
  private String pattern = "";
  private int width;
  public String getPattern() { return pattern; }
  public Format setPattern(String value) { pattern = value; return this; }
  public Format clearPattern() { pattern = ""; return this; }
  public int getWidth() { return width; }
  public void setWidth(int w) { width = w; }
}
"""}


def _cs(build: str = "public Format Build() { return result; }") -> dict[str, str]:
    """The port: Format's properties are get-only; its nested Builder (building it with `build`) sets them."""
    return {"P/Format.cs": f"""namespace P {{
 public class Format {{
  internal string pattern = "";
  internal int width;
  public string Pattern {{ get {{ return pattern; }} }}
  public int Width {{ get {{ return width; }} }}
  public class Builder {{
   private Format result = new Format();
   {build}
   public Builder SetPattern(string value) {{ result.pattern = value; return this; }}
   public Builder ClearPattern() {{ result.pattern = ""; return this; }}
   public Builder SetWidth(int value) {{ result.width = value; return this; }}
  }}
 }}
}}
"""}


def test_the_mutators_of_an_immutable_port_are_its_builders(tmp_path):
    mapping, _ = mapped_pair(tmp_path, JAVA, _cs())
    assert target_of(mapping, "p.Format.getPattern()") == "P.Format.Pattern"
    assert target_of(mapping, "p.Format.setPattern(String)") == "P.Format.Builder.SetPattern(string)"
    assert target_of(mapping, "p.Format.clearPattern()") == "P.Format.Builder.ClearPattern()"
    assert target_of(mapping, "p.Format.setWidth(int)") == "P.Format.Builder.SetWidth(int)"
    match = mapping.target_method("source:p.Format.setPattern(String)")
    assert "moved to its builder Builder" in match.reason


def test_a_nested_class_that_builds_nothing_holds_no_mutator(tmp_path):
    """Without a Build() returning Format the nested class is no builder: the setters stay unmatched,
    never the get-only properties' writers."""
    mapping, _ = mapped_pair(tmp_path, JAVA, _cs("public object Build() { return result; }"))
    assert mapping.target_method("source:p.Format.setPattern(String)") is None
    assert mapping.target_method("source:p.Format.setWidth(int)") is None
    assert target_of(mapping, "p.Format.getWidth()") == "P.Format.Width"


def test_a_setter_whose_type_drifted_never_writes_a_get_only_property(tmp_path):
    """POI's HSSFCell.setCellType(int) beside NPOI's get-only `CellType CellType`: the int -> enum drift does not
    make it the property's writer (its reader getCellType() stays paired)."""
    java = {"p/Cell.java": "package p;\npublic class Cell {\n  private int type;\n"
                           "  public int getCellType() { return type; }\n  public void setCellType(int t) { type = t; }\n}\n"}
    cs = {"P/Cell.cs": "namespace P {\n public enum CellType { Numeric, Text }\n public class Cell {\n"
                       "  private CellType type;\n  public CellType CellType { get { return type; } }\n }\n}\n"}
    mapping, _ = mapped_pair(tmp_path, java, cs)
    assert target_of(mapping, "p.Cell.getCellType()") == "P.Cell.CellType"
    assert target_of(mapping, "p.Cell.setCellType(int)") is None
