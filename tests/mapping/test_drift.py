"""Signature drift (mapping/drift.py): a Java method whose C# counterpart kept the name (by the port's
convention) but re-typed the signature the way real ports do is paired, with the drift as evidence;
a member whose types plainly disagree is still no counterpart."""
from __future__ import annotations

from textwrap import dedent

from repotrans.mapping.drift import drifted_counterpart, drifted_in_port
from tests.support.indexes import mapped_pair, target_of

JAVA = """package p;
import java.util.*;
public class WeeklyPlan {
  private boolean[] days = new boolean[8];
  public WeeklyPlan() { }
  public boolean isDayExcluded(int wday) { return days[wday]; }
  public void setDayExcluded(int wday, boolean exclude) { days[wday] = exclude; }
  public boolean isTimeIncluded(long timeStamp) { return timeStamp > 0; }
  public Date getFinalFireTime() { return null; }
  public void addAll(LinkedList<String> items) { }
  public void setValues(int[] values) { }
  public void shift(int a) { shift(a, 0); }
  public void shift(int a, int b) { }
  public String label(int width) { return "x"; }
}
"""
CS = """using System; using System.Collections.Generic;
namespace P {
 public class WeeklyPlan {
  private bool[] days = new bool[8];
  public bool IsDayExcluded(DayOfWeek wday) { return days[(int) wday]; }
  public void SetDayExcluded(DayOfWeek wday, bool exclude) { days[(int) wday] = exclude; }
  public bool IsTimeIncluded(DateTimeOffset timeStampUtc) { return true; }
  public DateTimeOffset? FinalFireTimeUtc { get { return null; } }
  public void AddAll(ICollection<string> items) { }
  public void SetValues(IEnumerable<int> values) { }
  public void Shift(int a, int b = 0) { }
  public string Label(string width) { return "x"; }
 }
}
"""


def test_drifted_members_are_paired_with_the_drift_as_evidence(tmp_path):
    m, _ = mapped_pair(tmp_path, {"p/WeeklyPlan.java": JAVA}, {"P/WeeklyPlan.cs": CS})
    expected = {
        "p.WeeklyPlan.isDayExcluded(int)": ("P.WeeklyPlan.IsDayExcluded(DayOfWeek)",
                                            "signature drift: int -> enum DayOfWeek"),
        "p.WeeklyPlan.setDayExcluded(int, boolean)": ("P.WeeklyPlan.SetDayExcluded(DayOfWeek, bool)",
                                                      "signature drift: int -> enum DayOfWeek"),
        "p.WeeklyPlan.isTimeIncluded(long)": ("P.WeeklyPlan.IsTimeIncluded(DateTimeOffset)",
                                              "signature drift: long -> DateTimeOffset (time)"),
        "p.WeeklyPlan.getFinalFireTime()": (
            "P.WeeklyPlan.FinalFireTimeUtc",
            "signature drift: name FinalFireTimeUtc with a word the port added or renamed; Date -> DateTimeOffset? (time)"),
        "p.WeeklyPlan.addAll(LinkedList<String>)": (
            "P.WeeklyPlan.AddAll(ICollection<string>)",
            "signature drift: LinkedList<String> -> ICollection<string> (sequence)"),
        "p.WeeklyPlan.setValues(int[])": ("P.WeeklyPlan.SetValues(IEnumerable<int>)",
                                          "signature drift: int[] -> IEnumerable<int> (sequence)"),
        "p.WeeklyPlan.shift(int)": ("P.WeeklyPlan.Shift(int, int)",
                                    "signature drift: C# defaults 1 added parameter(s)"),
    }
    got = {jid: (target_of(m, jid), m.target_method("source:" + jid).reason) for jid in expected
           if m.target_method("source:" + jid)}
    assert got == expected
    # the full overload keeps the C# member it shares with the shorter one
    assert m.source_method("target:P.WeeklyPlan.Shift(int, int)").source_id == "source:p.WeeklyPlan.shift(int, int)"
    # a plain disagreement (int -> string) is no drift; the implicit constructor is said, not paired
    assert target_of(m, "p.WeeklyPlan.label(int)") is None
    assert m.unmatched_methods["source:p.WeeklyPlan.<init>()"] == \
        "signature drift: implicit constructor: the C# type declares none"


