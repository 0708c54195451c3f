"""The builtin on members a class inherits (issue 34, NSoup's Nodes): a base class's field is typed by the
C# declaration it is read through, so calls on it take the port's names (jsoup's Comment and DataNode read
Node's `attributes`, whose Java type the context does not gather: `_attributes.Put(...)` was CS1061)."""
from __future__ import annotations

import pytest

from repotrans.translator.java2cs import translate_method
from repotrans.translator.resolver import ContextResolver
from tests.support.policy_harness import compile_cs, needs_toolchains

NODE = {"class": "Web.Nodes.Node", "kind": "class", "fields": ["protected Attributes _attributes"],
        "members": ["protected Node(string baseUri)", "public virtual Attributes Attributes { get; }"]}
ATTRIBUTES = {"class": "Web.Nodes.Attributes", "kind": "class", "fields": [],
              "members": ["public void Add(string key, string value)", "public string GetValue(string key)",
                          "public string this[string key] { get; set; }", "public int Count { get; }"]}
COMMENT = {"class": "Web.Nodes.Comment", "kind": "class", "supertypes": ["Web.Nodes.Node"],
           "fields": ["private static readonly string COMMENT_KEY"], "members": ["public string GetData()"]}
JAVA_COMMENT = {"fields": ["private static final String COMMENT_KEY"], "members": ["public String getData()"]}

SHELL = """using System.Collections.Generic;
namespace Web.Nodes {
public class Attributes {
    private readonly Dictionary<string, string> values = new Dictionary<string, string>();
    public void Add(string key, string value) { values[key] = value; }
    public string GetValue(string key) { string v; return values.TryGetValue(key, out v) ? v : ""; }
    public string this[string key] { get { return GetValue(key); } set { Add(key, value); } }
    public int Count { get { return values.Count; } }
}
public abstract class Node {
    protected Attributes _attributes = new Attributes();
    protected Node(string baseUri) { }
    public virtual Attributes Attributes { get { return _attributes; } }
}
public class Comment : Node {
    private static readonly string COMMENT_KEY = "comment";
//@CANDIDATE@
}
}
"""


def _resolver(with_attributes: bool = True) -> ContextResolver:
    outputs = [("get_target_class_info", {}, COMMENT), ("get_source_class_info", {}, JAVA_COMMENT),
               ("find_target_class_info", {"class_name": "Node"}, NODE)]
    if with_attributes:
        outputs.append(("find_target_class_info", {"class_name": "Attributes"}, ATTRIBUTES))
    resolver = ContextResolver.from_tool_outputs("Comment", outputs)
    resolver.renames = {"Attributes.put/2": "Add", "Attributes.size/0": "Count"}   # as NSoup's mapping aligns them
    return resolver


JAVA = """public Comment(String data, String baseUri) {
    super(baseUri);
    attributes.put(COMMENT_KEY, data);
    if (attributes.size() > 3) attributes.put("many", data);
}"""
JAVA_GET = "public String getData() { return attributes.get(COMMENT_KEY); }"


def test_a_base_class_field_is_typed_by_its_csharp_declaration():
    resolver = _resolver()
    assert resolver.field_type(None, "attributes") == "Attributes"
    assert resolver.field_type(None, "COMMENT_KEY") == "String"           # the own class's: the Java side's
    code = translate_method(JAVA, resolver, "public Comment(string data, string baseUri)")
    assert "_attributes.Add(COMMENT_KEY, data);" in code and "_attributes.Count > 3" in code
    assert "Put(" not in code


def test_the_owner_it_names_is_looked_up_next():
    resolver = _resolver(with_attributes=False)
    translate_method(JAVA, resolver, "public Comment(string data, string baseUri)")
    assert "Attributes" in resolver.missing


def test_a_get_the_port_turned_into_a_string_indexer_is_an_index():
    code = translate_method(JAVA_GET, _resolver(), "public string GetData()")
    assert "return _attributes[COMMENT_KEY];" in code


