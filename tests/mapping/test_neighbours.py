"""Round 3 of the mapping (mapping/neighbours.py): a member found by its matched callers and callees and
its body under the mapping when its name says nothing, in its type or moved to another; and never a
guess for a Java method the port has no counterpart of."""
from __future__ import annotations

from tests.support.indexes import mapped_pair, target_of

JAVA = """package p;
public class Grid {
  int[] cells = new int[64];
  public int cell(int i) { return cells[i]; }
  public int render(int w) { int total = 0; for (int i = 0; i < w; i++) { total += weigh(i, w); } return total; }
  public int paint(int w) { return weigh(0, w) + weigh(w - 1, w) + 1; }
  int weigh(int i, int w) { int c = cell(i); if (c > w) { return c * 3 - w; } return c * 7 + i; }
%s}
class Scales { static int clamp(int v) { return v < 0 ? 0 : v; } }
"""
CS = """namespace P {
 public class Grid {
  int[] cells = new int[64];
  public int Cell(int i) { return cells[i]; }
  public int Render(int w) { int total = 0; for (int i = 0; i < w; i++) { total += %s(this, i, w); } return total; }
  public int Paint(int w) { return %s(this, 0, w) + %s(this, w - 1, w) + 1; }
%s }
 public static class Scales {
  static int Clamp(int v) { return v < 0 ? 0 : v; }
  public static int Balance(Grid g, int i, int w) { int c = g.Cell(i); if (c > w) { return c * 3 - w; } return c * 7 + i; }
%s }
}
"""


def _cs(name: str = "Scales.Balance", grid_extra: str = "", scales_extra: str = "") -> str:
    return CS % (name, name, name, grid_extra, scales_extra)


def test_a_method_moved_and_renamed_is_found_by_its_neighbours(tmp_path):
    m, _ = mapped_pair(tmp_path, {"p/Grid.java": JAVA % ""}, {"P.cs": _cs()})
    found = m.target_method("source:p.Grid.weigh(int, int)")
    assert found is not None and found.target_id == "target:P.Scales.Balance(Grid, int, int)"
    assert found.reason == "matched neighbours, moved to Scales"
    assert found.evidence[:2] == ("2 matched caller(s) call it", "1 of 1 matched callees called")


def test_no_counterpart_is_never_a_guess(tmp_path):
    """The port inlined the helper: its callers call nothing it could be, so it stays unmatched; a free C#
    method its callers do call but whose body is another's is no match either."""
    inlined = _cs().replace("Scales.Balance(this, ", "Inline(").replace(
        "  public static int Balance(Grid g, int i, int w) { int c = g.Cell(i); if (c > w) { return c * 3 - w; } "
        "return c * 7 + i; }\n", "")
    m, _ = mapped_pair(tmp_path / "a", {"p/Grid.java": JAVA % ""}, {"P.cs": inlined.replace(
        " public class Grid {\n", " public class Grid {\n  int Inline(int i, int w) { return i + w; }\n")})
    assert target_of(m, "p.Grid.weigh(int, int)") is None
    assert "no C# member by the naming rules" in m.unmatched_methods["source:p.Grid.weigh(int, int)"]


def test_a_helper_with_no_java_twin_is_left_to_the_api_map(tmp_path):
    """The same move into a C# class no Java type corresponds to: the learned API map answers for it."""
    m, _ = mapped_pair(tmp_path, {"p/Grid.java": (JAVA % "").split("class Scales")[0]},
                       {"P.cs": _cs().replace("  static int Clamp(int v) { return v < 0 ? 0 : v; }\n", "")})
    assert target_of(m, "p.Grid.weigh(int, int)") is None


def test_two_members_fitting_the_neighbours_stay_unmatched(tmp_path):
    twin = ("  public static int Tilt(Grid g, int i, int w) { int c = g.Cell(i); if (c > w) { return c * 3 - w; } "
            "return c * 7 + i; }\n")
    cs = _cs(scales_extra=twin).replace("+ Scales.Balance(this, w - 1, w)", "+ Scales.Balance(this, w - 1, w) "
                                                                          "+ Scales.Tilt(this, 0, w)")
    cs = cs.replace("total += Scales.Balance(this, i, w);", "total += Scales.Balance(this, i, w) + Scales.Tilt(this, i, w);")
    m, _ = mapped_pair(tmp_path, {"p/Grid.java": JAVA % ""}, {"P.cs": cs})
    assert target_of(m, "p.Grid.weigh(int, int)") is None
    assert "matched neighbours fit 2 C# members" in m.unmatched_methods["source:p.Grid.weigh(int, int)"]


