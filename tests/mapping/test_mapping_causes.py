"""The mapping on small fixtures, one per way real ports rename (issue 11): type vocabulary, nested
moves, I-prefixed interfaces, case and vocabulary of member names, int constants -> enums, accessor
pairs, exact names over conventions, the only-overload fallback, structural evidence and members
that moved to a base class; and that a method with no counterpart stays unmatched."""
from __future__ import annotations

from tests.support.indexes import mapped_pair, target_of


def test_type_rename_vocabulary(tmp_path):
    m, _ = mapped_pair(tmp_path, {
        "p/StringUtil.java": "package p; public class StringUtil { public static int count(String s) { return 1; } }",
        "p/Distance.java": "package p; public class Distance { public double of(double a) { return a; } }",
        "p/NodeIterator.java": "package p; public class NodeIterator { public boolean hasNext() { return false; } }",
        "p/ByName.java": "package p; public class NameComparator { public int compare(String a, String b) { return 0; } }",
    }, {
        "P.cs": "namespace P {\n public static class StringUtility { public static int Count(string s) { return 1; } }\n"
                " public class DistanceComputer { public double Of(double a) { return a; } }\n"
                " public class NodeEnumerator { public bool HasNext() { return false; } }\n"
                " public class NameComparer { public int Compare(string a, string b) { return 0; } }\n}\n"})
    assert target_of(m, "p.StringUtil") == "P.StringUtility"
    assert m.target_type("source:p.StringUtil").reason == "renamed Util -> Utility, namespace P"
    assert target_of(m, "p.Distance") == "P.DistanceComputer"
    assert target_of(m, "p.NodeIterator") == "P.NodeEnumerator"
    assert target_of(m, "p.NameComparator") == "P.NameComparer"
    assert target_of(m, "p.StringUtil.count(String)") == "P.StringUtility.Count(string)"   # members follow the type


def test_nested_types_moved_between_holders(tmp_path):
    m, _ = mapped_pair(tmp_path, {
        "p/Rule.java": "package p; public interface Rule {\n  class Always { public boolean test(int x) { return true; } }\n}",
        "p/Shape.java": "package p; public class Shape { }",
        "p/Corner.java": "package p; public class Corner { public int x() { return 0; } }",
    }, {
        "P.cs": "namespace P {\n public static class Rules { public class Always { public bool Test(int x) { return true; } } }\n"
                " public class Shape { public class Corner { public int X() { return 0; } } }\n}\n"})
    assert target_of(m, "p.Rule.Always") == "P.Rules.Always"               # into a static holder class
    assert target_of(m, "p.Corner") == "P.Shape.Corner"                    # a top-level class moved into another
    assert target_of(m, "p.Corner.x()") == "P.Shape.Corner.X()"


def test_interface_prefers_i_prefixed_interface_over_same_named_class(tmp_path):
    m, _ = mapped_pair(tmp_path, {
        "p/RowFilter.java": "package p; public interface RowFilter {\n  boolean accept(int row);\n"
                            "  boolean accept(String name);\n}",
    }, {
        "P.cs": "namespace P {\n public interface IRowFilter { bool Accept(int row); bool Accept(string name); }\n"
                " public class RowFilter : IRowFilter { public bool Accept(int row) { return true; }\n"
                "   public bool Accept(string name) { return true; } public bool Accept(object o) { return true; } }\n}\n"})
    assert target_of(m, "p.RowFilter") == "P.IRowFilter"
    assert target_of(m, "p.RowFilter.accept(int)") == "P.IRowFilter.Accept(int)"
    assert target_of(m, "p.RowFilter.accept(String)") == "P.IRowFilter.Accept(string)"


