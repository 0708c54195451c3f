"""Java constants the port removed are added beside the candidate from their Java initializers (the
candidate compiles and behaves as Java); a type generated code writes as `global::Ns.T` is the type `Ns.T`,
so a getter read on it is looked up and becomes the port's property."""
from __future__ import annotations

from repotrans.index.model import Field
from repotrans.translator.constants import add_constants, removed_constants
from repotrans.translator.cs_types import java_type_of
from repotrans.translator.java2cs import translate_method
from repotrans.translator.resolver import ContextResolver
from repotrans.translator.tool_outputs import TargetType
from tests.support.policy_harness import compile_cs, needs_toolchains, run

_JAVA = """import java.util.regex.*;

public class Trim {
  private static final String END_CHARS = "[!?.]+$";
  static final Pattern END_PATTERN = Pattern.compile(END_CHARS);
  static final int LIMIT = 2 * 3;
  static final int KEPT = 7;

  static String trim(String s) {
    // cut what END_PATTERN matches; KEPT does not count
    Matcher m = END_PATTERN.matcher(s);
    if (m.find()) {
      s = s.substring(0, m.start());
    }
    return s.length() > LIMIT ? s.substring(0, LIMIT) : s;
  }

  public static void main(String[] args) {
    for (String s : new String[] {"hello!!", "ok?", "a.b.", "nothing"}) {
      System.out.println(trim(s));
    }
  }
}
"""


def _field(name: str, type_: str, initializer: str | None, modifiers: tuple[str, ...] = ("static", "final")) -> Field:
    return Field(f"source:Trim.{name}", "source:Trim", name, type_, list(modifiers), initializer, 1)


_FIELDS = [_field("END_CHARS", "String", '"[!?.]+$"', ("private", "static", "final")),
           _field("END_PATTERN", "Pattern", "Pattern.compile(END_CHARS)"),
           _field("LIMIT", "int", "2 * 3"), _field("KEPT", "int", "7"),
           _field("count", "int", "0", ("static",)), _field("name", "String", '"x"', ("final",))]


def _trim_method() -> str:
    return _JAVA[_JAVA.index("  static String trim"):_JAVA.index("  public static void main")]


def test_only_static_final_fields_the_port_has_in_no_spelling_are_removed_constants():
    """`KEPT` is the port's `_kept`, `LIMIT` the mapping paired with another name; mutable and instance
    fields are state, never constants."""
    removed = removed_constants(_FIELDS, {"_kept", "Trim"}, {"LIMIT"})
    assert [f.name for f in removed] == ["END_CHARS", "END_PATTERN"]


@needs_toolchains
def test_a_removed_constant_and_what_its_value_reads_are_added_and_behave_as_java(tmp_path):
    """The candidate reads END_PATTERN, whose value reads END_CHARS: both are added, END_CHARS as a const,
    END_PATTERN as a static getter; LIMIT is read too; KEPT only in a comment, which reads nothing."""
    resolver = ContextResolver("Trim", {"Trim": TargetType("Trim")})
    code = translate_method(_trim_method(), resolver, "static string Trim(string s)")
    code = add_constants(code, removed_constants(_FIELDS, {"Trim"}, set()), resolver, translate_method)
    assert "private const string END_CHARS = " in code, code
    regex = "System.Text.RegularExpressions.Regex"
    assert (f"private static readonly System.Lazy<{regex}> END_PATTERN__lazy = new System.Lazy<{regex}>(() => "
            f"new {regex}(END_CHARS));\n"
            f"private static {regex} END_PATTERN {{ get {{ return END_PATTERN__lazy.Value; }} }}") in code
    assert "private const int LIMIT = 2 * 3;" in code
    assert "// cut what END_PATTERN matches; KEPT does not count" in code and "int KEPT" not in code
    assert code.count("the Java constant END_CHARS,") == 1 and code.count("the Java constant END_PATTERN,") == 1
    main = ('static void Main() { foreach (var s in new[] {"hello!!", "ok?", "a.b.", "nothing"}) '
            "System.Console.WriteLine(Trim(s)); }")
    shell = ("using System;\nusing System.Text.RegularExpressions;\nclass Prog {\n" + code + "\n" + main + "\n}\n")
    compiled = compile_cs(shell, tmp_path)
    assert compiled.returncode == 0, compiled.stdout + shell
    (tmp_path / "Trim.java").write_text(_JAVA)
    expected = run(["java", "Trim.java"], tmp_path)
    assert expected.returncode == 0, expected.stderr
    assert run(["mono", "Prog.exe"], tmp_path).stdout == expected.stdout == "hello\nok\na.b\nnothin\n"


