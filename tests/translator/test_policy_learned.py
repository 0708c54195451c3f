"""The builtin translates as the port translates (issue 34): the learned API map comes before the static
JDK table, a callee the port removed takes the port's replacement, the task's own pair never feeds its
translation, and with the map off (the ablation) the static table answers as before."""
from __future__ import annotations

from repotrans.mapping.api_cache import load_api_map
from repotrans.translator.java2cs import translate_method
from repotrans.translator.resolver import ContextResolver
from tests.support.api_pair import CS, JAVA
from tests.support.indexes import mapped_pair

PKG = "source:com.google.zxing.common.BitArray"


def _seen_in_two_pairs(key: str, template: str, java: str, cs: str):
    """Observations of `key` written as `template` in two distinct pairs: enough for the learned map to answer."""
    from repotrans.mapping.api_map import Observation

    return [Observation(key, template, True, (), f"source:p.E.{p}()", f"target:N.E.{p}()", java, cs) for p in "ab"]


def _setup(tmp_path):
    mapping, index = mapped_pair(tmp_path, JAVA, CS)
    return index, mapping, load_api_map(index, mapping)


def _translate(index, mapping, java_id: str, api) -> str:
    java = index.method(java_id)
    target = index.method(mapping.target_method(java_id).target_id)
    resolver = ContextResolver("BitArray", {})
    resolver.api = api.without(java.id, target.id) if api is not None else None
    return translate_method(java, resolver, target)


def test_the_ports_factory_wins_over_the_static_table(tmp_path):
    index, mapping, api = _setup(tmp_path)
    code = _translate(index, mapping, f"{PKG}.set(int)", api)
    assert "throw SupportClass.IndexOutOfRange(i);" in code           # seen in get() and flip(), not set()
    assert "throw new ArgumentOutOfRangeException" not in code and "IndexOutOfBounds" not in code
    plain = _translate(index, mapping, f"{PKG}.set(int)", None)       # the ablation: the table's answer
    assert "SupportClass" not in plain and "throw new " in plain


def test_a_removed_helper_is_called_as_the_port_replaced_it(tmp_path):
    index, mapping, api = _setup(tmp_path)
    code = _translate(index, mapping, f"{PKG}.ensureCapacity(int)", api)  # learned from the constructor only
    assert "new int[SupportClass.WordCount(size)]" in code
    assert "new int[Words(size)]" in _translate(index, mapping, f"{PKG}.ensureCapacity(int)", None)


def test_the_task_never_learns_from_its_own_ground_truth(tmp_path):
    index, mapping, api = _setup(tmp_path)
    # firstSet() is the only pair that writes Integer.MAX_VALUE as Int32.MaxValue: without it, the table
    code = _translate(index, mapping, f"{PKG}.firstSet()", api)
    assert "int.MaxValue" in code and "Int32" not in code


def _with_helpers(index, mapping, java_id: str, api) -> str:
    from repotrans.translator.helpers import add_helpers, removed_helpers

    java = index.method(java_id)
    target = index.method(mapping.target_method(java_id).target_id)
    resolver = ContextResolver("BitArray", {})
    resolver.api = api.without(java.id, target.id) if api is not None else None
    paired = {m.source_id for m in mapping.method_matches}
    cs_names = {m.name for m in index.methods(target.type_id)}
    helpers = removed_helpers([m for m in index.methods(java.type_id) if m.id != java.id], paired, cs_names)
    assert [h.name for h in helpers] == ["words"]
    return add_helpers(translate_method(java, resolver, target), helpers, resolver, translate_method)


def test_a_removed_one_expression_helper_is_inlined_when_the_map_has_no_answer(tmp_path):
    index, mapping, api = _setup(tmp_path)
    code = _with_helpers(index, mapping, f"{PKG}.ensureCapacity(int)", None)
    assert "int[] newBits = new int[((size + 31) / 32)];" in code and "Words(" not in code
    # with the map, the port's replacement is written and nothing is inlined or added
    assert "new int[SupportClass.WordCount(size)]" in _with_helpers(index, mapping, f"{PKG}.ensureCapacity(int)", api)