def test_case_and_vocabulary_of_member_names(tmp_path):
    m, _ = mapped_pair(tmp_path, {
        "p/Seg.java": "package p; public class Seg {\n"
                      "  public boolean isXYZ() { return true; }\n  public double midpoint() { return 0; }\n"
                      "  public int length(int a, int b) { return a + b; }\n  public void remove(int i) { }\n"
                      "  public boolean gt(Seg o) { return false; }\n  public int area() { return 1; }\n}",
    }, {
        "P.cs": "namespace P { public class Seg {\n  public bool IsXyz { get { return true; } }\n"
                "  public double MidPoint() { return 0; }\n  public int GetLength(int a, int b) { return a + b; }\n"
                "  public void RemoveAt(int i) { }\n  public bool GreaterThan(Seg o) { return false; }\n"
                "  public int getArea() { return 1; }\n} }\n"})
    assert target_of(m, "p.Seg.isXYZ()") == "P.Seg.IsXyz"
    assert m.target_method("source:p.Seg.isXYZ()").reason == "getter -> property, case differs"
    assert target_of(m, "p.Seg.midpoint()") == "P.Seg.MidPoint()"
    assert target_of(m, "p.Seg.length(int, int)") == "P.Seg.GetLength(int, int)"    # Get + name with parameters
    assert target_of(m, "p.Seg.remove(int)") == "P.Seg.RemoveAt(int)"
    assert target_of(m, "p.Seg.gt(Seg)") == "P.Seg.GreaterThan(Seg)"
    assert target_of(m, "p.Seg.area()") == "P.Seg.getArea()"


def test_int_constants_that_became_an_enum(tmp_path):
    java = ("package p; public class Code {\n  public static final int NUMERIC = 1;\n"
            "  public Code(int mode) { }\n  public Code(String text) { }\n  public void pad(int count) { }\n}")
    m, _ = mapped_pair(tmp_path, {"p/Code.java": java}, {
        "P.cs": "namespace P {\n public enum Mode { NUMERIC }\n public enum Unit { PX }\n"
                " public class Code {\n  public Code(Mode mode) { }\n  public Code(string text) { }\n"
                "  public void Pad(Unit count, int extra) { }\n  public void Pad(Unit other) { }\n }\n}\n"})
    assert target_of(m, "p.Code.<init>(int)") == "P.Code.<init>(Mode)"          # same parameter name: related
    assert target_of(m, "p.Code.<init>(String)") == "P.Code.<init>(string)"
    assert target_of(m, "p.Code.pad(int)") is None                                # an unrelated enum: no pairing


def test_getter_and_setter_share_their_property(tmp_path):
    m, _ = mapped_pair(tmp_path, {
        "p/Box.java": "package p; public class Box {\n  private int width; private boolean on;\n"
                      "  public int width() { return width; }\n  public void setWidth(int w) { width = w; }\n"
                      "  public void setValue(boolean v) { on = v; }\n  public boolean getValue() { return on; }\n"
                      "  public int get(int i) { return i; }\n}",
    }, {
        "P.cs": "namespace P { public class Box {\n  public int Width { get; set; }\n"
                "  public bool Value { get { return on; } }\n  private bool on;\n"
                "  public void SetValue(bool v) { on = v; }\n"
                "  public int this[int i] { get { return i; } }\n  public int Get(int i) { return i; }\n} }\n"})
    assert target_of(m, "p.Box.width()") == "P.Box.Width"
    assert target_of(m, "p.Box.setWidth(int)") == "P.Box.Width"
    assert target_of(m, "p.Box.setValue(boolean)") == "P.Box.SetValue(bool)"     # exact name beats the setter rule
    assert target_of(m, "p.Box.getValue()") == "P.Box.Value"
    assert target_of(m, "p.Box.get(int)") == "P.Box.Get(int)"                    # exact Get(int) beats the indexer


def test_only_overload_fallback_needs_agreeing_parameter_types(tmp_path):
    m, _ = mapped_pair(tmp_path, {
        "p/Thing.java": "package p; public class Thing { }",
        "p/Model.java": "package p; public class Model { }",
        "p/Cell.java": "package p; public class Cell {\n  public Cell(Thing t, Model m, int k) { }\n"
                       "  public void scale(java.awt.Dimension d) { }\n}",
    }, {
        "P.cs": "namespace P {\n public class Thing { }\n public class Model { }\n"
                " public class Cell {\n  public Cell(double x, double y, double z) { }\n"
                "  public void Scale(Size d) { }\n }\n}\n"})
    assert target_of(m, "p.Cell.<init>(Thing, Model, int)") is None
    assert target_of(m, "p.Cell.scale(java.awt.Dimension)") == "P.Cell.Scale(Size)"   # an unknown type cannot disagree
    assert "only overload" in m.target_method("source:p.Cell.scale(java.awt.Dimension)").reason