def test_drifted_in_port_answers_from_an_index_and_its_mapping(tmp_path):
    m, index = mapped_pair(tmp_path, {"p/WeeklyPlan.java": JAVA}, {"P/WeeklyPlan.cs": CS})
    found = drifted_in_port(index, m, "source:p.WeeklyPlan.isTimeIncluded(long)")
    assert found is not None and found.target.id == "target:P.WeeklyPlan.IsTimeIncluded(DateTimeOffset)"
    assert found.drifts == ("long -> DateTimeOffset (time)",)
    assert drifted_in_port(index, m, "source:p.WeeklyPlan.label(int)") is None
    ctor = drifted_in_port(index, m, "source:p.WeeklyPlan.<init>()")
    assert ctor is not None and ctor.target is None


def test_two_equally_drifted_overloads_are_no_answer(tmp_path):
    """`at(long)` against `At(DateTime)` and `At(TimeSpan)`: either could be it, so neither is taken."""
    java = "package p;\npublic class Clock { public int at(long t) { return 1; } }\n"
    cs = ("using System;\nnamespace P { public class Clock { public int At(DateTime t) { return 1; }\n"
          " public int At(TimeSpan t) { return 2; } } }\n")
    m, index = mapped_pair(tmp_path, {"p/Clock.java": java}, {"P/Clock.cs": cs})
    assert target_of(m, "p.Clock.at(long)") is None
    jm = index.method("source:p.Clock.at(long)")
    assert drifted_counterpart(jm, index.methods("target:P.Clock")) is None
    only = [c for c in index.methods("target:P.Clock") if "TimeSpan" in c.id]
    assert drifted_counterpart(jm, only).target.id == "target:P.Clock.At(TimeSpan)"


def test_names_the_port_writes_the_dotnet_way_and_extension_methods(tmp_path):
    """`getInt` -> `GetInt32`, `getDate` -> `GetDateTime` (moved to an extension class), Number's
    `floatValue()` -> `ToSingle()`; a word inside another word (`getInterval`) is not renamed."""
    java = ("package p;\nimport java.util.Date;\npublic class Record {\n"
            "  public int getInt(int tag) { return tag; }\n  public Date getDate(int tag) { return null; }\n"
            "  public float floatValue() { return 1f; }\n  public long getInterval() { return 2; }\n}\n")
    cs = ("using System;\nnamespace P {\n public class Record { public float ToSingle() { return 1f; }\n"
          "  public long GetInt32erval() { return 2; } }\n"
          " public static class RecordExtensions {\n"
          "  public static int GetInt32(this Record r, int tag) { return tag; }\n"
          "  public static DateTime GetDateTime(this Record r, int tag) { return DateTime.Now; } }\n}\n")
    m, _ = mapped_pair(tmp_path, {"p/Record.java": java}, {"P/Record.cs": cs})
    assert target_of(m, "p.Record.getInt(int)") == "P.RecordExtensions.GetInt32(Record, int)"
    assert target_of(m, "p.Record.getDate(int)") == "P.RecordExtensions.GetDateTime(Record, int)"
    assert m.target_method("source:p.Record.getDate(int)").reason == (
        "signature drift: name GetDateTime with a word the port added or renamed; Date -> DateTime (time)")
    assert target_of(m, "p.Record.floatValue()") == "P.Record.ToSingle()"
    assert target_of(m, "p.Record.getInterval()") is None


