"""A Java getter and a get-only C# property that return the same field (a read-only port: NSoup's ParseError,
NPOI's EncryptionHeader), paired where no naming rule and no structural evidence found them
(field_readers.readers_of_same_fields)."""
from __future__ import annotations

from tests.support.indexes import mapped_pair, target_of

JAVA = {"p/ParseError.java": """package p;
public class ParseError {
  private int pos;
  private String errorMsg;
  public ParseError(int pos, String errorMsg) { this.pos = pos; this.errorMsg = errorMsg; }
  public String getErrorMsg() { return errorMsg; }
  public int getPos() { return pos; }
}
"""}


def _cs(field: str = "errorMsg") -> dict[str, str]:
    return {"P/ParseError.cs": f"""namespace P {{
 public class ParseError {{
  private int pos;
  private string {field};
  public ParseError(int pos, string errorMsg) {{ this.pos = pos; this.{field} = errorMsg; }}
  public string ErrorMessage {{ get {{ return {field}; }} }}
  public int Position => pos;
 }}
}}
"""}


def test_a_getter_and_a_property_returning_the_same_field(tmp_path):
    mapping, _ = mapped_pair(tmp_path, JAVA, _cs())
    assert target_of(mapping, "p.ParseError.getErrorMsg()") == "P.ParseError.ErrorMessage"
    assert target_of(mapping, "p.ParseError.getPos()") == "P.ParseError.Position"
    assert mapping.target_method("source:p.ParseError.getErrorMsg()").evidence == (
        "getErrorMsg() returns errorMsg", "ErrorMessage returns it", "type agrees")


def test_another_field_is_another_member(tmp_path):
    mapping, _ = mapped_pair(tmp_path, JAVA, _cs("detail"))
    assert target_of(mapping, "p.ParseError.getErrorMsg()") is None