def test_an_unmatched_caller_says_nothing(tmp_path):
    """A caller whose own counterpart is unknown (the port dropped `sketch`) neither vouches for the
    candidate nor vetoes it: the two matched callers, the callee and the body still find it, and the
    evidence says one caller was left out (was: one unmatched caller left weigh unmatched)."""
    java = JAVA % "  public int sketch(int w) { return weigh(1, w) - 2; }\n"
    m, _ = mapped_pair(tmp_path, {"p/Grid.java": java}, {"P.cs": _cs()})
    assert target_of(m, "p.Grid.sketch(int)") is None
    found = m.target_method("source:p.Grid.weigh(int, int)")
    assert found is not None and found.target_id == "target:P.Scales.Balance(Grid, int, int)"
    assert found.evidence[0] == "2 matched caller(s) call it (1 unmatched left out)"


def test_only_unmatched_callers_say_nothing(tmp_path):
    """weigh's one Java caller has no counterpart (render and paint no longer call it): nothing vouches
    for a candidate, so no match."""
    java = (JAVA % "  public int sketch(int w) { return weigh(1, w) - 2; }\n").replace(
        "total += weigh(i, w);", "total += cell(i);").replace("return weigh(0, w) + weigh(w - 1, w) + 1;", "return w;")
    m, _ = mapped_pair(tmp_path, {"p/Grid.java": java}, {"P.cs": _cs()})
    assert target_of(m, "p.Grid.sketch(int)") is None
    assert target_of(m, "p.Grid.weigh(int, int)") is None


REWRITTEN_JAVA = """package p;
public class Vault {
  /** Hash a secret with the given salt into its stored form. */
  public static String hash(String secret, String salt) { return salt + "$" + secret.length() + secret; }
  /**
   * Check that a plaintext secret matches a previously hashed one.
   * @return true if the secrets match, false otherwise
   */
  public static boolean check(String plain, String hashed) {
    byte[] a = hashed.getBytes(); byte[] b = hash(plain, hashed.substring(0, 2)).getBytes();
    if (a.length != b.length) return false;
    int diff = 0; for (int i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
    return diff == 0;
  }
}
"""
REWRITTEN_TEST = """package p;
import org.junit.Test;
public class VaultTest {
  @Test public void testRoundTrip() { String h = Vault.hash("pw", "ab"); assert Vault.check("pw", h); }
  @Test public void testCheck_failure() { assert !Vault.check("no", Vault.hash("pw", "ab")); }
}
"""
REWRITTEN_CS = """namespace P {
 public class Vault {
  /// <summary>Hash a secret with the given salt into its stored form.</summary>
  public static string Hash(string secret, string salt) { return salt + "$" + secret.Length + secret; }
  /// <summary>Verifies that a plaintext secret matches a previously hashed one.</summary>
  /// <returns>true if the secrets match, false otherwise</returns>
  public static bool %s(string text, string hash) { return hash == Hash(text, hash.Substring(0, 2)); }
 }
}
"""
REWRITTEN_CS_TEST = """using NUnit.Framework;
namespace P.Tests {
 [TestFixture] public class VaultTest {
  [Test] public void TestRoundTrip() { string h = Vault.Hash("pw", "ab"); Assert.IsTrue(Vault.Verify("pw", h)); }
  [Test] public void TestVerifyFails() { Assert.IsFalse(Vault.Verify("no", Vault.Hash("pw", "ab"))); }
 }
}
"""


def test_a_rewritten_body_is_found_by_callers_callees_doc_and_types(tmp_path):
    """jBCrypt's checkpw -> BCrypt.Net's Verify: the port rewrote the body (nothing alike), but the matched
    test calls it where the Java test calls check, it calls Hash where check calls hash, its doc comment
    says the same and the types agree exactly (was: unmatched, the body alone too unlike)."""
    m, _ = mapped_pair(tmp_path, {"p/Vault.java": REWRITTEN_JAVA, "p/VaultTest.java": REWRITTEN_TEST},
                       {"P/Vault.cs": REWRITTEN_CS % "Verify", "Tests/VaultTest.cs": REWRITTEN_CS_TEST})
    found = m.target_method("source:p.Vault.check(String, String)")
    assert found is not None and found.target_id == "target:P.Vault.Verify(string, string)"
    assert found.reason == "matched neighbours"
    assert found.evidence[:2] == ("2 matched caller(s) call it", "1 of 1 matched callees called")
    assert "body rewritten, doc comments" in found.evidence[2] and "types exact" in found.evidence[2]


def test_a_rewritten_body_needs_the_doc_comments_to_agree(tmp_path):
    """The same without doc comments: callers and callees alone do not carry a body that says nothing."""
    strip = lambda text: "\n".join(l for l in text.splitlines() if "/**" not in l and "* " not in l
                                   and "*/" not in l and "///" not in l) + "\n"
    m, _ = mapped_pair(tmp_path, {"p/Vault.java": strip(REWRITTEN_JAVA), "p/VaultTest.java": REWRITTEN_TEST},
                       {"P/Vault.cs": strip(REWRITTEN_CS % "Verify"), "Tests/VaultTest.cs": REWRITTEN_CS_TEST})
    assert target_of(m, "p.Vault.check(String, String)") is None