def test_a_removed_helper_of_statements_is_added_after_the_candidate_and_marked(tmp_path):
    from repotrans.translator.helpers import ADDED_MARK

    java = {name: text.replace("private static int words(int size) { return (size + 31) / 32; }",
                               "private static int words(int size) { int n = size + 31; return n / 32; }")
            for name, text in JAVA.items()}
    mapping, index = mapped_pair(tmp_path, java, CS)
    code = _with_helpers(index, mapping, f"{PKG}.ensureCapacity(int)", None)
    assert code.endswith(ADDED_MARK.format(name="words") + "\nprivate static int Words(int size)\n"
                         "{\n    int n = size + 31;\n    return n / 32;\n}")
    assert "new int[Words(size)]" in code


def test_names_the_java_file_imports_from_the_jdk_are_never_looked_up_as_port_types(tmp_path):
    """Issue 34: `java.util.Calendar` (imported by the Java file) became the port's own ICalendar."""
    from repotrans.index.model import Import
    from repotrans.translator.steps import jdk_imports, project_types

    mapping, index = mapped_pair(tmp_path, {"p/Event.java": (
        "package p;\nimport java.util.Calendar;\nimport java.util.*;\nimport p.model.Slot;\n"
        "public class Event { public long at(Calendar c, Slot s) { Calendar d = c; return d.getTimeInMillis(); } }")},
        {"Event.cs": "namespace P { public class Event { public long At(ICalendar c, Slot s) { return 0; } }\n"
                     " public interface ICalendar { } public class Slot { } }"})
    java = index.method("source:p.Event.at(Calendar, Slot)")
    jdk = jdk_imports(index.file("source", java.path).imports)
    assert jdk == frozenset({"Calendar"})          # not the wildcard, not the project's own import
    assert project_types(java) == ["Calendar", "Slot"]
    assert project_types(java, jdk_names=jdk) == ["Slot"]
    assert jdk_imports([Import("import static java.lang.Math.max;", "java.lang.Math.max", static=True)]) == frozenset()


def test_the_csharp_declaration_is_the_contract_a_void_member_drops_the_java_return_value():
    """Issue 34 (CS0127): Java returns an int where the port's member is void; an effect stays a statement."""
    java = "int add(int x) { total += x; if (x > 3) { return count(x); } return total; }"
    code = translate_method(java, ContextResolver("Acc", {}), "public void Add(int x)")
    assert code == ("public void Add(int x)\n{\n    total += x;\n    if (x > 3)\n    {\n        Count(x);\n"
                    "        return;\n    }\n    return;\n}")
    assert "return total;" in translate_method(java, ContextResolver("Acc", {}), "public int Add(int x)")


def test_a_private_field_of_another_type_is_read_through_its_property():
    """Issue 34: ZXing.Net keeps BitMatrix.width private behind `Width`; Java reads `m.width` directly."""
    from repotrans.translator.tool_outputs import target_type

    matrix = target_type({"class": "ZXing.Common.BitMatrix", "fields": ["private int[] bits", "private int width"],
                          "members": ["public int Width { get; }"]})
    own = target_type({"class": "ZXing.Walker", "fields": ["private int width"]})
    resolver = ContextResolver("Walker", {"BitMatrix": matrix, "Walker": own})
    code = translate_method("int w(BitMatrix m) { return m.width + width; }", resolver, "public int W(BitMatrix m)")
    assert "return m.Width + width;" in code                 # its own private field stays a field
    assert matrix.private == {"bits", "width"}


def test_the_enclosing_class_wins_over_an_imported_type_and_a_call_is_no_type():
    """Issue 34 (CS0119): the class's own static helper `Match(...)` was bound to Regex's `Match` type."""
    from repotrans.translator.java2cs import qualify

    usings = frozenset({"System"})
    assert qualify("int n = Match(a, b); Match m = r.Match(s);", usings) == \
        "int n = Match(a, b); System.Text.RegularExpressions.Match m = r.Match(s);"
    assert qualify("var g = Match.Groups; var x = new Match(1);", usings, frozenset({"Match"})) == \
        "var g = Match.Groups; var x = new Match(1);"      # a member of the class named Match: its own
    assert qualify("var x = new StringBuilder(4);", usings) == "var x = new System.Text.StringBuilder(4);"


