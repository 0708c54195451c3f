"""A JDK type the port wraps in its own subtype of the .NET counterpart (libphonenumber's PhoneRegex : Regex)
is learned from paired declarations, and what a candidate creates of it is the port's type."""
from __future__ import annotations

from repotrans.mapping.api_cache import load_api_map
from repotrans.translator.java2cs import translate_method
from repotrans.translator.resolver import ContextResolver
from tests.support.indexes import mapped_pair

JAVA = {"p/Util.java": """package p;
import java.util.regex.Pattern;
import java.util.Map;
public class Util {
  static final Pattern PLUS = Pattern.compile("[+]+");
  static final Pattern DIGITS = Pattern.compile("\\\\d+");
  private Map<String, Pattern> cache;
  public boolean starts(Pattern p, String s) { return p.matcher(s).lookingAt(); }
  public Pattern make(String regex) { Pattern made = Pattern.compile(regex); return made; }
}
"""}


def _cs(declared: str) -> dict[str, str]:
    return {"P/PortRegex.cs": """using System.Text.RegularExpressions;
namespace P {
  public class PortRegex : Regex {
    public PortRegex(string pattern) : base(pattern) { }
    public Match MatchBeginning(string s) { return new Regex("^(?:" + this + ")").Match(s); }
  }
}
""", "P/Util.cs": f"""using System.Collections.Generic;
using System.Text.RegularExpressions;
namespace P {{
  public class Util {{
    static readonly {declared} PLUS = new {declared}("[+]+");
    static readonly {declared} DIGITS = new {declared}("\\\\d+");
    private Dictionary<string, {declared}> cache;
    public bool Starts({declared} p, string s) {{ return p.Match(s).Success && p.Match(s).Index == 0; }}
    public {declared} Make(string regex) {{ return new {declared}(regex); }}
  }}
}}
"""}


def _make(tmp_path, cs: dict[str, str]) -> tuple[str, object]:
    mapping, index = mapped_pair(tmp_path, JAVA, cs)
    api = load_api_map(index, mapping)
    java = index.method("source:p.Util.make(String)")
    target = index.method(mapping.target_method(java.id).target_id)
    resolver = ContextResolver("Util", {})
    resolver.api = api.without(java.id, target.id)
    return translate_method(java, resolver, target), resolver.api


def test_the_ports_subtype_is_learned_from_fields_type_arguments_and_parameters(tmp_path):
    from repotrans.mapping.wrapped_types import declared_types
    mapping, index = mapped_pair(tmp_path, JAVA, _cs("PortRegex"))
    seen = sorted((o.key, o.template, o.source_id.rsplit(".", 1)[-1]) for o in declared_types(index, mapping)
                  if o.key == "type Pattern")
    assert seen == [("type Pattern", "PortRegex", "DIGITS"), ("type Pattern", "PortRegex", "PLUS"),
                    ("type Pattern", "PortRegex", "cache"), ("type Pattern", "PortRegex", "make(String)"),
                    ("type Pattern", "PortRegex", "starts(Pattern, String)")]


def test_what_the_candidate_creates_is_the_ports_type_the_task_learning_nothing_from_itself(tmp_path):
    code, api = _make(tmp_path, _cs("PortRegex"))
    assert api.wrapper("Pattern") == "PortRegex"
    assert "new PortRegex(regex)" in code and "new Regex(" not in code


def test_a_port_that_declares_the_dotnet_type_keeps_it(tmp_path):
    code, api = _make(tmp_path, _cs("Regex"))
    assert api.wrapper("Pattern") is None
    assert "Regex(regex)" in code and "PortRegex" not in code


def test_a_port_class_that_does_not_derive_from_the_counterpart_is_no_wrapper(tmp_path):
    cs = _cs("PortRegex")
    cs["P/PortRegex.cs"] = cs["P/PortRegex.cs"].replace(" : Regex", "").replace(" : base(pattern)", "")
    code, api = _make(tmp_path, cs)
    assert api.wrapper("Pattern") is None and "new PortRegex(" not in code
