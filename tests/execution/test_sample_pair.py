"""The sample pair in datasets/sample: the Java side compiles with javac, the C# port builds with mcs
(C# 6) and its NUnit suite passes under nunit-console, and both sides have the promised shape and size."""
from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import subprocess
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import tree_sitter as ts
import tree_sitter_c_sharp
import tree_sitter_java

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"
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


def _mcs_library(csproj: Path, sources: list[Path], out: Path, cwd: Path, strict: bool = True) -> None:
    """Build the library as its csproj says; strict turns warnings into errors (not for mutants)."""
    defines, resources = _csproj_build_items(csproj)
    _run(["mcs", "-target:library", "-langversion:6", *(["-warnaserror+"] if strict else []), *defines,
          *resources, f"-out:{out}", *map(str, sources)], cwd=cwd)


def _mcs_tests(lib_dll: Path, out: Path) -> list[Path]:
    sources = _sources(TESTS_ROOT, ".cs")
    _run(["mcs", "-target:library", "-langversion:6", "-warnaserror+", f"-r:{NUNIT_FRAMEWORK}", f"-r:{lib_dll}",
          f"-out:{out}", *map(str, sources)], cwd=out.parent)
    shutil.copy(NUNIT_FRAMEWORK, out.parent)
    return sources


def _nunit(tests_dll: Path, timeout: float = 300.0) -> ET.Element | None:
    """Run nunit-console (3 GB address-space cap); the result XML root, or None on crash or timeout.
    nunit-console 2.6 sometimes never exits after writing complete results (its remoting channel):
    complete results are taken, and the process killed, 2 s after they appear."""
    result_xml = tests_dll.parent / "result.xml"
    result_xml.unlink(missing_ok=True)
    cap = 3 << 30
    proc = subprocess.Popen(["nunit-console", str(tests_dll), "-nologo", f"-xml={result_xml}"],
                            cwd=tests_dll.parent, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True,
                            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (cap, cap)))
    deadline, complete_at = time.monotonic() + timeout, None
    while proc.poll() is None and time.monotonic() < deadline:
        if complete_at is None and _complete(result_xml):
            complete_at = time.monotonic()
        if complete_at is not None and time.monotonic() - complete_at > 2.0:
            break
        time.sleep(0.1)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    return ET.parse(result_xml).getroot() if _complete(result_xml) else None


def _complete(result_xml: Path) -> bool:
    try:
        return result_xml.read_text(errors="replace").rstrip().endswith("</test-results>")
    except OSError:
        return False


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
    lib_dll, tests_dll = tmp_path / "Acme.Geo.dll", tmp_path / "Acme.Geo.Tests.dll"
    _mcs_library(LIB_CSPROJ, _sources(LIB_CSPROJ.parent, ".cs"), lib_dll, tmp_path)
    test_sources = _mcs_tests(lib_dll, tests_dll)
    root = _nunit(tests_dll)
    assert root is not None, "nunit-console crashed or timed out"
    failed = [c.get("name") for c in root.iter("test-case") if c.get("success") == "False"]
    assert failed == []
    assert int(root.get("failures")) == 0 and int(root.get("errors")) == 0 and int(root.get("not-run")) == 0

    # every [Test] and every [TestCase(...)] in the sources ran
    text = "\n".join(p.read_text() for p in test_sources)
    declared = len(re.findall(r"\[Test\]", text)) + len(re.findall(r"\[TestCase\(", text))
    assert int(root.get("total")) == declared > 0


# --- test strength: one mutant per member body ----------------------------------------------------------

def _mutants(path: Path) -> list[tuple[str, int, int, str]]:
    """(label, start byte, end byte, replacement) for each member body with code: methods and constructors
    get `return default(T);` or an empty body, property and indexer getters `return default(T);`."""
    found = []
    for node in _walk(_parse("csharp", path).root_node):
        label = f"{path.name}:{node.start_point[0] + 1}"
        if node.type in ("method_declaration", "constructor_declaration"):
            body, returns = node.child_by_field_name("body"), node.child_by_field_name("returns")
            if body is not None and body.type == "block" and body.named_child_count:
                void = returns is None or returns.text == b"void"
                stub = "{ }" if void else "{ return default(%s); }" % returns.text.decode()
                found.append((f"{label} {_name(node)}", body.start_byte, body.end_byte, stub))
        elif node.type in ("property_declaration", "indexer_declaration"):
            name = _name(node) if node.type == "property_declaration" else "this[]"
            stub = "{ return default(%s); }" % node.child_by_field_name("type").text.decode()
            for accessor in node.child_by_field_name("accessors").named_children:
                blocks = [c for c in accessor.named_children if c.type == "block"]
                if blocks:
                    found.append((f"{label} {name}", blocks[0].start_byte, blocks[0].end_byte, stub))
    return found


@pytest.mark.slow
@needs_mono
@pytest.mark.skipif(os.environ.get("REPOTRANS_MUTATION") != "1",
                    reason="opt-in, about 15 minutes: REPOTRANS_MUTATION=1")
def test_every_library_member_body_is_checked_by_a_test(tmp_path):
    """Stub each member body in turn; some test must fail, crash or time out on every such mutant."""
    lib_root = LIB_CSPROJ.parent
    sources = _sources(lib_root, ".cs")
    base = tmp_path / "base"
    base.mkdir()
    _mcs_library(LIB_CSPROJ, sources, base / "Acme.Geo.dll", base)
    _mcs_tests(base / "Acme.Geo.dll", base / "Acme.Geo.Tests.dll")
    survivors, count = [], 0
    for path in sources:
        original = path.read_bytes()
        for label, start, end, stub in _mutants(path):
            count += 1
            work = tmp_path / f"m{count}"
            shutil.copytree(base, work, ignore=shutil.ignore_patterns("Acme.Geo.dll", "result.xml"))
            mutated = []
            for source in sources:
                copy = work / "src" / source.relative_to(lib_root)
                copy.parent.mkdir(parents=True, exist_ok=True)
                copy.write_bytes(original[:start] + stub.encode() + original[end:] if source == path
                                 else source.read_bytes())
                mutated.append(copy)
            _mcs_library(LIB_CSPROJ, mutated, work / "Acme.Geo.dll", work, strict=False)
            root = _nunit(work / "Acme.Geo.Tests.dll", timeout=60.0)
            if root is not None and int(root.get("failures")) + int(root.get("errors")) == 0:
                survivors.append(label)
            shutil.rmtree(work)
    assert count >= 150 and survivors == [], (count, survivors)