def test_a_constant_cast_out_of_range_wraps_as_java_does():
    """ZXing.Net DefaultPlacement: Java `(byte) -1` is 255 in a C# byte; `(byte)(-1)` alone is CS0221."""
    java = "void init(int n) { bits = new byte[n]; bits[0] = (byte) -1; bits[1] = (byte) 7; c = (char) 65; }"
    code = translate_method(java, ContextResolver("DefaultPlacement", {}), "public void init(int n)")
    assert "bits[0] = unchecked((byte)(-1));" in code
    assert "bits[1] = (byte)7;" in code and "unchecked((char)" not in code


def test_jdk_accessors_the_port_writes_as_properties():
    """ZXing.Net ErrorCorrection.encodeECC200 (CS1955 on `sb.Capacity()`), ResultParser.isSubstringOfDigits
    (CS1061 on `SubSequence`)."""
    java = ("String f(StringBuilder sb, String v, int a, int b) { sb.setLength(sb.capacity()); "
            "return v.subSequence(a, b).toString(); }")
    code = translate_method(java, ContextResolver("ErrorCorrection", {}), "public String f(StringBuilder sb, "
                            "String v, int a, int b)")
    assert "sb.Length = sb.Capacity;" in code
    assert "v.Substring(a, b - (a))" in code and "SubSequence" not in code


def test_a_pass_through_static_call_is_not_bound_to_the_literals_it_was_seen_with():
    """ZXing.Net writes Arrays.fill as SupportClass.Fill (seen with `(byte) 0`); DefaultPlacement fills with
    `(byte) -1`. A template that passes every argument through in order is no literal's; `substring(0, n)`
    -> `Substring(0, n)` (a receiver's template) still is."""
    from repotrans.mapping.api_map import ApiMap, Observation

    def seen(key, template, java, cond, pair):
        return Observation(key, template, True, cond, f"source:{pair}", f"target:{pair}", java, template)

    api = ApiMap([seen("Arrays.fill/2", "SupportClass.Fill({1}, {2})", "Arrays.fill(m, (byte) 0)",
                       ((1, "(byte) 0"),), p) for p in ("a", "b")]
                 + [seen("String#substring/2", "{0}.Substring({1}, {2})", "s.substring(0, n)", ((0, "0"),), p)
                    for p in ("a", "b")])
    fill = api.choose("Arrays.fill/2", ["bits", "(byte) -1"], min_count=2)
    assert fill is not None and fill.template == "SupportClass.Fill({1}, {2})"
    typed = [Observation(o.key, o.template, True, o.conditions, o.source_id, o.target_id, o.java, o.cs, "byte[]")
             for o in api.observations if o.key == "Arrays.fill/2"]      # `byte[] mins` recorded as byte[]
    assert ApiMap(typed).choose("Arrays.fill/2", ["this.bits", "(byte) -1"], min_count=2, arg_type="byte[]")
    assert ApiMap(typed).choose("Arrays.fill/2", ["xs", "0"], min_count=2, arg_type="int[]") is None
    assert api.choose("String#substring/2", ["a", "b"], min_count=2) is None
    assert api.choose("String#substring/2", ["0", "n"], min_count=2) is not None


