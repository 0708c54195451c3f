"""A Java original that runs XSLT (javax.xml.transform) lets its translation run XSLT, not code: a wrong body that
gets the right output and on the way turns on what reaches run-time code, files or the network (script blocks,
document(), the trusted settings, an extension object the stylesheet calls, the old XslTransform, a resolver it
did not get as null, a stylesheet by URI) is rejected under both sandboxes, and the right body right after, in
the same warm sandbox, is passed with reduced trust (xml_transform).

The port (mcs, the runner, NUnit 2.6): Styler.Apply(xslt, xml) is the task; its tests transform small documents
and check the text out.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from repotrans.index.store import Index
from tests.support.mono_repos import only_method, port_fixture

STYLER = """using System;
using System.IO;
using System.Xml;
using System.Xml.Xsl;

namespace Acme
{
    public class Styler
    {
        private XmlResolver resolver;

        public string Apply(string xslt, string xml)
        {
            throw new NotImplementedException();
        }
    }
}
"""
SHEET = ("<xsl:stylesheet version='1.0' xmlns:xsl='http://www.w3.org/1999/XSL/Transform'><xsl:output method='text'/>"
         "<xsl:template match='/'>[<xsl:value-of select='/a/@v'/>]</xsl:template></xsl:stylesheet>")
TESTS = """using NUnit.Framework;

namespace Acme.Tests
{
    [TestFixture]
    public class StylerTests
    {
        const string Sheet = "%s";
        [Test] public void TakesTheAttribute() { Assert.AreEqual("[1]", new Styler().Apply(Sheet, "<a v='1'/>")); }
        [Test] public void TakesAnother() { Assert.AreEqual("[two]", new Styler().Apply(Sheet, "<a v='two'/>")); }
    }
}
""" % SHEET.replace('"', '\\"')
JAVA = ("{\n    javax.xml.transform.Transformer t = javax.xml.transform.TransformerFactory.newInstance()\n"
        "        .newTransformer(new javax.xml.transform.stream.StreamSource(new java.io.StringReader(xslt)));\n"
        "    java.io.StringWriter w = new java.io.StringWriter();\n"
        "    t.transform(new javax.xml.transform.stream.StreamSource(new java.io.StringReader(xml)),\n"
        "                new javax.xml.transform.stream.StreamResult(w));\n    return w.toString();\n}")


def body(load: str, args: str = "null") -> str:
    """A body transforming `xml` by `xslt`, the stylesheet loaded by `load` (statements on `t`)."""
    return ("{\n    var t = new XslCompiledTransform();\n    " + load + "\n    var w = new StringWriter();\n"
            "    t.Transform(XmlReader.Create(new StringReader(xml)), " + args + ", w);\n    return w.ToString();\n}")


SHEET_READER = "XmlReader.Create(new StringReader(xslt))"
RIGHT = body(f"t.Load({SHEET_READER});")
# (form, wrong body, what the rejection names): each gives the tests' output
WRONG = [
    ("script blocks on by the settings' constructor", body(f"t.Load({SHEET_READER}, new XsltSettings(true, true), null);"),
     "compiled or generated at run time"),
    ("document() switched on", body("var s = new XsltSettings();\n    s.EnableDocumentFunction = true;\n"
                                    f"    t.Load({SHEET_READER}, s, null);"), "compiled or generated at run time"),
    ("the trusted settings", body(f"t.Load({SHEET_READER}, XsltSettings.TrustedXslt, null);"),
     "compiled or generated at run time"),
    ("an extension object the stylesheet may call", body(
        "var a = new XsltArgumentList();\n    a.AddExtensionObject(\"urn:acme\", this);\n"
        f"    t.Load({SHEET_READER});", "a"), "compiled or generated at run time"),
    ("the old XslTransform", "{\n    var t = new XslTransform();\n    t.Load(XmlReader.Create(new StringReader(xslt)));\n"
                             "    var w = new StringWriter();\n"
                             "    t.Transform(new System.Xml.XPath.XPathDocument(new StringReader(xml)), null, w);\n"
                             "    return w.ToString();\n}", "compiled or generated at run time"),
    ("a resolver it holds, not null", body(f"t.Load({SHEET_READER}, new XsltSettings(), resolver);"),
     "network and URI clients"),
    ("a stylesheet by URI", body("t.Load(\"file://\" + Path.GetTempPath() + \"acme.xsl\");"), "System.Xml.Xsl"),
]


env = port_fixture("xml", {"Styler.cs": STYLER}, {"StylerTests.cs": TESTS})


def task(index: Index):
    return only_method(index, "Styler.Apply")


def test_the_right_body_runs_xslt_with_reduced_trust(env):
    index, runners = env
    method = task(index)
    result = runners.run(index, method, RIGHT, java=replace(method, body=JAVA))
    assert result.status == "passed", result.brief()
    assert result.trust.startswith("trust: reduced (xml_transform"), result.trust


@pytest.mark.parametrize("attack", WRONG, ids=[a[0] for a in WRONG])
def test_a_wrong_body_turning_xslt_toward_code_files_or_the_network_is_rejected(env, attack):
    name, code, named = attack
    index, runners = env
    method = task(index)
    java = replace(method, body=JAVA)
    result = runners.run(index, method, code, java=java)
    assert result.status == "rejected" and named in result.reason, (name, result.brief())
    again = runners.run(index, method, RIGHT, java=java)       # the right body right after, in the same sandbox
    assert again.status == "passed", (name, again.brief())
