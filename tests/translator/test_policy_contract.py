"""A local declared with a Java collection interface takes the type of what initializes it (issue 34, the C#
declaration is the contract): NSoup's Parser.ParseFragment returns IList<Node> and Element.Children an
Elements (an IList<Element>), where jsoup declared `List<Node> nodes = Parser.parseFragment(...)`; the
builtin wrote `List<Node> nodes = ...` (CS0266/CS0029, 9 of NSoup's 310 validated tasks). Shapes after
jsoup's Element.append and siblingElements, not their code."""
from __future__ import annotations

import pytest

from repotrans.index.model import Method
from repotrans.translator.java2cs import translate_method
from repotrans.translator.resolver import ContextResolver
from tests.support.policy_harness import compile_cs, needs_toolchains

SHELL = """using System.Collections.Generic;
using System.Linq;
namespace Web
{
    public class Node { }
    public class Elements : List<Element> { }
    public static class Parser
    {
        public static IList<Node> ParseFragment(string html) { return new List<Node> { new Node(), new Node() }; }
    }
    public class Element : Node
    {
        public Element parent;
        public IList<Node> childNodes = new List<Node>();
        public Elements Children { get { return new Elements(); } }
        public int AddChildren(params Node[] nodes) { return nodes.Length; }
//@CANDIDATE@
        public static void Main() { }
    }
}
"""
ELEMENT = {"class": "Web.Element", "kind": "class", "fields": ["public Element parent", "public IList<Node> childNodes"],
           "members": ["public Elements Children { get; }", "public int AddChildren(params Node[] nodes)"]}
JAVA_ELEMENT = {"fields": ["Element parent", "List<Node> childNodes"], "members": ["public Elements children()"]}
APPEND = """public int append(String html) {
    List<Node> nodes = Parser.parseFragment(html);
    return addChildren(nodes.toArray(new Node[nodes.size()]));
}"""
SIBLINGS = """public int siblingCount() {
    List<Element> siblings = parent.children();
    List<Element> kept = new ArrayList<Element>();
    List<Element> again = parent.children();
    again = kept;
    return siblings.size() + again.size();
}"""
CHILD_NODES = """public int nodeCount() {
    List<Node> nodes = parent.childNodes;
    List<Node> own = childNodes;
    return nodes.size() + own.size();
}"""


def _resolver() -> ContextResolver:
    return ContextResolver.from_tool_outputs("Element", [("get_target_class_info", {}, ELEMENT),
                                                         ("get_source_class_info", {}, JAVA_ELEMENT)])


def test_a_collection_local_takes_the_type_of_the_call_initializing_it():
    code = translate_method(APPEND, _resolver(), "public int Append(string html)")
    assert "var nodes = Parser.ParseFragment(html);" in code
    code = translate_method(SIBLINGS, _resolver(), "public int SiblingCount()")
    assert "var siblings = parent.Children;" in code
    assert "List<Element> kept = new List<Element>();" in code        # a construction keeps its type
    assert "List<Element> again = parent.Children;" in code           # assigned again: the Java type stays


def test_a_collection_local_takes_the_type_of_the_field_initializing_it():
    """NSoup's Node.childNodes is an IList<Node>; jsoup's siblingNodes, nextSibling and previousSibling
    declare `List<Node> nodes = parentNode.childNodes;` (CS0266, 3 of NSoup's validated tasks)."""
    code = translate_method(CHILD_NODES, _resolver(), "public int NodeCount()")
    assert "var nodes = parent.childNodes;" in code and "var own = childNodes;" in code, code


@needs_toolchains
@pytest.mark.slow
def test_the_candidate_compiles_against_the_ports_declarations(tmp_path):
    code = translate_method(APPEND, _resolver(), "public int Append(string html)") + "\n" \
        + translate_method(SIBLINGS, _resolver(), "public int SiblingCount()") + "\n" \
        + translate_method(CHILD_NODES, _resolver(), "public int NodeCount()")
    proc = compile_cs(SHELL.replace("//@CANDIDATE@", code), tmp_path, "Element")
    assert proc.returncode == 0, proc.stdout + proc.stderr + code


def test_a_builder_the_port_hands_out_is_returned_as_it_is():
    """NSoup's Token.Doctype.Name is `StringBuilder Name { get { return _name; } }` where jsoup's getName()
    returns `name.toString()` (CS0029: string to StringBuilder)."""
    doctype = {"class": "Web.Doctype", "kind": "class", "fields": ["readonly StringBuilder _name"],
               "members": ["public StringBuilder Name { get; }"]}
    resolver = ContextResolver.from_tool_outputs("Doctype", [
        ("get_target_class_info", {}, doctype),
        ("get_source_class_info", {}, {"fields": ["final StringBuilder name"], "members": ["String getName()"]})])
    for cs_type, expected in (("StringBuilder", "return _name;"), ("string", "return _name.ToString();")):
        target = Method(id="target:Web.Doctype.Name", side="target", type_id="target:Web.Doctype", kind="property",
                        name="Name", params=[], return_type=cs_type, modifiers=["public"], annotations=[],
                        type_params=[], signature=f"public {cs_type} Name", body="{ get; }", path="Doctype.cs",
                        start_line=1, end_line=1, start_byte=0, end_byte=0)
        code = translate_method("String getName() { return name.toString(); }", resolver, target)
        assert expected in code, code


CONNECTION = """using System;
namespace Web
{
    public interface IConnectionBase<T> where T : IConnectionBase<T> { IConnectionBase<T> Url(Uri url); }
    public abstract class ConnectionBase<T> : IConnectionBase<T> where T : IConnectionBase<T>
    {
        private Uri url;
//@CANDIDATE@
    }
    public static class Entry { public static void Main() { } }
}
"""


def _connection() -> ContextResolver:
    base = {"class": "Web.ConnectionBase", "kind": "class", "type_params": ["T"], "fields": ["private Uri url"],
            "members": ["public IConnectionBase<T> Url(Uri url)"]}
    return ContextResolver.from_tool_outputs("Base", [("get_target_class_info", {}, base),
                                                      ("get_source_class_info", {}, {"fields": ["URL url"],
                                                                                     "members": ["public T url(URL url)"]})])


URL = "public T url(URL url) { this.url = url; return (T) this; }"


def test_a_cast_to_the_java_return_type_is_a_cast_to_the_ports():
    """jsoup's HttpConnection.Base<T> returns `(T) this`; NSoup's ConnectionBase<T> declares the interface
    IConnectionBase<T> (a cast to T: CS0030, 4 of NSoup's validated tasks)."""
    code = translate_method(URL, _connection(), "public IConnectionBase<T> Url(Uri url)")
    assert "return (IConnectionBase<T>)this;" in code, code
    # where the port declares the Java type, the cast is the Java one
    assert "return (T)this;" in translate_method(URL, _connection(), "public T Url(Uri url)")


@needs_toolchains
@pytest.mark.slow
def test_the_return_cast_compiles(tmp_path):
    code = translate_method(URL, _connection(), "public IConnectionBase<T> Url(Uri url)")
    proc = compile_cs(CONNECTION.replace("//@CANDIDATE@", code), tmp_path, "ConnectionBase")
    assert proc.returncode == 0, proc.stdout + proc.stderr + code