def test_locals_take_the_signedness_the_ports_members_declare():
    """BCrypt.Net made jBCrypt's `int[]` Blowfish state `uint[]` and `char64` return `int` (Java: byte): a
    local passed to, or assigned from, the class's own members takes the port's type where the two differ
    only in sign or width; a local of another meaning keeps Java's."""
    from repotrans.index.model import Method
    from repotrans.translator.tool_outputs import target_type

    own = target_type({"class": "BCrypt.Net.BCrypt", "fields": ["private uint[] P", "private static readonly "
                       "uint[] bf_crypt_ciphertext", "private String name"],
                       "members": ["private void encipher(uint[] lr, int off)", "private static int char64(char x)"]})
    resolver = ContextResolver("BCrypt", {"BCrypt": own})
    java = ("void key(String s) { int lr[] = {0, 0}; encipher(lr, 0); int cdata[] = bf_crypt_ciphertext.clone(); "
            "byte c1 = char64(s.charAt(0)); int n = lr.length; String t = name; }")
    sig = "private void key(String s)"
    target = Method("target:BCrypt.Net.BCrypt.key(String)", "target", "target:BCrypt.Net.BCrypt", "method", "key",
                    [], "void", ["private"], [], [], sig, "{ }", "BCrypt.cs", 1, 1, 0, 1)
    code = translate_method(java, resolver, target)
    assert "uint[] lr = new uint[] { 0, 0 };" in code
    assert "uint[] cdata = " in code and "int c1 = " in code and "byte c1" not in code
    assert "int n = lr.Length;" in code and "string t = name;" in code.replace("String t", "string t")
    own.java_fields["P"] = "int[]"            # what the Java class declares (find_source_class_info)
    init = translate_method("void init_key() { P = (int[]) P.clone(); this.P = new int[4]; }", resolver,
                            target.__class__(**{**target.__dict__, "signature": "private void init_key()"}))
    assert "P = (uint[])" in init and "this.P = new uint[4];" in init       # the port's field type wins


def test_a_one_element_array_pointer_becomes_the_ports_ref_parameter():
    """BCrypt.Net: jBCrypt passes `int koffp[] = {0}` to streamtoword(byte[], int[]) as a pointer; the port
    declares `streamtoword(byte[] data, ref int off)`: the local is the element, passed by `ref`."""
    from repotrans.index.model import Method
    from repotrans.translator.tool_outputs import target_type

    own = target_type({"class": "BCrypt.Net.BCrypt", "fields": [],
                       "members": ["private static uint streamtoword(byte[] data, ref int off)",
                                   "private static int sum(int[] xs)"]})
    resolver = ContextResolver("BCrypt", {"BCrypt": own})
    sig = "private void key(byte[] key)"
    target = Method("target:BCrypt.Net.BCrypt.key(byte[])", "target", "target:BCrypt.Net.BCrypt", "method", "key",
                    [], "void", ["private"], [], [], sig, "{ }", "BCrypt.cs", 1, 1, 0, 1)
    code = translate_method("void key(byte key[]) { int koffp[] = { 0 }; int w = streamtoword(key, koffp); "
                            "int other[] = { 0 }; w += sum(other); }", resolver, target)
    assert "int koffp = 0;" in code and "streamtoword(key, ref koffp)" in code
    assert "int[] other = new int[] { 0 };" in code and "sum(other)" in code     # not passed by reference


def test_jdk_charsets_and_octal_escapes_as_the_port_writes_them():
    """BCrypt.Net hashpw: jBCrypt writes `(password + "\\000").getBytes("UTF-8")` inside a catch of
    UnsupportedEncodingException; C# has no octal escapes ("\\000" is NUL then "00") and no getBytes."""
    java = ('byte[] b(String p) { try { return (p + "\\000").getBytes("UTF-8"); } '
            'catch (UnsupportedEncodingException e) { throw new AssertionError("no UTF-8"); } }')
    code = translate_method(java, ContextResolver("BCrypt", {}), "public byte[] b(String p)")
    assert 'Encoding.GetEncoding("UTF-8").GetBytes((p + "\\u0000"))' in code
    assert "catch (ArgumentException e)" in code and "throw new InvalidOperationException(" in code
    assert "'\\u0000'" in translate_method("char z() { return '\\0'; }", ContextResolver("C", {}), "public char z()")


