"""`translate --function JAVA_SIG --target-member CS_SIG`: the user names both sides, whatever the mapping says."""
from __future__ import annotations

from pathlib import Path

import pytest

from repotrans.errors import InputError
from repotrans.mapping.load import load_mapping
from repotrans.index.store import Index
from repotrans.mapping.task import TranslationTask, resolve_pair, resolve_task

JAVA = """package org.x;
public class Foo {
    public int bar(Thing a, Thing b) { return a.size() + b.size(); }
    public int bar(Thing a) { return a.size(); }
}
"""
CS = """namespace X
{
    public class Foo
    {
        public int Combine(Thing a, Thing b) { throw new System.NotImplementedException(); }
        public int Size { get; set; }
        public abstract int Count();
    }
}
"""


@pytest.fixture()
def index(tmp_path) -> Index:
    (tmp_path / "java" / "org" / "x").mkdir(parents=True)
    (tmp_path / "java" / "org" / "x" / "Foo.java").write_text(JAVA)
    (tmp_path / "cs").mkdir()
    (tmp_path / "cs" / "Foo.cs").write_text(CS)
    index = Index.open(tmp_path / "ws")
    index.build(tmp_path / "java", tmp_path / "cs", progress=False)
    return index


def test_a_renamed_member_is_resolved_directly(index):
    with pytest.raises(InputError, match="has no C# counterpart"):
        resolve_task(index, load_mapping(index), "org.x.Foo.bar(Thing, Thing)")
    assert resolve_pair(index, "org.x.Foo.bar(Thing, Thing)", "Foo.Combine(Thing, Thing)") == TranslationTask(
        target_method_id="target:X.Foo.Combine(Thing, Thing)", source_method_id="source:org.x.Foo.bar(Thing, Thing)")
    assert resolve_pair(index, "source:org.x.Foo.bar(Thing)", "target:X.Foo.Combine").source_method_id == \
        "source:org.x.Foo.bar(Thing)"


@pytest.mark.parametrize("java, member, message", [
    ("org.x.Foo.bar", "Foo.Combine", "'org.x.Foo.bar' matches 2 Java methods"),
    ("org.x.Foo.baz(Thing)", "Foo.Combine", "no Java method matches 'org.x.Foo.baz(Thing)'"),
    ("org.x.Foo.bar(Thing)", "Foo.GetBaz", "no C# member matches 'Foo.GetBaz'"),
    ("org.x.Foo.bar(Thing)", "Foo.Size", "has no body to translate"),
    ("org.x.Foo.bar(Thing)", "Foo.Count()", "has no body to translate"),
])
def test_either_side_wrong_is_a_one_line_error(index, java, member, message):
    with pytest.raises(InputError) as err:
        resolve_pair(index, java, member)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_cli_reports_a_wrong_target_member_in_one_line(index, tmp_path, capsys):
    from repotrans.cli import main

    rc = main(["translate", "--function", "org.x.Foo.bar(Thing, Thing)", "--target-member", "Foo.Bar(Thing, Thing)",
               "--model", "builtin", "--workdir", str(tmp_path / "ws")])
    err = capsys.readouterr().err
    assert rc == 2 and err.startswith("repotrans: error: no C# member matches 'Foo.Bar(Thing, Thing)'")
    assert "Combine" in err


@pytest.mark.slow
def test_translate_into_a_renamed_member_with_the_builtin_policy(tmp_path, capsys, monkeypatch):
    """The port renamed StringUtils.repeat to Times: the mapping cannot know, the user says so."""
    from repotrans.cli import main
    from tests.support.sample_masking import masked_sample

    java, cs = masked_sample(tmp_path / "pair", "Acme.Common.StringUtils.Repeat(string, int)")
    for path in (cs / "src/Acme.Geo/Common/StringUtils.cs", cs / "tests/Acme.Geo.Tests/Common/StringUtilsTests.cs"):
        path.write_text(path.read_text().replace("string Repeat(", "string Times(").replace(".Repeat(", ".Times("))
    monkeypatch.chdir(tmp_path)
    argv = ["translate", "--source", str(java), "--target", str(cs), "--function",
            "org.acme.util.StringUtils.repeat(String, int)", "--model", "builtin", "--no-rag",
            "--run-dir", str(tmp_path / "run"), "--workdir", str(tmp_path / "ws")]
    assert main(argv) == 2
    assert "has no C# counterpart" in capsys.readouterr().err
    assert main(argv + ["--target-member", "StringUtils.Times(string, int)"]) == 0
    out = capsys.readouterr().out
    assert "public static string Times(string text, int times)" in out
    assert "test outcome: passed (" in out and "covering test(s)" in out
