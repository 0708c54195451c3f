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
    """A caller whose own counterpart is unknown cannot vouch for the candidate: no match on half the callers."""
    java = JAVA % "  public int sketch(int w) { return weigh(1, w) - 2; }\n"
    m, _ = mapped_pair(tmp_path, {"p/Grid.java": java}, {"P.cs": _cs()})
    assert target_of(m, "p.Grid.sketch(int)") is None
    assert target_of(m, "p.Grid.weigh(int, int)") is None


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