def test_a_helper_the_port_folded_into_an_overload_is_added():
    """BCrypt.Net folded jBCrypt's gensalt(int, SecureRandom) into gensalt(int): the name survives with
    another parameter count, so the 2-argument helper counts as removed (it was cut to gensalt(int) by
    repair and recursed forever); SecureRandom is RNGCryptoServiceProvider."""
    from repotrans.translator.helpers import removed_helpers
    from repotrans.translator.tool_outputs import target_type

    class M:
        def __init__(self, name, n):
            self.id, self.name, self.kind, self.body, self.params = f"source:{name}/{n}", name, "method", "{}", [0] * n

    two, one, other = M("gensalt", 2), M("gensalt", 1), M("encode", 2)
    assert removed_helpers([two, one, other], {one.id}, {"gensalt", "encode"}, {("gensalt", 1), ("encode", 2)}) \
        == [two]
    assert removed_helpers([two], set(), {"gensalt"}) == []             # without overloads: name only
    code = translate_method("void f(byte[] b) { SecureRandom r = new SecureRandom(); r.nextBytes(b); }",
                            ContextResolver("BCrypt", {}), "public void f(byte[] b)")
    assert "new System.Security.Cryptography.RNGCryptoServiceProvider()" in code and "r.GetBytes(b);" in code
    from repotrans.translator.helpers import add_helpers

    class Helper(M):
        pass
    helper = Helper("gensalt", 2)
    added = add_helpers("public static String Salt(int n)\n{\n    return Gensalt(n, null);\n}", [helper],
                        ContextResolver("BCrypt", {}),
                        lambda m, r: "public static string Gensalt(int n, object r)\n{\n    n++;\n    return \"\";\n}")
    assert "\nprivate static string Gensalt(int n, object r)" in added     # a candidate adds private members only
    own = target_type({"class": "BCrypt.Net.BCrypt", "members": ["public static String gensalt(int n)"]})
    folded = add_helpers("public static String gensalt(int n)\n{\n    return gensalt(n, Make(gensalt(1)));\n}",
                         [helper], ContextResolver("BCrypt", {"BCrypt": own}),
                         lambda m, r: "public static string gensalt(int n, object r)\n{\n    n++;\n    return gensalt(n, r);\n}")
    assert "return gensalt2(n, Make(gensalt(1)));" in folded          # the kept overload is not renamed
    assert "private static string gensalt2(int n, object r)" in folded and "return gensalt2(n, r);" in folded


def test_a_base_class_private_field_is_read_through_its_property():
    """NSoup: jsoup's Comment reads Node's protected `attributes`; NSoup's Node keeps `_attributes` private
    behind the `Attributes` property (CS1061/CS0122 on `_attributes` from the subclass)."""
    from repotrans.translator.tool_outputs import target_type

    node = target_type({"class": "NSoup.Nodes.Node", "fields": ["private Attributes _attributes"],
                        "members": ["public Attributes Attributes { get; }"]})
    comment = target_type({"class": "NSoup.Nodes.Comment", "fields": ["private string _own"]})
    comment.supertypes = ["Node"]
    resolver = ContextResolver("Comment", {"Node": node, "Comment": comment})
    code = translate_method("String d() { return attributes.toString() + own; }", resolver, "public string D()")
    assert "Attributes.ToString()" in code and "_attributes" not in code and "_own" in code


def test_an_argument_of_an_element_type_is_no_evidence_for_an_array_of_it():
    """jsoup's StringUtil.padding returns String.valueOf(out) of a `char[] out`; NSoup's ported pairs write
    String.valueOf(c) of a char as c.ToString(). Recorded without dimensions, the char uses answered for the
    char[] (`out.ToString()` is "System.Char[]"); arrays keep their dimensions, so the table's
    `new string(out)` stands."""
    from repotrans.index.model import Method
    from repotrans.mapping.api_map import ApiMap, Observation
    from repotrans.mapping.api_sites import java_sites

    def method(body):
        return Method("source:p.A.f()", "source", "source:p.A", "method", "f", [], "String", ["public"], [], [],
                      "public String f(byte[] mins, char c)", body, "A.java", 1, 3, 0, 10)

    sites, _ = java_sites(method("{ char[] out = new char[2]; String.valueOf(out); String.valueOf(c); "
                                 "Arrays.fill(mins, (byte) 0); return null; }"), {}, "A")
    assert [(s.key, s.arg_type) for s in sites if s.kind == "static"] == [
        ("String.valueOf/1", "char[]"), ("String.valueOf/1", "char"), ("Arrays.fill/2", "byte[]")]
    seen = [Observation("String.valueOf/1", "{1}.ToString()", True, (), f"source:{p}", f"target:{p}",
                        "String.valueOf(c)", "c.ToString()", "char") for p in ("a", "b", "c")]
    assert ApiMap(seen).choose("String.valueOf/1", ["c"], arg_type="char") is not None
    assert ApiMap(seen).choose("String.valueOf/1", ["out"], arg_type="char[]") is None
    resolver = ContextResolver("StringUtil", {})
    resolver.api = ApiMap(seen)
    code = translate_method("public static String f(int n) { char[] out = new char[n]; return String.valueOf(out); }",
                            resolver, "public static string F(int n)")
    assert "new string(@out)" in code and "ToString" not in code