def test_an_entry_point_no_code_calls_is_found_by_callees_doc_and_types(tmp_path):
    """Without the tests (jBCrypt's src/main alone), no Java code calls check: an entry point, which no caller
    can vouch for; its callees, doc comment and exact types pair it with the one such member."""
    m, _ = mapped_pair(tmp_path, {"p/Vault.java": REWRITTEN_JAVA}, {"P/Vault.cs": REWRITTEN_CS % "Verify"})
    found = m.target_method("source:p.Vault.check(String, String)")
    assert found is not None and found.target_id == "target:P.Vault.Verify(string, string)"
    assert found.evidence[:2] == ("no Java code calls it (an entry point)", "1 of 1 matched callees called")
    strip = lambda text: "\n".join(l for l in text.splitlines() if "/**" not in l and "* " not in l
                                   and "*/" not in l and "///" not in l) + "\n"
    m, _ = mapped_pair(tmp_path / "bare", {"p/Vault.java": strip(REWRITTEN_JAVA)},
                       {"P/Vault.cs": strip(REWRITTEN_CS % "Verify")})
    assert target_of(m, "p.Vault.check(String, String)") is None


TYPO_JAVA = {"p/Manager.java": """package p;
public class Manager {
  private static int loaded;
  private static void loadMetadataFromFile(int code) { loaded = code * 7 + 3; }
  public static int get(int code) { if (loaded == 0) { loadMetadataFromFile(code); } return loaded; }
}
""", "p/Util.java": """package p;
public class Util {
  private int seen;
  private void loadMetadataFromFile(String a, String b, int c) { seen = a.length() + b.length() + c; }
  public int region(String r) { loadMetadataFromFile(r, r, 1); return seen; }
}
"""}
TYPO_CS = {"P/Manager.cs": """namespace P {
 public class Manager {
  private static int loaded;
  private static void %s(string prefix) { foreach (var c in prefix) { loaded += c; } }
  public static int Get(int code) { if (loaded == 0) { %s("alternate"); } return loaded; }
 }
}
""", "P/Util.cs": """namespace P {
 public class Util {
  private int seen;
  private void LoadMetadataFromFile(string a, string b, int c) { seen = a.Length + b.Length + c; }
  public int Region(string r) { LoadMetadataFromFile(r, r, 1); return seen; }
 }
}
"""}


def _typo(name: str) -> dict[str, str]:
    return {path: text % (name, name) if "%s" in text else text for path, text in TYPO_CS.items()}


def test_the_ports_typo_in_a_name_its_callers_call(tmp_path):
    """libphonenumber's MetadataManager.loadMetadataFromFile(int) -> LoadMedataFromFile(String): the port misspelt
    the name and re-typed the parameter; the caller's counterpart calls it (PhoneNumberUtil's own
    loadMetadataFromFile, called in its type, is not this one's caller)."""
    m, _ = mapped_pair(tmp_path, TYPO_JAVA, _typo("LoadMedataFromFile"))
    found = m.target_method("source:p.Manager.loadMetadataFromFile(int)")
    assert found is not None and found.target_id == "target:P.Manager.LoadMedataFromFile(string)"
    assert found.evidence == ("1 matched caller(s) call it", "the name with one word misspelt (medata ~ metadata)")
    m, _ = mapped_pair(tmp_path / "other", TYPO_JAVA, _typo("LoadAlternatesFromFile"))
    assert target_of(m, "p.Manager.loadMetadataFromFile(int)") is None


def test_an_overload_is_told_apart_by_its_arity(tmp_path):
    """weigh(int) and weigh(int, int): the callers with two arguments are the two-parameter overload's, so
    it is found moved and renamed as before (was: an overloaded name was left alone), and the one-parameter
    overload keeps its own counterpart."""
    java = JAVA % "  int weigh(int i) { return weigh(i, 8) + 1; }\n"
    cs = _cs(grid_extra="  int Weigh(int i) { return Scales.Balance(this, i, 8) + 1; }\n")
    m, _ = mapped_pair(tmp_path, {"p/Grid.java": java}, {"P.cs": cs})
    found = m.target_method("source:p.Grid.weigh(int, int)")
    assert found is not None and found.target_id == "target:P.Scales.Balance(Grid, int, int)"
    assert found.reason == "matched neighbours, moved to Scales"
    assert target_of(m, "p.Grid.weigh(int)") == "P.Grid.Weigh(int)"


def test_call_arities_count_top_level_arguments_only():
    from repotrans.mapping.neighbours import arities
    assert arities("f", 'f(); f(a, g(b, c)); x.f("a,(b", 1); f( ); fx(1, 2, 3)') == {0, 2}


def test_a_typo_is_a_letter_changed_swapped_or_dropped_not_another_word():
    from repotrans.mapping.neighbours import misspelt
    assert misspelt("loadMetadataFromFile", "LoadMedataFromFile") == "medata ~ metadata"
    assert misspelt("recieveDataNow", "ReceiveDataNow") == "receive ~ recieve"
    assert misspelt("adjustPtgDueToSheetMove", "AdjustPtgDueToShiftMove") is None     # POI's FormulaShifter: two words