BODY_J = """
    public int checksum(String text) {
        int sum = 0;
        for (int i = 0; i < text.length(); i++) {
            sum = (sum * 31 + text.charAt(i)) % 1000003;
        }
        return sum ^ 0x5A5A;
    }
    public String debugDump() {
        StringBuilder out = new StringBuilder();
        out.append("dump of ").append(name);
        return out.toString();
    }
"""
BODY_C = """
        public int ComputeCheck(string text)
        {
            int sum = 0;
            for (int i = 0; i < text.Length; i++)
            {
                sum = (sum * 31 + text[i]) % 1000003;
            }
            return sum ^ 0x5A5A;
        }
        public string Describe(string prefix)
        {
            return prefix + Name;
        }
"""


def test_structural_evidence_finds_a_rename_and_leaves_a_method_without_counterpart(tmp_path):
    m, _ = mapped_pair(tmp_path, {"p/Label.java": "package p; public class Label {\n  String name;\n" + BODY_J + "}"},
             {"P.cs": "namespace P { public class Label {\n  string Name;\n" + BODY_C + "} }\n"})
    found = m.target_method("source:p.Label.checksum(String)")
    assert found.target_id == "target:P.Label.ComputeCheck(string)" and found.reason == "structural evidence"
    assert any(e.startswith("body ") for e in found.evidence) and found.confidence >= 0.6
    assert target_of(m, "p.Label.debugDump()") is None
    assert m.unmatched_methods["source:p.Label.debugDump()"].startswith("no C# member by the naming rules")


def test_out_parameters_added_parameters_and_base_class_members(tmp_path):
    m, _ = mapped_pair(tmp_path, {
        "p/Source.java": "package p; public abstract class Source {\n  public abstract byte[] row(int y);\n}",
        "p/RgbSource.java": "package p; public class RgbSource extends Source {\n"
                            "  public byte[] row(int y) { return null; }\n  public boolean cropSupported() { return true; }\n"
                            "  static int digit(int[] counters) { return 0; }\n  RgbSource(int w) { }\n}",
    }, {
        "P.cs": "namespace P {\n public abstract class Source { public abstract byte[] Row(int y); }\n"
                " public abstract class BaseSource : Source {\n  public override byte[] Row(int y) { return null; }\n"
                "  public bool CropSupported { get { return true; } }\n }\n"
                " public class RgbSource : BaseSource {\n  static bool digit(int[] counters, out int d) { d = 0; return true; }\n"
                "  RgbSource(int w, bool compact) { }\n }\n}\n"})
    assert target_of(m, "p.RgbSource.row(int)") == "P.BaseSource.Row(int)"
    assert "inherited from BaseSource" in m.target_method("source:p.RgbSource.row(int)").reason
    assert target_of(m, "p.RgbSource.cropSupported()") == "P.BaseSource.CropSupported"
    assert target_of(m, "p.RgbSource.digit(int[])") == "P.RgbSource.digit(int[], int)"     # C# adds an out parameter
    assert target_of(m, "p.RgbSource.<init>(int)") == "P.RgbSource.<init>(int, bool)"     # C# adds a parameter


def test_a_shared_base_or_companion_member_is_no_one_java_methods_twin(tmp_path):
    """A port's reflective Clone() in a base class several C# types inherit stands for none of the Java
    clone() methods; nor does a base member for a Java override that calls super's version; a member a
    type declares itself stays with that type's Java method, not one from elsewhere that reached it."""
    m, _ = mapped_pair(tmp_path, {
        "p/Border.java": "package p; public class Border implements Cloneable {\n"
                         "  public Object clone() { return new Border(); }\n  public int width() { return 1; }\n}",
        "p/Stamp.java": "package p; public class Stamp implements Cloneable { public Object clone() { return new Stamp(); } }",
        "p/Spacing.java": "package p; public class Spacing implements Cloneable {\n"
                          "  public Object clone() throws CloneNotSupportedException { return super . clone(); }\n}",
        "p/Lookup.java": "package p; public class Lookup { public static int[] vector(int n) { return new int[n]; } }",
        "p/LookupUtils.java": "package p; public class LookupUtils { public static int[] vector(int n) { return null; } }",
    }, {
        "P.cs": "namespace P {\n public abstract class Copyable { public virtual object Clone() { return null; } }\n"
                " public class Border : Copyable { public int Width() { return 1; } }\n"
                " public class Stamp : Copyable { }\n"
                " public abstract class SpacingBase { public virtual object Clone() { return null; } }\n"
                " public class Spacing : SpacingBase { }\n"
                " public class Lookup { }\n"
                " public static class LookupUtils { public static int[] Vector(int n) { return null; } }\n}\n"})
    assert target_of(m, "p.Border.width()") == "P.Border.Width()"
    for java in ("p.Border.clone()", "p.Stamp.clone()"):
        assert target_of(m, java) is None
        assert m.unmatched_methods["source:" + java] == (
            "target:P.Copyable.Clone() is shared by methods of 2 Java types: a C# helper with no single Java twin")
    assert target_of(m, "p.Spacing.clone()") is None
    assert m.unmatched_methods["source:p.Spacing.clone()"] == (
        "calls super.clone(): target:P.SpacingBase.Clone() is the superclass version's counterpart")
    assert target_of(m, "p.LookupUtils.vector(int)") == "P.LookupUtils.Vector(int)"
    assert target_of(m, "p.Lookup.vector(int)") is None


