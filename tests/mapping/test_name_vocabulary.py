"""Names ports give Java members by their role (data/java_cs_names.json): a static factory `newX()` is
`CreateX()`, a count `xSize()` the property `XCount`, an Iterator's hasNext()/next() the IEnumerator's
MoveNext()/Current, a plural list accessor `xs()` the property `XList`; of two getters of a boolean the
`isX` one reads it (libphonenumber's C# port, NSoup)."""
from __future__ import annotations

from tests.support.indexes import mapped_pair, target_of

JAVA = {"p/Formats.java": """package p;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
public class Formats implements Iterator<String> {
  private final List<String> items = new ArrayList<String>();
  private int at;
  public static Formats newBuilder() { return new Formats(); }
  public int formatSize() { return items.size(); }
  public boolean hasNext() { return at < items.size(); }
  public String next() { return items.get(at++); }
}
"""}


def _cs(count: str = "FormatCount") -> dict[str, str]:
    return {"P/Formats.cs": f"""using System.Collections;
using System.Collections.Generic;
namespace P {{
 public class Formats : IEnumerator<string> {{
  private readonly List<string> items = new List<string>();
  private int at = -1;
  public static Formats CreateBuilder() {{ return new Formats(); }}
  public int {count} {{ get {{ return items.Count; }} }}
  public bool MoveNext() {{ return ++at < items.Count; }}
  public string Current {{ get {{ return items[at]; }} }}
  object IEnumerator.Current {{ get {{ return Current; }} }}
  public void Reset() {{ at = -1; }}
  public void Dispose() {{ }}
 }}
}}
"""}


def test_members_named_by_their_role(tmp_path):
    mapping, _ = mapped_pair(tmp_path, JAVA, _cs())
    assert target_of(mapping, "p.Formats.newBuilder()") == "P.Formats.CreateBuilder()"
    assert target_of(mapping, "p.Formats.formatSize()") == "P.Formats.FormatCount"
    assert target_of(mapping, "p.Formats.hasNext()") == "P.Formats.MoveNext()"
    assert target_of(mapping, "p.Formats.next()") == "P.Formats.Current"
    assert mapping.target_method("source:p.Formats.formatSize()").reason == "xSize() -> XCount"


def test_a_count_of_another_thing_is_not_the_size(tmp_path):
    mapping, _ = mapped_pair(tmp_path, JAVA, _cs("PatternCount"))
    assert target_of(mapping, "p.Formats.formatSize()") is None


MESSAGE = {"p/Meta.java": """package p;
import java.util.ArrayList;
import java.util.List;
public class Meta {
  private final List<String> format = new ArrayList<String>();
  private boolean main;
  public List<String> formats() { return format; }
  public boolean isMain() { return main; }
  public boolean getMain() { return main; }
}
"""}
MESSAGE_CS = {"P/Meta.cs": """using System.Collections.Generic;
namespace P {
 public class Meta {
  private readonly List<string> format = new List<string>();
  private bool main;
  public IList<string> FormatList { get { return format; } }
  public bool Main { get { return main; } }
 }
}
"""}


def test_a_plural_list_accessor_and_a_booleans_is_getter(tmp_path):
    """protobuf-csharp's `XList` for a Java `xs()`; of `isMain()` and `getMain()`, the JavaBeans getter reads Main."""
    mapping, _ = mapped_pair(tmp_path, MESSAGE, MESSAGE_CS)
    assert target_of(mapping, "p.Meta.formats()") == "P.Meta.FormatList"
    assert target_of(mapping, "p.Meta.isMain()") == "P.Meta.Main"
    assert target_of(mapping, "p.Meta.getMain()") is None
