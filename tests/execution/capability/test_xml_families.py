"""C# API families allowed by the Java original's family (rules.tsv `family` and the XML grants): a translation
whose Java original's file uses org.w3c.dom may use System.Xml's DOM, one using javax.xml.transform XSLT, one using
javax.xml.validation schemas. What in those families reaches files, the network or run-time code stays denied by
both checkers with the same denials, whatever the families allowed: script blocks, document(), extension objects,
stylesheets by URI, the old XslTransform, a precompiled stylesheet, schemas by URI, and any resolver value but a
literal null (handed to the framework, to the candidate's own helper, or stored in a field). The family comes from
the Java original's file (its imports) or text, and for an abstract method from its implementations'."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from repotrans.execution.capability import checks
from repotrans.execution.capability.allowances import allowances
from repotrans.execution.capability.checks import MemberRef
from repotrans.index.store import Index
from tests.support.cecil import ADD, both_checkers, build_checker, compile_calc_with
from tests.support.solutions import write_tree

RENDER = MemberRef("Acme.Calc.Calculator", ("Render",), 1, ("String",))
X, XSL, XS = "System.Xml.", "System.Xml.Xsl.", "System.Xml.Schema."
READER = X + "XmlReader.Create(new System.IO.StringReader(xml))"
FAMILIES = frozenset({"xml_dom", "xml_xpath", "xml_transform", "xml_schema"})
# every allowance but the two the denials below name as their capability when nothing else does
EVERYTHING = frozenset(checks.ALLOWABLE) - {"network", "file_system"}


def render(body: str, extra: str = "") -> str:
    return ADD + "public string Render(string xml)\n" + body + "\n" + extra


def transform(load: str, extra: str = "") -> str:
    """Render as an XSLT of `xml`, the stylesheet loaded by `load` (a statement on `t`)."""
    return render("{ var t = new " + XSL + "XslCompiledTransform();\n  " + load + "\n  var w = new System.IO.StringWriter();\n"
                  "  t.Transform(" + X + "XmlReader.Create(new System.IO.StringReader(\"<a/>\")), null, w);\n"
                  "  return w.ToString(); }", extra)


# (name, code, the families its Java original uses)
OWN = [
    ("a DOM walk", render("{ var d = new " + X + "XmlDocument(); d.LoadXml(xml);\n"
                          "  return d.DocumentElement.Name + d.DocumentElement.ChildNodes.Count; }"), {"xml_dom"}),
    ("LINQ to XML", render("{ return System.Xml.Linq.XDocument.Parse(xml).Root.Name.LocalName; }"), {"xml_dom"}),
    ("an XPath query", render("{ var d = new " + X + "XmlDocument(); d.LoadXml(xml);\n"
                              "  return d.CreateNavigator().Evaluate(\"count(//*)\").ToString(); }"), {"xml_dom", "xml_xpath"}),
    ("XSLT with the default settings and no resolver", transform("t.Load(" + READER + ", new " + XSL + "XsltSettings(), null);"),
     {"xml_dom", "xml_transform"}),
    ("XSLT with parameters", transform("var a = new " + XSL + "XsltArgumentList(); a.AddParam(\"p\", \"\", xml);\n"
                                       "  t.Load(" + READER + ");"), {"xml_dom", "xml_transform"}),
    ("a schema set with no resolver", render("{ var set = new " + XS + "XmlSchemaSet(); set.XmlResolver = null;\n"
                                             "  set.Add(" + XS + "XmlSchema.Read(new System.IO.StringReader(xml), null));\n"
                                             "  set.Compile(); return \"\" + set.Count; }"), {"xml_dom", "xml_schema"}),
    ("a resolver's type in its own helper's signature, handed null", render(
        "{ return Parse(xml, null); }",
        "private static string Parse(string x, " + X + "XmlResolver r) { var d = new " + X + "XmlDocument();\n"
        "  d.XmlResolver = null; d.LoadXml(x); return d.OuterXml; }"), {"xml_dom"}),
]
RESOLVER = "private " + X + "XmlResolver resolver;"
FOREIGN = [
    ("script blocks by the settings' constructor", transform("t.Load(" + READER + ", new " + XSL + "XsltSettings(true, true), null);"),
     "codegen"),
    ("script blocks switched on", transform("var s = new " + XSL + "XsltSettings(); s.EnableScript = true;\n"
                                            "  t.Load(" + READER + ", s, null);"), "codegen"),
    ("document() switched on", transform("var s = new " + XSL + "XsltSettings(); s.EnableDocumentFunction = true;\n"
                                         "  t.Load(" + READER + ", s, null);"), "codegen"),
    ("the trusted settings", transform("t.Load(" + READER + ", " + XSL + "XsltSettings.TrustedXslt, null);"), "codegen"),
    ("an extension object the stylesheet calls", transform("var a = new " + XSL + "XsltArgumentList();\n"
                                                           "  a.AddExtensionObject(\"urn:x\", this); t.Load(" + READER + ");"),
     "codegen"),
    ("a precompiled stylesheet", transform("t.Load(typeof(Calculator));"), "codegen"),
    ("the old XslTransform", render("{ var t = new " + XSL + "XslTransform(); t.Load(" + READER + ");\n"
                                    "  return t.ToString(); }"), "codegen"),
    ("a stylesheet by URI", transform("t.Load(\"file:///tmp/expected.xsl\");"), "file_system"),
    ("a resolver from a field", transform("t.Load(" + READER + ", new " + XSL + "XsltSettings(), resolver);", RESOLVER),
     "network"),
    ("a resolver's own members", render("{ return resolver.ResolveUri(null, xml).ToString(); }", RESOLVER), "network"),
    ("a resolver handed to a document", render("{ var d = new " + X + "XmlDocument(); d.XmlResolver = resolver;\n"
                                               "  d.LoadXml(xml); return d.OuterXml; }", RESOLVER), "network"),
    ("a resolver handed to its own helper", render("{ return Parse(xml, resolver); }", RESOLVER +
                                                   "\nprivate static string Parse(string x, " + X + "XmlResolver r) {"
                                                   " return x; }"), "network"),
    ("a resolver stored for the port's code", render("{ kept = resolver; return xml; }",
                                                     RESOLVER + "\nprivate static " + X + "XmlResolver kept;"), "network"),
    ("a URL resolver", render("{ var d = new " + X + "XmlDocument(); d.XmlResolver = new " + X + "XmlUrlResolver();\n"
                              "  d.LoadXml(xml); return d.OuterXml; }"), "network"),
    ("a schema by URI", render("{ var set = new " + XS + "XmlSchemaSet(); set.XmlResolver = null;\n"
                               "  set.Add(\"\", \"file:///tmp/expected.xsd\"); return \"\" + set.Count; }"), "network"),
    ("a document by path", render("{ var d = new " + X + "XmlDocument(); d.Load(\"expected.xml\"); return d.OuterXml; }"),
     "file_system"),
]


def compile_render(folder: Path, name: str, code: str) -> Path:
    """Acme.Calc compiled by mcs with Calculator.Add replaced by `code`, System.Xml and System.Xml.Linq referenced."""
    return compile_calc_with(folder, name, code, ("System.Xml.dll", "System.Xml.Linq.dll"))


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    if shutil.which("mcs") is None or not Path(checks.CECIL).is_file():
        pytest.fail("these tests need mono's mcs and Mono.Cecil in its GAC", pytrace=False)
    tmp = tmp_path_factory.mktemp("xml")
    cases = [(n, c) for n, c, _ in OWN] + [(n, c) for n, c, _ in FOREIGN]
    return (build_checker(tmp), compile_render(tmp, "base", render("{ return xml; }")),
            {name: compile_render(tmp, f"x{n}", code) for n, (name, code) in enumerate(cases)})


@pytest.mark.slow
@pytest.mark.parametrize("case", OWN, ids=[c[0] for c in OWN])
def test_a_family_the_java_original_uses_is_open(compiled, case):
    name, _, families = case
    for verdict in both_checkers(compiled, RENDER, name, frozenset(families)):
        assert verdict.ok, (name, verdict.log())
    for verdict in both_checkers(compiled, RENDER, name, frozenset()):         # the Java original uses no XML: not on the allowlist
        assert "unlisted" in {d.capability for d in verdict.denials}, (name, verdict.log())


@pytest.mark.slow
def test_a_family_opens_only_its_own_namespace(compiled):
    for verdict in both_checkers(compiled, RENDER, "XSLT with the default settings and no resolver", frozenset({"xml_dom"})):
        assert {d.api for d in verdict.denials if d.capability == "unlisted"} >= {"System.Xml.Xsl.XslCompiledTransform"}


@pytest.mark.slow
@pytest.mark.parametrize("case", FOREIGN, ids=[c[0] for c in FOREIGN])
def test_what_reaches_files_network_or_run_time_code_stays_denied(compiled, case):
    name, _, capability = case
    for verdict in both_checkers(compiled, RENDER, name, FAMILIES | EVERYTHING):
        assert capability in {d.capability for d in verdict.denials}, (name, verdict.log())


def test_the_java_families_are_read_from_imports_and_text():
    pattern = checks.JAVA_FAMILIES
    assert pattern["xml_dom"].search("org.w3c.dom.Node") and pattern["xml_dom"].search("javax.xml.transform.Source")
    assert not pattern["xml_transform"].search("javax.xml.transform.Source javax.xml.transform.dom.DOMSource")
    assert pattern["xml_transform"].search("javax.xml.transform.TransformerFactory")
    assert pattern["xml_transform"].search("javax.xml.transform.*")
    assert pattern["xml_schema"].search("javax.xml.validation.SchemaFactory")
    assert set(checks.FAMILIES) <= set(checks.CAPABILITIES) and {"xml_transform", "xml_schema"} <= set(checks.GRANTS)


JAVA = {
    "x/Doc.java": "package x;\nimport org.w3c.dom.Node;\npublic class Doc {\n  public int size() { return 0; }\n"
                  "  public String name(Node n) { return n.getNodeName(); }\n}\n",
    "x/Plain.java": "package x;\npublic class Plain {\n  public int size() { return 0; }\n}\n",
    "x/Sourced.java": "package x;\nimport javax.xml.transform.Source;\npublic class Sourced {\n"
                      "  public Source source;\n  public int size() { return 1; }\n}\n",
    "x/Styled.java": "package x;\nimport javax.xml.transform.TransformerFactory;\npublic class Styled {\n"
                     "  public void clear() { }\n}\n",
    "x/Checker.java": "package x;\npublic abstract class Checker {\n  public abstract boolean check(Object o);\n}\n",
    "x/SchemaChecker.java": "package x;\nimport javax.xml.validation.SchemaFactory;\n"
                            "public class SchemaChecker extends Checker {\n"
                            "  public boolean check(Object o) { return SchemaFactory.class != null; }\n}\n",
}
FAMILY_CASES = [("Doc.size", {"xml_dom"}), ("Doc.name", {"xml_dom"}), ("Plain.size", set()),
                ("Sourced.size", {"xml_dom"}), ("Styled.clear", {"xml_dom", "xml_transform"}),
                ("Checker.check", {"xml_schema"})]


@pytest.fixture(scope="module")
def family_index(tmp_path_factory):
    root = tmp_path_factory.mktemp("families")
    write_tree(root / "java", JAVA)
    write_tree(root / "cs", {"X.cs": "namespace X { public class Doc { public int Size() { return 0; } } }\n"})
    idx = Index.open(root / "index")
    idx.build(root / "java", root / "cs", progress=False)
    yield idx
    idx.close()


@pytest.mark.parametrize("query, expected", FAMILY_CASES, ids=[q for q, _ in FAMILY_CASES])
def test_a_family_comes_from_the_java_originals_file_or_its_implementations(family_index, query, expected):
    [java] = family_index.find_methods("source", query)
    assert allowances(family_index, java) & frozenset(checks.FAMILIES) == expected