def test_namespace_affinity_and_member_overlap_place_types(tmp_path):
    m, _ = mapped_pair(tmp_path, {
        "p/aztec/decoder/Decoder.java": "package p.aztec.decoder; public class Decoder { public int decode() { return 0; } }",
        "p/qrcode/decoder/Decoder.java": "package p.qrcode.decoder; public class Decoder { public int decode() { return 1; } }",
        "p/qr/Reader.java": "package p.qr; public class Reader { }",
        "p/qr/Sampler.java": "package p.qr; public class Sampler { public int sample(int x) { return x; } }",
        "p/qr/Level.java": "package p.qr; public enum Level { LOW, MEDIUM, QUARTILE, HIGH }",
        "p/qr/Holder.java": "package p.qr; public class Holder {\n  public int alpha() { return 1; }\n"
                            "  public int beta() { return 2; }\n  public int gamma() { return 3; }\n}",
    }, {
        "Aztec.cs": "namespace X.Aztec.Internal { public class Decoder { public int Decode() { return 0; } } }",
        "Qr.cs": "namespace X.QrCode.Internal { public class Decoder { public int Decode() { return 1; } } }",
        "Qr2.cs": "namespace X.Qr { public class Reader { }\n public class SamplerCore { public int Sample(int x) { return x; } }\n"
                  " public enum Correction { LOW, MEDIUM, QUARTILE, HIGH }\n public class Keeper {\n public int Alpha() { return 1; }\n"
                  " public int Beta() { return 2; }\n public int Gamma() { return 3; }\n} }",
    })
    assert target_of(m, "p.aztec.decoder.Decoder") == "X.Aztec.Internal.Decoder"
    assert target_of(m, "p.qrcode.decoder.Decoder") == "X.QrCode.Internal.Decoder"
    assert target_of(m, "p.qr.Sampler") == "X.Qr.SamplerCore"                  # the name gained a word
    assert target_of(m, "p.qr.Level") == "X.Qr.Correction"                     # enum constants overlap
    holder = m.target_type("source:p.qr.Holder")
    assert holder.target_id == "target:X.Qr.Keeper" and holder.evidence[0].startswith("member overlap 1.00")


def test_call_graph_neighbours_are_evidence(tmp_path):
    m, _ = mapped_pair(tmp_path, {"p/Job.java": "package p; public class Job {\n  int factor;\n"
                                      "  public int run(int v) { return scaled(v) + 1; }\n"
                                      "  private int scaled(int v) { return v * factor + 7; }\n}"},
             {"P.cs": "namespace P { public class Job {\n  int factor;\n"
                      "  public int Run(int v) { return Adjust(v) + 1; }\n"
                      "  private int Adjust(int v) { return v * factor + 7; }\n} }\n"})
    found = m.target_method("source:p.Job.scaled(int)")
    assert found.target_id == "target:P.Job.Adjust(int)" and "calls 1.00 of 1" in found.evidence


def test_no_guess_from_a_static_constructor_or_a_setter_for_a_getter(tmp_path):
    m, _ = mapped_pair(tmp_path, {"p/Tables.java": "package p; public class Tables {\n  private Tables() { }\n"
                                         "  private int[] corner;\n"
                                         "  public int[] getCorner() { return corner; }\n}"},
             {"P.cs": "namespace P { public class Tables {\n  static Tables() { }\n  int[] corner;\n"
                      "  public void SetCorner(int[] corner) { this.corner = corner; }\n} }\n"})
    assert target_of(m, "p.Tables.<init>()") is None                 # C#'s static constructor initialises tables
    assert target_of(m, "p.Tables.getCorner()") is None              # SetCorner writes, getCorner reads


