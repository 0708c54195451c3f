"""Library tables (jdk_map.toml [libraries]): a library a Java project bundles whose counterpart ships with
.NET (pinyin4j's sparta DOM with XPath -> System.Xml, as Pinyin4j.Net reads it) joins the JDK table for a
file that imports from its package, and only then (jsoup's own Element is no XmlElement)."""
from __future__ import annotations

import pytest

from repotrans.index.model import Import
from repotrans.translator.java2cs import translate_method
from repotrans.translator.resolver import ConventionResolver
from repotrans.translator.steps import library_imports
from tests.support.policy_harness import compile_cs, needs_toolchains, run

JAVA = """static String convert(Document doc, String tag, String pinyin, String target) {
    String result = null;
    try {
      Element node = doc.xpathSelectElement("//" + tag + "[text()='" + pinyin + "']");
      if (null != node) {
        result = node.xpathSelectString("../" + target + "/text()");
      }
    } catch (ParseException e) {
      e.printStackTrace();
    }
    return result;
  }"""

SPARTA = "com.hp.hpl.sparta"


def _resolver(libraries: frozenset[str]) -> ConventionResolver:
    resolver = ConventionResolver()
    resolver.libraries = libraries
    return resolver


def test_a_file_importing_the_library_is_read_by_its_table():
    assert library_imports([Import("import com.hp.hpl.sparta.Element;", "com.hp.hpl.sparta.Element"),
                            Import("import java.util.List;", "java.util.List")]) == frozenset({SPARTA})
    assert library_imports([Import("import com.hp.hpl.sparta.*;", "com.hp.hpl.sparta", wildcard=True)]) \
        == frozenset({SPARTA})
    code = translate_method(JAVA, _resolver(frozenset({SPARTA})))
    assert "System.Xml.XmlElement node = (System.Xml.XmlElement)doc.SelectSingleNode(" in code, code
    assert 'result = node.SelectSingleNode("../" + target + "/text()")?.InnerText;' in code, code
    assert "catch (System.Xml.XmlException e)" in code, code


def test_a_file_that_does_not_import_it_keeps_its_own_types():
    code = translate_method(JAVA, _resolver(frozenset()))
    assert "Xml" not in code and "Element node = doc.XpathSelectElement(" in code, code


@needs_toolchains
@pytest.mark.slow
def test_the_translation_selects_what_sparta_selects(tmp_path):
    """sparta's xpathSelectElement is the first element the path selects (null when none), xpathSelectString
    the text of the first node it selects; the same on a two-row mapping table."""
    code = translate_method(JAVA, _resolver(frozenset({SPARTA})))
    program = """using System;
using System.Xml;

public static class Prog
{
    %s

    public static void Main()
    {
        var doc = new XmlDocument();
        doc.LoadXml("<table><item><hanyu>zhong</hanyu><wade>chung</wade></item>"
                    + "<item><hanyu>guo</hanyu><wade>kuo</wade></item></table>");
        Console.WriteLine(Convert(doc, "hanyu", "guo", "wade") ?? "null");
        Console.WriteLine(Convert(doc, "hanyu", "xyz", "wade") ?? "null");
    }
}
""" % code.replace("static string Convert(XmlDocument", "static string Convert(System.Xml.XmlDocument")
    compiled = compile_cs(program, tmp_path)
    assert compiled.returncode == 0, compiled.stdout + "\n" + program
    ran = run(["mono", "Prog.exe"], tmp_path)
    assert ran.stdout.split() == ["kuo", "null"], ran.stdout + ran.stderr
