"""The sample pair in datasets/sample: the Java side compiles with javac, the C# port builds with mcs
(C# 6) and its NUnit suite passes under nunit-console, and both sides have the promised shape and size."""
from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import tree_sitter as ts
import tree_sitter_c_sharp
import tree_sitter_java

SAMPLE = Path(__file__).resolve().parents[1] / "datasets" / "sample"
JAVA_ROOT = SAMPLE / "java"
LIB_CSPROJ = SAMPLE / "csharp" / "src" / "Acme.Geo" / "Acme.Geo.csproj"
TESTS_ROOT = SAMPLE / "csharp" / "tests" / "Acme.Geo.Tests"
NUNIT_FRAMEWORK = Path("/usr/lib/cli/nunit.framework-2.6.3/nunit.framework.dll")

NAMESPACE_MAP = {"org.acme.geometry": "Acme.Geo", "org.acme.geometry.shapes": "Acme.Geo.Shapes",
                 "org.acme.geometry.units": "Acme.Geo.Measure", "org.acme.util": "Acme.Common"}
TYPE_NODES = {"class_declaration", "interface_declaration", "enum_declaration"}
# Library members a test exercises without naming them: foreach calls GetEnumerator.
IMPLICITLY_USED = {"GetEnumerator"}

needs_java = pytest.mark.skipif(shutil.which("javac") is None, reason="javac is not installed")
needs_mono = pytest.mark.skipif(
    shutil.which("mcs") is None or shutil.which("nunit-console") is None or not NUNIT_FRAMEWORK.exists(),
    reason="mono-devel / nunit-console are not installed")


# --- helpers ----------------------------------------------------------------------------------------

def _run(cmd: list[str], cwd: Path, timeout: float = 300.0) -> str:
    """Run a command; fail the test with its output when it exits non-zero."""
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"{cmd[0]} exited {proc.returncode}:\n{output[-4000:]}"
    return output


def _sources(root: Path, suffix: str) -> list[Path]:
    return sorted(p for p in root.rglob(f"*{suffix}") if not {"bin", "obj"} & set(p.parts))


def _csproj_build_items(csproj: Path) -> tuple[list[str], list[str]]:
    """mcs -define: and -resource: options for what the SDK-style csproj declares."""
    root = ET.parse(csproj).getroot()
    defines = [d.strip() for e in root.iter("DefineConstants") for d in (e.text or "").split(";")
               if d.strip() and not d.strip().startswith("$(")]
    resources = []
    for item in root.iter("EmbeddedResource"):
        path = csproj.parent / item.get("Include")
        logical = item.findtext("LogicalName") or item.get("LogicalName")
        assert path.is_file() and logical, f"EmbeddedResource {item.get('Include')} needs a file and a LogicalName"
        resources.append(f"-resource:{path},{logical}")
    return [f"-define:{d}" for d in defines], resources


def _parse(lang: str, path: Path) -> ts.Tree:
    module = tree_sitter_java if lang == "java" else tree_sitter_c_sharp
    return ts.Parser(ts.Language(module.language())).parse(path.read_bytes())


def _walk(node: ts.Node):
    yield node
    for child in node.named_children:
        yield from _walk(child)


def _declarations(lang: str, root: Path) -> dict[str, list[ts.Node]]:
    """Declaration nodes of every source file under root, grouped by node type."""
    found: dict[str, list[ts.Node]] = {}
    for path in _sources(root, ".java" if lang == "java" else ".cs"):
        tree = _parse(lang, path)
        assert not tree.root_node.has_error, f"{path} does not parse"
        for node in _walk(tree.root_node):
            found.setdefault(node.type, []).append(node)
    return found


def _name(node: ts.Node) -> str:
    return node.child_by_field_name("name").text.decode()


# --- fast structural checks ---------------------------------------------------------------------------

def test_both_sides_have_at_least_8_types_and_60_methods():
    java = _declarations("java", JAVA_ROOT / "src" / "main" / "java")
    cs = _declarations("csharp", LIB_CSPROJ.parent)
    java_types = sum(len(java.get(t, [])) for t in TYPE_NODES)
    cs_types = sum(len(cs.get(t, [])) for t in TYPE_NODES)
    assert java_types >= 8 and cs_types >= 8, (java_types, cs_types)
    assert len(java["method_declaration"]) >= 60, len(java["method_declaration"])
    assert len(cs["method_declaration"]) >= 60, len(cs["method_declaration"])
    # the port turned getters into properties and get(int) into an indexer
    assert len(cs["property_declaration"]) >= 20 and len(cs["indexer_declaration"]) == 1