def test_the_overload_with_the_whole_parameter_list_holds_a_member_with_defaults(tmp_path):
    """HdrHistogram's three `outputPercentileDistribution` overloads (2, 3 and 4 parameters; the shorter ones
    call the longest) are one C# method with defaults in HdrHistogram.NET; its stream type is the port's
    own (PrintStream -> TextWriter). The 4-parameter overload, which holds the body, is its pair (was: the
    three tied, none was paired by name and the 3-parameter one came back as a drift: the task translated
    a delegating body)."""
    java = dedent("""\
        package p;
        import java.io.PrintStream;
        public class Data {
          public void out(PrintStream s, Double r) { out(s, 5, r); }
          public void out(PrintStream s, int t, Double r) { out(s, t, r, false); }
          public void out(PrintStream s, int t, Double r, boolean csv) { s.print(t); }
        }
        """)
    cs = dedent("""\
        using System; using System.IO;
        namespace P { public class Data {
          public void out(TextWriter s, int t = 5, Double r = 1000.0, bool csv = false) { s.Write(t); } } }
        """)
    m, _ = mapped_pair(tmp_path, {"p/Data.java": java}, {"P/Data.cs": cs})
    target = "target:P.Data.out(TextWriter, int, Double, bool)"
    assert m.source_method(target).source_id == "source:p.Data.out(PrintStream, int, Double, boolean)"
    assert target_of(m, "p.Data.out(PrintStream, int, Double, boolean)") == target.split(":", 1)[1]


def test_a_builder_and_the_ports_own_subclass_are_drifts(tmp_path):
    """libphonenumber-csharp takes `PhoneNumber.Builder` where Java's PhoneNumber was mutable, and its own
    `PhoneRegex` (a Regex) where Java takes a Pattern: both members were 'no Java method pairs with it',
    so a user masking them had no task."""
    java = dedent("""\
        package p;
        import java.util.regex.Pattern;
        public class Util {
          boolean isSuffix(Number a, Number b) { return true; }
          int lengthAgainst(Pattern p, String n) { return 0; }
        }
        class Number { }
        """)
    cs = dedent("""\
        using System.Text.RegularExpressions;
        namespace P {
         public class Util {
          bool IsSuffix(Number.Builder a, Number.Builder b) { return true; }
          int LengthAgainst(PhoneRegex p, string n) { return 0; } }
         public class Number { public class Builder { } }
         public class PhoneRegex : Regex { public PhoneRegex(string p) : base(p) { } }
        }
        """)
    m, _ = mapped_pair(tmp_path, {"p/Util.java": java}, {"P/Util.cs": cs})
    assert target_of(m, "p.Util.isSuffix(Number, Number)") == "P.Util.IsSuffix(Number.Builder, Number.Builder)"
    assert "(its builder)" in m.target_method("source:p.Util.isSuffix(Number, Number)").reason
    assert target_of(m, "p.Util.lengthAgainst(Pattern, String)") == "P.Util.LengthAgainst(PhoneRegex, string)"
    assert m.target_method("source:p.Util.lengthAgainst(Pattern, String)").reason == \
        "signature drift: Pattern -> PhoneRegex (the port's own Pattern)"


def test_a_getter_typed_as_the_property_and_the_words_a_port_drops(tmp_path):
    """metadata-extractor's `getErrors()` (a list) and `hasErrors()` (a boolean) both named the property
    `Errors`: tied, neither was paired; the boolean one is the port's `HasError` (made singular). Its
    `setObject(int, Object)` is `Set(int, object)` (the type word dropped where C# overloads on it)."""
    java = dedent("""\
        package p;
        import java.util.*;
        public class Dir {
          public Iterable<String> getErrors() { return null; }
          public boolean hasErrors() { return false; }
          public void setObject(int tag, Object value) { }
        }
        """)
    cs = dedent("""\
        using System.Collections.Generic;
        namespace P { public class Dir {
          public IReadOnlyList<string> Errors { get { return null; } }
          public bool HasError { get { return false; } }
          public void Set(int tag, object value) { } } }
        """)
    m, _ = mapped_pair(tmp_path, {"p/Dir.java": java}, {"P/Dir.cs": cs})
    assert target_of(m, "p.Dir.getErrors()") == "P.Dir.Errors"
    assert target_of(m, "p.Dir.hasErrors()") == "P.Dir.HasError"
    assert target_of(m, "p.Dir.setObject(int, Object)") == "P.Dir.Set(int, object)"