@needs_toolchains
@pytest.mark.slow
def test_the_candidates_compile_against_the_port_shape(tmp_path):
    resolver = _resolver()
    members = [translate_method(JAVA, resolver, "public Comment(string data, string baseUri)"),
               translate_method(JAVA_GET, resolver, "public string GetData()")]
    proc = compile_cs(SHELL.replace("//@CANDIDATE@", "\n".join(members)).replace("namespace Web.Nodes {",
                      "namespace Web.Nodes {\npublic static class Entry { public static void Main() { } }"),
                      tmp_path, "Comment")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_virtual_property_read_through_an_override_is_typed_without_its_modifiers():
    """NSoup's TextNode overrides Node's `virtual Attributes Attributes`; the declared type was read as
    'virtual Attributes', so jsoup's `attributes.put(TEXT_KEY, text)` stayed `Attributes.Put(...)` (CS1061)."""
    text_node = {"class": "Web.Nodes.TextNode", "kind": "class", "supertypes": ["Web.Nodes.Node"],
                 "fields": ["private static readonly string TEXT_KEY"],
                 "members": ["public override Attributes Attributes { get; }"]}
    outputs = [("get_target_class_info", {}, text_node),
               ("get_source_class_info", {}, {"fields": ["private static final String TEXT_KEY"], "members": []}),
               ("find_target_class_info", {"class_name": "Node"}, NODE),
               ("find_target_class_info", {"class_name": "Attributes"}, ATTRIBUTES)]
    resolver = ContextResolver.from_tool_outputs("TextNode", outputs)
    resolver.renames = {"Attributes.put/2": "Add"}
    assert resolver.field_type(None, "attributes") == "Attributes"
    code = translate_method('String text(String t) { if (attributes != null) attributes.put(TEXT_KEY, t); '
                            'return attributes.get(TEXT_KEY); }', resolver, "public string Text(string t)")
    # typed as Attributes (Put -> Add, get -> the indexer); read as Node's protected field, which is what Java
    # reads (a4f35ba: through TextNode's overriding property, ensureAttributes() recursed)
    assert "_attributes.Add(TEXT_KEY, t);" in code and "return _attributes[TEXT_KEY];" in code


def test_a_type_nested_in_its_base_class_writes_the_bases_private_field():
    """NSoup's Token keeps `private TokenType _type` behind a get-only `Type`; its nested Token.Comment derives
    from Token and, being nested, may write `_type` (jsoup: `type = TokenType.Comment`). The property was
    written (CS0200: read only); a type not nested in it still goes through the property."""
    token = {"class": "Web.Parse.Token", "kind": "class", "fields": ["private TokenType _type"],
             "members": ["public TokenType Type { get; }"], "nested_types": ["class Web.Parse.Token.Comment"]}

    def resolver(nested: bool) -> ContextResolver:
        comment = {"class": "Web.Parse.Token.Comment" if nested else "Web.Parse.Comment", "kind": "class",
                   "supertypes": ["Web.Parse.Token"], "fields": [], "members": []}
        info = dict(token, nested_types=token["nested_types"] if nested else [])
        return ContextResolver.from_tool_outputs("Comment", [
            ("get_target_class_info", {}, comment), ("get_source_class_info", {}, {"fields": [], "members": []}),
            ("find_target_class_info", {"class_name": "Token"}, info)])

    java = "Comment() { type = TokenType.Comment; }"
    assert "_type = TokenType.Comment;" in translate_method(java, resolver(True), "public Comment()")
    assert "Type = TokenType.Comment;" in translate_method(java, resolver(False), "public Comment()").replace("_type", "?")


def test_a_nested_type_named_through_its_outer_type_is_the_nested_type_described():
    """jsoup writes `Token.StartTag startTag`; the tools describe NSoup's nested Token.StartTag by its simple
    name. Its members were not found (`startTag.isSelfClosing()` stayed a call; CS1061 in HtmlTreeBuilder)."""
    start = {"class": "Web.Parse.Token.StartTag", "kind": "class", "fields": [],
             "members": ["public bool IsSelfClosing { get; }"]}
    resolver = ContextResolver.from_tool_outputs("Builder", [
        ("get_target_class_info", {}, {"class": "Web.Parse.Builder", "kind": "class", "fields": [], "members": []}),
        ("get_source_class_info", {}, {"fields": [], "members": []}),
        ("find_target_class_info", {"class_name": "StartTag"}, start)])
    code = translate_method("boolean closes(Token.StartTag tag) { return tag.isSelfClosing(); }", resolver,
                            "public bool Closes(Token.StartTag tag)")
    assert "return tag.IsSelfClosing;" in code, code
