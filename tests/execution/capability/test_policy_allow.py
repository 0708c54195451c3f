"""Allowances from the Java original, computed from the types it touches in a real index of the
policy_reach fixture (tests/fixtures/policy_reach/java): one method per way a capability is reached,
and the methods beside them that reach nothing, though their class holds a File."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from repotrans.execution.capability import checks
from repotrans.execution.capability.il_job import check_assembly
from repotrans.execution.capability.allowances import allowances
from repotrans.index.store import Index
from tests.support.solutions import write_tree
from tests.support.cecil import build_checker, cecil_verdicts

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "policy_reach"
FS = frozenset({"file_system"})
NONE = frozenset()
CASES = [
    ("Store.exists", FS),                 # its own signature
    ("DiskStore.open", FS),               # its own body (a local)
    ("DiskStore.toString", FS),           # a field of its class
    ("DiskStore.names", FS),              # a field of its superclass
    ("Writer.seek", FS),                  # a field of its (inner) class
    ("Writer.owner", FS),                 # a field of the enclosing class
    ("DiskStore.count", FS),              # a local's type whose method it calls takes a File
    ("DiskStore.lock", FS),               # a constructor it calls takes a File
    ("DiskStore.where", FS),              # a method it calls returns a File
    ("DiskStore.DiskStore", FS),          # a chained constructor (and its own signature)
    ("Store.size", NONE),                 # a plain field
    ("Store.describe", NONE),             # its class holds a File it does not touch
    ("DiskStore.label", NONE),            # "File" only inside a string literal
    ("Writer.plain", NONE),
    ("Shell.exitCode", frozenset({"process"})),
    ("Shell.say", frozenset({"console"})),
    ("Shell.make", frozenset({"reflection"})),
    ("Shell.twice", NONE),
    ("Creators.Creators", frozenset({"reflection"})),     # imported reflection types in its signature
    ("Creators.recordClass", frozenset({"reflection"})),  # a field whose type is an imported reflection type
    ("Creators.factoryName", frozenset({"reflection"})),  # a field whose type a wildcard import brings
    ("Creators.size", NONE),
    ("Creators.version", NONE),                           # its C# port reads its own assembly's version
]


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    idx = Index.open(tmp_path_factory.mktemp("reach"))
    idx.build(FIXTURE / "java", FIXTURE / "csharp", progress=False)
    return idx


@pytest.mark.parametrize("query, expected", CASES, ids=[q for q, _ in CASES])
def test_a_capability_is_allowed_exactly_when_the_java_method_reaches_it(index, query, expected):
    [java] = index.find_methods("source", query)
    assert allowances(index, java) & frozenset(checks.GRANTS) == expected


@pytest.mark.parametrize("query, expected", [("DiskStore.toString", {"formatting"}), ("Writer.seek", {"formatting"}),
                                             ("Store.size", set()), ("Shell.say", set())])
def test_an_override_is_allowed_when_the_java_class_or_its_outer_class_defines_it(index, query, expected):
    """DiskStore defines toString (Writer is nested in it); Store and Shell define none of equals, hashCode,
    compareTo, toString or iterator."""
    [java] = index.find_methods("source", query)
    assert allowances(index, java) & frozenset(checks.DECLARES) == expected


def test_no_java_original_allows_nothing(index):
    assert allowances(index, None) == frozenset()


# the C# port of each fixture method (tests/fixtures/policy_reach/csharp/Store.cs)
PORTS = {"Store.exists": "Store.Exists", "DiskStore.open": "DiskStore.Open", "DiskStore.toString": "DiskStore.ToString",
         "DiskStore.names": "DiskStore.Names", "Writer.seek": "Writer.Seek", "Writer.owner": "Writer.Owner",
         "DiskStore.count": "DiskStore.Count", "DiskStore.lock": "DiskStore.MakeLock",
         "DiskStore.where": "DiskStore.Where", "DiskStore.DiskStore": "DiskStore.DiskStore",
         "Store.size": "Store.Size", "Store.describe": "Store.Describe", "DiskStore.label": "DiskStore.Label",
         "Writer.plain": "Writer.Plain", "Shell.exitCode": "Shell.ExitCode", "Shell.say": "Shell.Say",
         "Shell.make": "Shell.Make", "Shell.twice": "Shell.Twice", "Creators.Creators": "Creators.Creators",
         "Creators.recordClass": "Creators.RecordClass", "Creators.factoryName": "Creators.FactoryName",
         "Creators.size": "Creators.Size", "Creators.version": "Creators.Version"}


# Class.forName(n).newInstance(): its port reflects on a type named by a string, beyond the narrowed allowance
BY_NAME = {"Shell.Make"}


@pytest.mark.slow
@pytest.mark.skipif(not (shutil.which("mcs") and shutil.which("mono") and Path(checks.CECIL).is_file()),
                    reason="mcs, mono and Mono.Cecil are required")
def test_the_csharp_ports_pass_the_il_checker_with_the_allowances_of_their_java(index, tmp_path):
    """Real mcs, the real Cecil checker: each C# port passes with what its Java original reaches, and the
    ports of methods reaching a capability are rejected without it (the fixture does exercise the checker)."""
    dll = tmp_path / "Store.dll"
    subprocess.run(["mcs", "-target:library", f"-out:{dll}", str(FIXTURE / "csharp" / "Store.cs")], check=True,
                   capture_output=True)
    exe = build_checker(tmp_path)

    cases = [(PORTS[q], expected, *index.find_methods("source", q)) for q, expected in CASES]
    jobs, bare = [], []
    for cs_query, _, java in cases:
        [target] = [m for m in index.find_methods("target", cs_query) if m.kind != "property"]
        ref = checks.MemberRef.of(target)
        jobs.append(checks.job_line(str(dll), None, ref, allowances(index, java)))
        bare.append(checks.job_line(str(dll), None, ref, frozenset()))
    verdicts = cecil_verdicts(exe, jobs + bare)
    allowed, unallowed = verdicts[:len(jobs)], verdicts[len(jobs):]
    for (cs_query, expected, java), with_allow, without in zip(cases, allowed, unallowed):
        if cs_query in BY_NAME:             # the allowance reaches the class itself, not a type named by a string
            assert {d.capability for d in with_allow.denials} == {"reflection_scope"}, with_allow.log()
            assert {d.capability for d in check_assembly(dll, None, checks.MemberRef.of(
                [m for m in index.find_methods("target", cs_query) if m.kind != "property"][0]),
                allowances(index, java)).denials} == {"reflection_scope"}, cs_query
            continue
        assert with_allow.ok, f"{cs_query}: {with_allow.reason()}"
        needs_it = bool(expected)      # Console.WriteLine too: no refs here, so only a Java original that prints grants it
        assert without.ok == (not needs_it), f"{cs_query}: {without.reason() if not without.ok else 'passed'}"
        # the dotnet path's pure-Python checker reads the same rules the same way
        [target] = [m for m in index.find_methods("target", cs_query) if m.kind != "property"]
        ref = checks.MemberRef.of(target)
        assert check_assembly(dll, None, ref, allowances(index, java)).ok, cs_query
        assert check_assembly(dll, None, ref, frozenset()).ok == (not needs_it), cs_query


def test_a_namesake_in_another_package_lends_no_capability(tmp_path):
    """A base bound as Java binds it (Index.supertypes): `implements Iterator<String>` under
    `import java.util.Iterator` is not the project's org.acme.files.Iterator, whose next() returns a
    File; a subclass of that project type in its own package does reach the File."""
    write_tree(tmp_path / "java", {
        "org/acme/files/Iterator.java": ("package org.acme.files;\nimport java.io.File;\n"
                                         "public class Iterator { public File next() { return null; } }\n"),
        "org/acme/files/Walker.java": ("package org.acme.files;\n"
                                       "public class Walker extends Iterator { String first() { return next().getName(); } }\n"),
        "org/acme/words/Words.java": ("package org.acme.words;\nimport java.util.Iterator;\n"
                                      "public abstract class Words implements Iterator<String> {\n"
                                      "  String first() { return next(); }\n}\n"),
    })
    write_tree(tmp_path / "cs", {"Words.cs": "namespace Acme.Words { public class Words { } }\n"})
    idx = Index.open(tmp_path / "wd")
    idx.build(tmp_path / "java", tmp_path / "cs", progress=False)
    [words] = idx.find_methods("source", "org.acme.words.Words.first")
    [walker] = idx.find_methods("source", "org.acme.files.Walker.first")
    assert allowances(idx, words) & frozenset(checks.GRANTS) == NONE
    assert allowances(idx, walker) & frozenset(checks.GRANTS) == FS
    idx.close()