def test_an_inherited_call_is_written_as_the_ports_code_writes_it_on_a_receiver():
    """jsoup's TextNode calls its inherited `parent()`; NSoup has no Parent() on Node, and its ported code
    writes `node.parent()` as `node.ParentNode` (learned as `Node#parent/0`). An unqualified call to a
    method of a supertype takes that receiver template on `this` (was `this.Parent()`, CS1061)."""
    from repotrans.mapping.api_map import ApiMap, Observation
    from repotrans.translator.tool_outputs import target_type

    own = target_type({"class": "NSoup.Nodes.TextNode", "supertypes": ["NSoup.Nodes.Node"]})
    resolver = ContextResolver("TextNode", {"TextNode": own})
    resolver.api = ApiMap([Observation("Node#parent/0", "{0}.ParentNode", True, (), "source:p.Node.a()",
                                       "target:N.Node.A()", "node.parent()", "node.ParentNode")])
    code = translate_method("boolean orphan() { return parent() == null; }", resolver, "public bool Orphan()")
    assert "return this.ParentNode == null;" in code


def test_a_call_the_mapping_pairs_in_a_base_class_stays_the_resolvers():
    """jsoup's Element calls its inherited `attr("id")`, which the mapping pairs (Node.attr -> Node.Attr): the
    resolver names it; a receiver template seen for `element.attr(..)` does not rewrite it (was `this.Attr(..)`)
    and does not answer in a static member."""
    from repotrans.mapping.api_map import ApiMap
    from repotrans.translator.tool_outputs import target_type

    own = target_type({"class": "NSoup.Nodes.Element", "supertypes": ["NSoup.Nodes.Node"]})
    resolver = ContextResolver("Element", {"Element": own})
    resolver.api = ApiMap(_seen_in_two_pairs("Element#attr/1", "{0}.Attr({1})", "e.attr(k)", "e.Attr(k)"),
                          mapped=frozenset({"Node.attr/1"}))
    code = translate_method('String id() { return attr("id"); }', resolver, "public string Id()")
    assert 'return Attr("id");' in code, code


def test_a_call_on_a_subtype_reaches_what_the_port_writes_for_its_supertype():
    """A JUnit test calls `tn.parent()` on a TextNode; the port writes Node's parent() as ParentNode (learned
    on Node receivers). A receiver of a subtype reaches the supertype's template, unless the subtype's own
    method is paired (Element.parent() is the port's Element.Parent)."""
    from repotrans.mapping.api_map import ApiMap, Observation
    from repotrans.translator.tool_outputs import target_type

    text = target_type({"class": "NSoup.Nodes.TextNode", "supertypes": ["NSoup.Nodes.Node"]})
    element = target_type({"class": "NSoup.Nodes.Element", "supertypes": ["NSoup.Nodes.Node"],
                           "members": ["public Element Parent { get; }"]})
    resolver = ContextResolver("T", {"TextNode": text, "Element": element})
    resolver.api = ApiMap([Observation("Node#parent/0", "{0}.ParentNode", True, (), "source:p.Node.a()",
                                       "target:N.Node.A()", "node.parent()", "node.ParentNode")],
                          frozenset({"Element#parent/0"}))
    code = translate_method("boolean f(TextNode tn, Element e) { return tn.parent() == e.parent(); }", resolver,
                            "public bool F(TextNode tn, Element e)")
    assert "return tn.ParentNode == e.Parent;" in code