def test_doc_comments_are_evidence(tmp_path):
    m, _ = mapped_pair(tmp_path, {"p/Sym.java": "package p; public class Sym {\n  private int upper, lower;\n"
                                      "  /** Count of codeword rows in the upper half of the symbol. */\n"
                                      "  public int getUpper() { return upper; }\n"
                                      "  /** Number of symbol lines below the middle, without the quiet zone. */\n"
                                      "  public int getLower() { return lower; }\n}"},
             {"P.cs": "namespace P { public class Sym {\n"
                      "  /// <summary>Count of codeword rows in the upper half of the symbol.</summary>\n"
                      "  public int TopRows { get; private set; }\n"
                      "  /// <summary>Number of symbol lines below the middle, without the quiet zone.</summary>\n"
                      "  public int BottomRows { get; private set; }\n} }\n"})
    upper = m.target_method("source:p.Sym.getUpper()")
    assert upper.target_id == "target:P.Sym.TopRows" and "doc 1.00" in upper.evidence
    assert target_of(m, "p.Sym.getLower()") == "P.Sym.BottomRows"


def test_a_jdk_type_name_a_project_type_shares_still_maps(tmp_path):
    """Java's java.nio.charset.Charset is C#'s Encoding even when a project type is also named Charset (ZXing's
    Code128Writer.Charset enum): PDF417HighLevelEncoder.encodeHighLevel(String, Compaction, Charset, boolean)
    was lost to the port's (string, Compaction, Encoding, bool, bool)."""
    m, _ = mapped_pair(tmp_path, {
        "p/Code.java": "package p; public class Code { enum Charset { A, B } int pick(Charset c) { return 0; } }",
        "p/Enc.java": "package p; import java.nio.charset.Charset;\n"
                      "public class Enc { static String encode(String msg, Charset cs, boolean auto) { return msg; } }",
    }, {"P.cs": "using System.Text;\nnamespace P {\n public class Code { enum Charset { A, B } int pick(Charset c) { return 0; } }\n"
                " public class Enc { static string encode(string msg, Encoding cs, bool disableEci, bool auto) { return msg; } }\n}\n"})
    assert target_of(m, "p.Enc.encode(String, Charset, boolean)") == "P.Enc.encode(string, Encoding, bool, bool)"
    assert target_of(m, "p.Code.pick(Charset)") == "P.Code.pick(Charset)"


DROPPED_JAVA = """package p;
public class Cipher {
  public byte[] cryptRaw(byte[] password, byte[] salt, int rounds, int[] cdata) {
    int clen = cdata.length; byte[] ret = new byte[clen * 4];
    for (int i = 0; i < rounds; i++) { mix(password); mix(salt); }
    for (int j = 0; j < clen; j++) { ret[j * 4] = (byte) (cdata[j] >>> 24); ret[j * 4 + 1] = (byte) (cdata[j] >>> 16); }
    return ret;
  }
  public String render(String text, int width, Object... args) { return String.format(text, args) + width; }
  public String render(String text) { return text; }
  void mix(byte[] b) { }
}
"""


def test_a_parameter_the_port_dropped(tmp_path):
    """jBCrypt's crypt_raw(password, salt, rounds, cdata) is BCrypt.Net's CryptRaw(password, salt, rounds),
    which makes its own cdata: the same name, the rest of the parameters in order, and the body (or a
    local of the dropped parameter's name) say so. A C# overload with another Java overload's arity is that
    overload's, never a dropped view of a longer one."""
    cs = """namespace P {
 public class Cipher {
  public byte[] CryptRaw(byte[] password, byte[] salt, int rounds) {
    uint[] cdata = new uint[6]; int clen = cdata.Length; byte[] ret = new byte[clen * 4];
    for (int i = 0; i < rounds; i++) { Mix(password); Mix(salt); }
    for (int j = 0; j < clen; j++) { ret[j * 4] = (byte) (cdata[j] >> 24); ret[j * 4 + 1] = (byte) (cdata[j] >> 16); }
    return ret;
  }
  public string Render(string text) { return text; }
  void Mix(byte[] b) { }
 }
}
"""
    m, _ = mapped_pair(tmp_path, {"p/Cipher.java": DROPPED_JAVA}, {"P.cs": cs})
    found = m.target_method("source:p.Cipher.cryptRaw(byte[], byte[], int, int[])")
    assert found is not None and found.target_id == "target:P.Cipher.CryptRaw(byte[], byte[], int)"
    assert found.reason.startswith("PascalCase name, C# drops parameter(s) cdata (body ")
    assert target_of(m, "p.Cipher.render(String)") == "P.Cipher.Render(string)"
    assert target_of(m, "p.Cipher.render(String, int, Object...)") is None