@needs_toolchains
def test_a_value_that_is_no_literal_is_a_getter_whatever_the_class_initializes_first(tmp_path):
    """jsoup's `defaultCharsetName = UTF_8.name()` reads another constant's member: no `const`. A value that
    reads a static field the port declares later in the class (`SEPARATORS`, static readonly) is built when
    first read, once (SPLIT is one object, as in Java): as a static readonly field it was built before
    SEPARATORS was set (a null pattern, and the class's type initializer threw). An array initializer
    (`{'!', '?'}`) is the array it stands for."""
    fields = [_field("UTF_8", "Charset", 'Charset.forName("UTF-8")'),
              _field("DEFAULT_NAME", "String", "UTF_8.name()"),
              _field("SPLIT", "Pattern", "Pattern.compile(SEPARATORS)"), _field("MARKS", "char[]", "{'!', '?'}")]
    words = TargetType("Words", fields={"SEPARATORS": "string"},
                       java_fields={"UTF_8": "Charset", "DEFAULT_NAME": "String", "SPLIT": "Pattern"})
    resolver = ContextResolver("Words", {"Words": words})
    java = ("static int count(String s) { return SPLIT.split(s).length + DEFAULT_NAME.length()"
            " + (SPLIT == SPLIT ? 0 : 100) + MARKS.length; }")
    code = add_constants(translate_method(java, resolver, "static int Count(string s)"),
                         removed_constants(fields, {"Words", "SEPARATORS"}, set()), resolver, translate_method)
    assert "private const" not in code, code
    assert "System.Lazy<string>(() => UTF_8.WebName);" in code
    assert "private static Encoding UTF_8 { get { return UTF_8__lazy.Value; } }" in code
    shell = ("using System;\nusing System.Text;\nusing System.Text.RegularExpressions;\nclass Words {\n" + code +
             '\n    static void Main() { Console.WriteLine(Count("a b,c")); }\n'
             '    private static readonly string SEPARATORS = "[ ,]";\n}\n')
    compiled = compile_cs(shell, tmp_path)
    assert compiled.returncode == 0, compiled.stdout + shell
    assert run(["mono", "Prog.exe"], tmp_path).stdout.split() == ["10"]     # 3 words + "utf-8" + 2 marks


def test_a_type_written_with_the_global_alias_is_the_type_itself():
    """Generated code (libphonenumber-csharp's protobuf classes) declares `global::PhoneNumbers.PhoneNumberDesc
    GeneralDesc`: read back as a Java type it was `global.PhoneNumbers...`, so the getter read on it stayed a
    call (`GetNationalNumberPattern()`, CS1061) and the type was never looked up."""
    assert java_type_of("global::N.Desc") == "N.Desc"
    assert java_type_of("global::System.Collections.Generic.List<global::N.Desc>") == \
        "System.Collections.Generic.List<N.Desc>"
    metadata = TargetType("Metadata", properties={"GeneralDesc": "global::N.Desc"})
    java = "String pattern(Metadata metadata) { return metadata.getGeneralDesc().getNationalNumberPattern(); }"
    alone = ContextResolver("Util", {"Util": TargetType("Util"), "Metadata": metadata})
    translate_method(java, alone, "string Pattern(Metadata metadata)")
    assert alone.missing == ["N.Desc"]          # what the context agent looks up next
    desc = TargetType("Desc", properties={"NationalNumberPattern": "string"})
    resolver = ContextResolver("Util", {"Util": TargetType("Util"), "Metadata": metadata, "Desc": desc})
    code = translate_method(java, resolver, "string Pattern(Metadata metadata)")
    assert "return metadata.GeneralDesc.NationalNumberPattern;" in code, code
