"""The allowlist's signature closure (il_refs, cecil_framework.cs): a framework type that a member the port's code
uses returns or takes, or a base class of one or of its declaring type, is data the port already handles, so a
candidate may use its members, and in turn those of the types its public members' signatures name, in both
checkers with the same denials. Only a type in a family's namespace (System.Xml,
System.Xml.Linq, System.Xml.XPath) that no rule names enters: never a capability (threads, reflection, schemas, the
console, files through a type no rule names), nor a type the rules open member by member (XmlDocument); nor does
the closure come from the candidate member's own baseline body. Pinyin4j's port uses XmlDocument; its sparta
members walk XmlNode and cast to XmlElement."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from repotrans.execution.capability import checks
from repotrans.execution.capability.checks import MemberRef
from repotrans.execution.capability.il_check import Checker
from repotrans.execution.capability.il_framework import Framework
from repotrans.execution.capability.il_refs import port_refs
from tests.support.cecil import ADD, both_checkers, build_checker, compile_calc_with

RENDER = MemberRef("Acme.Calc.Calculator", ("Render",), 1, ("String",))
# the port's other members: one reads XmlDocument.DocumentElement (and nothing else of System.Xml), one the current
# thread's id, one an object's Type, one writes to Console.Out, one converts a string by a TypeConverter, one draws
# on an Image, one reads a node's XmlDocument, one opens the configuration (a type no rule names: a file SaveAs)
PORT = ("private System.Xml.XmlDocument doc;\n"
        "public string Root(System.Xml.XmlDocument d) { return d.DocumentElement == null ? \"\" : \"root\"; }\n"
        "public int Thread() { return System.Threading.Thread.CurrentThread.ManagedThreadId; }\n"
        "public string Kind(object o) { return o.GetType().Name; }\n"
        "public void Print(string s) { System.Console.Out.WriteLine(s); }\n"
        "public object Parse(string s) { return System.ComponentModel.TypeDescriptor.GetConverter(typeof(int))"
        ".ConvertFromString(s); }\n"
        "private System.Drawing.Image image;\n"
        "public object Draw() { return System.Drawing.Graphics.FromImage(image); }\n"
        "public System.Xml.XmlDocument Owner(System.Xml.XmlNode n) { return n.OwnerDocument; }\n"
        "private System.Configuration.Configuration config;\n"
        "public object Open() { return System.Configuration.ConfigurationManager.OpenExeConfiguration("
        "System.Configuration.ConfigurationUserLevel.None); }\n")


def render(body: str, port: str = PORT) -> str:
    return ADD + port + "public string Render(string xml)\n" + body + "\n"


# (name, the candidate's Render, the denied APIs: none when allowed)
CASES = [
    ("an element's own member", "{ return doc.DocumentElement.GetAttribute(xml); }", set()),
    ("a node's members through the declaring type's base", "{ return doc.SelectSingleNode(xml).InnerText; }", set()),
    ("a cast to a type a closure member's signature names",
     "{ var e = (System.Xml.XmlElement)doc.SelectSingleNode(xml); return e == null ? \"\" : e.Name; }", set()),
    ("a list a closure member returns, walked",
     "{ var s = \"\"; foreach (System.Xml.XmlNode n in doc.DocumentElement.ChildNodes) s += n.Name; return s; }", set()),
    ("schemas reached through a node's SchemaInfo", "{ return \"\" + doc.DocumentElement.SchemaInfo.Validity; }",
     {"System.Xml.Schema.IXmlSchemaInfo", "System.Xml.Schema.XmlSchemaValidity"}),
    ("a thread reached through Thread.CurrentThread",
     "{ System.Threading.Thread.CurrentThread.Join(1); return xml; }", {"System.Threading.Thread.Join"}),
    ("reflection reached through object.GetType", "{ return \"\" + xml.GetType().BaseType; }",
     {"System.Type.get_BaseType"}),
    ("the console through a member the port uses of it", "{ System.Console.Error.WriteLine(xml); return xml; }",
     {"System.Console.get_Error"}),
    ("reflection by name reached through TypeDescriptor.GetConverter",
     "{ return \"\" + System.ComponentModel.TypeDescriptor.GetConverter(typeof(int)).GetPropertiesSupported(); }",
     {"System.ComponentModel.TypeConverter.GetPropertiesSupported"}),
    ("a file reached through the image Graphics.FromImage takes", "{ image.Save(xml); return xml; }",
     {"System.Drawing.Image.Save(string path)"}),
    ("a file through a type outside the families that a member the port uses returns",
     "{ config.SaveAs(xml); return xml; }", {"System.Configuration.Configuration.SaveAs"}),
    ("the document's own members the port does not use, though a member it uses returns it",
     "{ return doc.CreateElement(xml).Name; }", {"System.Xml.XmlDocument.CreateElement"}),
]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    if shutil.which("mcs") is None or not Path(checks.CECIL).is_file():
        pytest.fail("these tests need mono's mcs and Mono.Cecil in its GAC", pytrace=False)
    tmp = tmp_path_factory.mktemp("closure")
    xml = ("System.Xml.dll", "System.Drawing.dll", "System.Configuration.dll")
    dlls = {name: compile_calc_with(tmp, f"c{n}", render(code), xml) for n, (name, code, _) in enumerate(CASES)}
    dlls["own body"] = compile_calc_with(tmp, "own", render(CASES[0][1], "private System.Xml.XmlDocument doc;\n"), xml)
    return build_checker(tmp), compile_calc_with(tmp, "base", render("{ return xml; }"), xml), dlls


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_the_closure_opens_the_data_the_port_handles_and_no_capability(compiled, case):
    name, _, denied = case
    for verdict in both_checkers(compiled, RENDER, name):
        assert {d.api for d in verdict.denials} == denied, (name, verdict.log())


@pytest.mark.slow
def test_the_candidates_own_baseline_body_opens_no_closure(compiled):
    exe, _, dlls = compiled
    own = dlls["own body"]              # the port's only use of DocumentElement is in Render itself
    for verdict in both_checkers((exe, own, dlls), RENDER, "own body"):
        assert {d.api for d in verdict.denials} == {"System.Xml.XmlDocument.get_DocumentElement",
                                                    "System.Xml.XmlElement"}, verdict.log()


@pytest.mark.slow
def test_the_closure_holds_only_types_no_rule_names(compiled):
    _, base, _ = compiled
    refs = port_refs(Checker(base))
    assert {"System.Xml.XmlElement", "System.Xml.XmlLinkedNode", "System.Xml.XmlNode", "System.Xml.XmlNodeList"} <= set(
        refs.closure)
    named = {"System.Xml.XmlDocument", "System.Threading.Thread", "System.Type", "System.Console",
             "System.Xml.Schema.IXmlSchemaInfo", "System.Xml.XmlWriter", "System.MarshalByRefObject",
             "System.ComponentModel.TypeConverter", "System.Drawing.Image", "System.Configuration.Configuration"}
    assert not named & set(refs.closure)


def test_the_framework_is_read_through_its_forwarders_and_a_type_not_read_has_no_bases_nor_members(compiled):
    fw = Framework()
    found = fw.find(("netstandard", "System.Xml.XmlNode"))         # a facade's forwarder, followed
    assert found is not None and found[1] == "System.Xml"
    assert fw.base(("netstandard", "System.Xml.XmlElement")) == ("System.Xml", "System.Xml.XmlLinkedNode")
    _, base, _ = compiled
    blind = port_refs(Checker(base), Framework(dirs=()))     # no framework read: only the types the port's members name
    assert set(blind.closure) == {"System.Xml.XmlElement"}     # DocumentElement's type