def test_a_dropped_parameter_needs_more_than_the_name(tmp_path):
    """The same name with a parameter fewer, but a body that says something else and no local of the
    dropped name: no match."""
    cs = """namespace P {
 public class Cipher {
  public byte[] CryptRaw(byte[] password, byte[] salt, int rounds) { return new byte[rounds]; }
  void Mix(byte[] b) { }
 }
}
"""
    m, _ = mapped_pair(tmp_path, {"p/Cipher.java": DROPPED_JAVA}, {"P.cs": cs})
    assert target_of(m, "p.Cipher.cryptRaw(byte[], byte[], int, int[])") is None


def test_snake_case_accessors_and_the_reader_of_a_setters_field(tmp_path):
    """cassowary -> Cassowary.net: `set_value(double)` and `set_symbolic_weight(...)` are property setters
    like setValue; `doubleValue()` and `FIsAutosolving()` return the field that setValue / setAutosolve
    (already the writers of `Value` / `AutoSolve`) assign, so they are those properties' readers. A getter
    of a field no paired setter writes stays unmatched, and so does one whose property's reader is taken."""
    m, _ = mapped_pair(tmp_path, {
        "p/Num.java": "package p; public class Num {\n  private double value; private boolean fAuto; private int hits;\n"
                      "  public void set_value(double v) { value = v; }\n  public double value() { return value; }\n"
                      "  public void set_symbolic_weight(int w) { hits = w; }\n"
                      "  public double doubleValue() { return value; }\n"
                      "  public Num setAutosolve(boolean f) { fAuto = f; return this; }\n"
                      "  public boolean FIsAutosolving() { return fAuto; }\n"
                      "  private int misses;\n  public int missCount() { return misses; }\n}",
    }, {
        "P.cs": "namespace P { public class Num {\n  private double _value; private bool _auto; private int _hits;\n"
                "  public double Value { get { return _value; } set { _value = value; } }\n"
                "  public int SymbolicWeight { get { return _hits; } set { _hits = value; } }\n"
                "  public bool AutoSolve { get { return _auto; } set { _auto = value; } }\n"
                "  public int Misses { get; set; }\n} }\n"})
    assert target_of(m, "p.Num.set_value(double)") == "P.Num.Value"
    assert target_of(m, "p.Num.set_symbolic_weight(int)") == "P.Num.SymbolicWeight"
    assert target_of(m, "p.Num.setAutosolve(boolean)") == "P.Num.AutoSolve"
    found = m.target_method("source:p.Num.FIsAutosolving()")
    assert found is not None and found.target_id == "target:P.Num.AutoSolve"
    assert found.evidence == ("returns fAuto, which setAutosolve() assigns", "setAutosolve() -> AutoSolve setter",
                              "type agrees")
    assert target_of(m, "p.Num.missCount()") is None            # no paired setter writes misses
    assert target_of(m, "p.Num.doubleValue()") is None          # Value's reader is value()'s already


def test_a_getter_a_subclass_overrides_is_not_read_through_its_field(tmp_path):
    """jsoup's Node.parent() returns parentNode, which setParentNode (NSoup's ParentNode setter) writes, but
    Element.parent() overrides it as NSoup's Element.Parent: the getter is more than its field, so it is not
    paired with ParentNode's reader (was, and every subclass's parent() call became a `Parent()` NSoup lacks)."""
    m, _ = mapped_pair(tmp_path, {
        "p/Node.java": "package p; public class Node {\n  Node parentNode;\n"
                       "  public void setParentNode(Node p) { parentNode = p; }\n"
                       "  public Node parent() { return parentNode; }\n}",
        "p/Element.java": "package p; public class Element extends Node {\n"
                          "  public Element parent() { return (Element) parentNode; }\n}",
    }, {
        "P.cs": "namespace P {\n public class Node {\n  Node _parentNode;\n"
                "  public Node ParentNode { get { return _parentNode; } set { _parentNode = value; } }\n }\n"
                " public class Element : Node {\n  public Element Parent { get { return (Element) ParentNode; } }\n }\n}\n"})
    assert target_of(m, "p.Node.setParentNode(Node)") == "P.Node.ParentNode"
    assert target_of(m, "p.Node.parent()") is None
    assert target_of(m, "p.Element.parent()") == "P.Element.Parent"
