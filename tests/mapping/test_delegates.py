"""A Java interface of one method the port made a delegate named after that method (libphonenumber's
`PhoneNumberMatcher.NumberGroupingChecker.checkGroups` -> `PhoneNumberMatcher.CheckGroups`): the types pair,
and the method is the delegate's Invoke."""
from __future__ import annotations

from tests.support.indexes import mapped_pair, target_of

JAVA = {"p/Matcher.java": """package p;
public class Matcher {
  interface GroupingChecker {
    boolean checkGroups(String number, int[] groups);
  }
  static boolean valid(String n, GroupingChecker checker) { return checker.checkGroups(n, new int[0]); }
}
"""}


def _cs(parameters: str = "string number, int[] groups") -> dict[str, str]:
    return {"P/Matcher.cs": f"""namespace P {{
 public class Matcher {{
  public delegate bool CheckGroups({parameters});
  static bool Valid(string n, CheckGroups checker) {{ return checker(n, new int[0]); }}
 }}
}}
"""}


def test_an_interface_made_a_delegate_named_after_its_method(tmp_path):
    mapping, _ = mapped_pair(tmp_path, JAVA, _cs())
    assert target_of(mapping, "p.Matcher.GroupingChecker") == "P.Matcher.CheckGroups"
    assert target_of(mapping, "p.Matcher.GroupingChecker.checkGroups(String, int[])") == \
        "P.Matcher.CheckGroups.Invoke(string, int[])"


def test_a_delegate_of_another_arity_is_not_the_interface(tmp_path):
    mapping, _ = mapped_pair(tmp_path, JAVA, _cs("string number"))
    assert target_of(mapping, "p.Matcher.GroupingChecker") is None