def test_a_paired_call_on_an_undescribed_type_is_written_as_the_ports_code_writes_it():
    """jsoup's TextNode reads `((Element) parentNode).tag().formatAsBlock()`; the mapping pairs Tag.formatAsBlock
    with NSoup's FormatAsBlock property, but the task's context never described Tag, so the resolver wrote a
    call (FormatAsBlock(), CS1955). The port's own code shows the property (learned Tag#formatAsBlock/0)."""
    from repotrans.mapping.api_map import ApiMap
    from repotrans.translator.tool_outputs import target_type

    element = target_type({"class": "NSoup.Nodes.Element", "members": ["public Tag Tag { get; }"]})
    element.java_methods["tag/0"] = "Tag"
    resolver = ContextResolver("TextNode", {"Element": element})
    resolver.api = ApiMap(_seen_in_two_pairs("Tag#formatAsBlock/0", "{0}.FormatAsBlock", "tag.formatAsBlock()",
                                             "tag.FormatAsBlock"),
                          mapped=frozenset({"Tag#formatAsBlock/0"}))
    code = translate_method("boolean f(Element e) { return e.tag().formatAsBlock(); }", resolver, "public bool F(Element e)")
    assert "return e.Tag.FormatAsBlock;" in code, code


def test_a_base_classs_field_is_read_as_that_field_not_the_subclasss_property():
    """jsoup's TextNode.ensureAttributes() reads Node's `attributes` field; NSoup's Node has a protected
    `_attributes` field behind a virtual Attributes property that TextNode overrides (its getter calls
    EnsureAttributes). Through the property the two recursed (stack overflow); the base's reachable field is
    what Java reads. A private base field is still reached through its property."""
    from repotrans.translator.tool_outputs import target_type

    node = target_type({"class": "NSoup.Nodes.Node", "fields": ["protected Attributes _attributes",
                                                                "private int _siblingIndex"],
                        "members": ["public virtual Attributes Attributes { get; }", "public int SiblingIndex { get; }"]})
    text = target_type({"class": "NSoup.Nodes.TextNode", "supertypes": ["NSoup.Nodes.Node"],
                        "members": ["public override Attributes Attributes { get; }"]})
    resolver = ContextResolver("TextNode", {"Node": node, "TextNode": text})
    code = translate_method("void ensure() { if (attributes == null) { attributes = new Attributes(); } "
                            "int i = siblingIndex; }", resolver, "private void Ensure()")
    assert "if (_attributes == null)" in code and "_attributes = new Attributes();" in code, code
    assert "int i = SiblingIndex;" in code


def test_a_learned_static_field_keeps_its_type():
    """ZXing.Net's learned `Mode.NUMERIC` template lost the field's type, so `Mode.NUMERIC.getCharacterCountBits(v)`
    was named by convention (GetCharacterCountBits, CS1061) instead of by the port's Mode."""
    from repotrans.mapping.api_map import ApiMap
    from repotrans.translator.tool_outputs import target_type

    mode = target_type({"class": "ZXing.QrCode.Internal.Mode", "fields": ["public static readonly Mode NUMERIC"],
                        "members": ["public int getCharacterCountBits(Version version)"]})
    mode.java_fields["NUMERIC"] = "Mode"
    resolver = ContextResolver("ModeTestCase", {"Mode": mode})
    resolver.api = ApiMap(_seen_in_two_pairs("Mode.NUMERIC", "Mode.NUMERIC", "Mode.NUMERIC", "Mode.NUMERIC"))
    code = translate_method("int f(Version v) { return Mode.NUMERIC.getCharacterCountBits(v); }", resolver,
                            "public int F(Version v)")
    assert "return Mode.NUMERIC.getCharacterCountBits(v);" in code, code