def test_packages_map_to_the_documented_namespaces():
    packages = {n.named_children[0].text.decode()
                for n in _declarations("java", JAVA_ROOT)["package_declaration"]}
    namespaces = {_name(n) for n in _declarations("csharp", LIB_CSPROJ.parent)["namespace_declaration"]}
    assert packages == set(NAMESPACE_MAP)
    assert namespaces == set(NAMESPACE_MAP.values())


def test_every_library_member_is_named_by_a_test():
    lib = _declarations("csharp", LIB_CSPROJ.parent)
    members = {_name(n) for kind in ("method_declaration", "property_declaration") for n in lib.get(kind, [])}
    members |= {_name(n) for kind in TYPE_NODES for n in lib[kind]}       # constructors: via the type name
    tests = _declarations("csharp", TESTS_ROOT)
    used = {n.text.decode() for n in tests["identifier"]}
    assert sorted(members - used - IMPLICITLY_USED) == []
    assert "element_access_expression" in tests                             # the indexer is used too


def _attributes(node: ts.Node) -> set[str]:
    return {_name(a) if a.child_by_field_name("name") else a.named_children[0].text.decode()
            for lst in node.named_children if lst.type == "attribute_list" for a in lst.named_children}


def test_test_fixtures_follow_the_naming_rules():
    tests = _declarations("csharp", TESTS_ROOT)
    namespaces = {_name(n) for n in tests["namespace_declaration"]}
    assert namespaces and all(ns == "Acme.Geo.Tests" or ns.startswith("Acme.Geo.Tests.") for ns in namespaces)
    top_level = [n for n in tests["class_declaration"] if n.parent.parent.type == "namespace_declaration"]
    assert len(top_level) >= 15
    for cls in top_level:
        assert _name(cls).endswith("Tests") and "TestFixture" in _attributes(cls), _name(cls)


# --- real builds --------------------------------------------------------------------------------------

@pytest.mark.slow
@needs_java
def test_java_side_compiles_with_javac_release_17(tmp_path):
    sources = [str(p) for p in _sources(JAVA_ROOT, ".java")]
    _run(["javac", "--release", "17", "-Xlint:all", "-Werror", "-d", str(tmp_path), *sources], cwd=JAVA_ROOT)
    assert (tmp_path / "org" / "acme" / "geometry" / "shapes" / "Polygon$Builder.class").is_file()


@pytest.mark.slow
@needs_mono
def test_csharp_port_builds_with_mcs_and_its_nunit_suite_passes(tmp_path):
    defines, resources = _csproj_build_items(LIB_CSPROJ)
    lib_dll, tests_dll = tmp_path / "Acme.Geo.dll", tmp_path / "Acme.Geo.Tests.dll"
    lib_sources = [str(p) for p in _sources(LIB_CSPROJ.parent, ".cs")]
    test_sources = [str(p) for p in _sources(TESTS_ROOT, ".cs")]
    _run(["mcs", "-target:library", "-langversion:6", "-warnaserror+", *defines, *resources,
          f"-out:{lib_dll}", *lib_sources], cwd=tmp_path)
    _run(["mcs", "-target:library", "-langversion:6", "-warnaserror+", f"-r:{NUNIT_FRAMEWORK}", f"-r:{lib_dll}",
          f"-out:{tests_dll}", *test_sources], cwd=tmp_path)
    shutil.copy(NUNIT_FRAMEWORK, tmp_path)
    result_xml = tmp_path / "result.xml"
    subprocess.run(["nunit-console", str(tests_dll), "-nologo", f"-xml={result_xml}"], cwd=tmp_path,
                   capture_output=True, text=True, timeout=300)
    assert result_xml.is_file(), "nunit-console wrote no result file"
    root = ET.parse(result_xml).getroot()
    failed = [c.get("name") for c in root.iter("test-case") if c.get("success") == "False"]
    assert failed == []
    assert int(root.get("failures")) == 0 and int(root.get("errors")) == 0 and int(root.get("not-run")) == 0

    # every [Test] and every [TestCase(...)] in the sources ran
    text = "\n".join(Path(p).read_text() for p in test_sources)
    declared = len(re.findall(r"\[Test\]", text)) + len(re.findall(r"\[TestCase\(", text))
    assert int(root.get("total")) == declared > 0
