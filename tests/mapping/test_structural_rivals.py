"""Round 2's runner-up that is another Java method's own: javaewah's addStreamOfLiteralWords and
addStreamOfNegatedLiteralWords, each the other's runner-up, are csharpewah's AddStreamOfDirtyWords and
AddStreamOfNegatedDirtyWords (structural._mutual_bests)."""
from __future__ import annotations

from tests.support.indexes import mapped_pair, target_of

JAVA = {"p/Bitmap.java": """package p;
public class Bitmap {
  private long[] buffer = new long[4];
  private int size;
  public void addStreamOfLiteralWords(long[] data, int start, int number) {
    for (int i = 0; i < number; i++) { buffer[size++] = data[start + i]; }
  }
  public void addStreamOfNegatedLiteralWords(long[] data, int start, int number) {
    for (int i = 0; i < number; i++) { buffer[size++] = ~data[start + i]; }
  }
}
"""}


def _cs() -> dict[str, str]:
    return {"P/Bitmap.cs": f"""namespace P {{
 public class Bitmap {{
  private long[] buffer = new long[4];
  private int size;
  public void AddStreamOfDirtyWords(long[] data, long start, long number) {{
   for (long i = 0; i < number; i++) {{ buffer[size++] = data[start + i]; }}
  }}
  public void AddStreamOfNegatedDirtyWords(long[] data, long start, long number) {{
   for (long i = 0; i < number; i++) {{ buffer[size++] = ~data[start + i]; }}
  }}
 }}
}}
"""}


def test_each_takes_its_own_when_the_runner_up_is_the_others(tmp_path):
    mapping, _ = mapped_pair(tmp_path, JAVA, _cs())
    assert target_of(mapping, "p.Bitmap.addStreamOfLiteralWords(long[], int, int)") == \
        "P.Bitmap.AddStreamOfDirtyWords(long[], long, long)"
    assert target_of(mapping, "p.Bitmap.addStreamOfNegatedLiteralWords(long[], int, int)") == \
        "P.Bitmap.AddStreamOfNegatedDirtyWords(long[], long, long)"


def test_a_runner_up_no_java_method_owns_still_counts(tmp_path):
    """Without the negated Java method, the negated C# method is nobody's own: it stays the runner-up, too close."""
    java = JAVA["p/Bitmap.java"]
    java = java[:java.index("  public void addStreamOfNegated")] + "}\n"
    mapping, _ = mapped_pair(tmp_path, {"p/Bitmap.java": java}, _cs())
    assert target_of(mapping, "p.Bitmap.addStreamOfLiteralWords(long[], int, int)") is None
