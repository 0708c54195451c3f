"""Fields the port renamed (mapping/fields.py): found through the mapping on two signals (the same
constant value, name words, the same type), never one, and read by the translator before any naming
convention."""
from __future__ import annotations

from repotrans.mapping.fields import renamed_fields
from repotrans.translator.java2cs import translate_method
from repotrans.translator.resolver import ContextResolver
from tests.support.indexes import mapped_pair

JAVA = """package p;
public class Paths {
  static final String SEPARATOR = "/";
  static final int MAX_DEPTH = 12;
  static final int LIMIT = 7;
  private int count;
  public String join(String a, String b) { return a + SEPARATOR + b; }
}
"""
CS = """namespace P {
 public class Paths {
  public const string PathSeparator = "/";
  public const int DepthLimit = 12;
  public const int Other = 7;
  private int _count;
  public string Join(string a, string b) { return a + PathSeparator + b; }
 }
}
"""


def test_renamed_fields_are_found_on_two_signals(tmp_path):
    m, index = mapped_pair(tmp_path, {"p/Paths.java": JAVA}, {"P/Paths.cs": CS})
    assert renamed_fields(index, m) == {"Paths.SEPARATOR": "PathSeparator", "Paths.MAX_DEPTH": "DepthLimit"}
    # LIMIT fits Other (the same value and type) and DepthLimit (a word and the type): two candidates, none;
    # count -> _count is the convention's, not the mapping's


def test_the_translator_reads_a_renamed_constant_through_the_mapping(tmp_path):
    m, index = mapped_pair(tmp_path, {"p/Paths.java": JAVA}, {"P/Paths.cs": CS})
    resolver = ContextResolver("Paths", {})
    resolver.renames = renamed_fields(index, m)
    code = translate_method(index.method("source:p.Paths.join(String, String)"), resolver,
                            index.method("target:P.Paths.Join(string, string)"))
    assert "return a + PathSeparator + b;" in code, code


def test_a_same_named_member_of_another_type_is_no_twin(tmp_path):
    """Java's `Map accounts` is the port's `accountsByCode`; its `Accounts` property is a list."""
    java = ("package p;\nimport java.util.*;\npublic class Ledger {\n"
            "  private final Map<String, Integer> accounts = new LinkedHashMap<>();\n"
            "  public boolean has(String code) { return accounts.containsKey(code); }\n}\n")
    cs = ("using System.Collections.Generic;\nnamespace P {\n public class Ledger {\n"
          "  private readonly Dictionary<string, int> accountsByCode = new Dictionary<string, int>();\n"
          "  private readonly List<int> chart = new List<int>();\n"
          "  public IReadOnlyList<int> Accounts { get { return chart.AsReadOnly(); } }\n"
          "  public bool Has(string code) { return accountsByCode.ContainsKey(code); }\n }\n}\n")
    m, index = mapped_pair(tmp_path, {"p/Ledger.java": java}, {"P/Ledger.cs": cs})
    assert renamed_fields(index, m) == {"Ledger.accounts": "accountsByCode"}
