"""--write and --patch splice passing members into the port as it is now (issue 35): never a file copied,
a member the user changed since is skipped and named, written code takes the file's indentation and line
endings, and the patch is the same change as a diff `git apply` takes."""
from __future__ import annotations

import hashlib
import shutil
import subprocess

import pytest

from repotrans.runs.batch_end import WriteRequest, write_passing, write_refusal
from repotrans.runs.store import TaskRecord
from repotrans.runs.write_back import indented, original_texts, patch_text, plan_write, render, write_plan
from repotrans.index.store import Index

FILE = """using System;

namespace Acme
{
    public class Calc
    {
        public int Twice(int x)
        {
            throw new NotImplementedException();
        }

        public int Half(int x)
        {
            throw new NotImplementedException();
        }

        public int Keep(int x) { return x; }
    }
}
"""
TWICE, HALF = "Acme.Calc.Twice(int)", "Acme.Calc.Half(int)"
TWICE_CODE = "public int Twice(int x)\n{\n    return x * 2;\n}"
HALF_CODE = "public int Half(int x)\n{\n    return x / 2;\n}"


@pytest.fixture()
def port(tmp_path):
    (tmp_path / "java").mkdir()
    (tmp_path / "java" / "Calc.java").write_text("class Calc { int twice(int x) { return x * 2; } }")
    (tmp_path / "cs").mkdir()
    (tmp_path / "cs" / "Calc.cs").write_text(FILE)
    index = Index.open(tmp_path / "wd")
    index.build(tmp_path / "java", tmp_path / "cs", progress=False)
    originals = original_texts(index, [TWICE, HALF])
    index.close()
    return tmp_path / "cs", originals


def _rec(task, status="passed", code=None):
    return TaskRecord(config="batch", dataset="d", task_id=task, status=status, code=code)


def test_only_passing_members_are_spliced_with_the_files_indentation(port):
    target, originals = port
    plan = plan_write(target, originals, [_rec(TWICE, code=TWICE_CODE), _rec(HALF, "blocked", HALF_CODE)])
    assert write_plan(target, plan) == ["Calc.cs"]
    text = (target / "Calc.cs").read_text()
    assert "        public int Twice(int x)\n        {\n            return x * 2;\n        }\n" in text
    assert "x / 2" not in text and text.count("throw new NotImplementedException();") == 1
    assert plan.skipped == [(HALF, "its verdict is blocked, not passed")]
    saved = plan.to_json()["files"]["Calc.cs"]
    assert saved["members"] == [TWICE]
    assert saved["sha256"] == hashlib.sha256((target / "Calc.cs").read_bytes()).hexdigest()


def test_a_member_the_user_changed_since_is_skipped_and_named_and_the_rest_written(port):
    target, originals = port
    mine = FILE.replace("public int Half(int x)\n        {\n            throw new NotImplementedException();",
                        "public int Half(int x)\n        {\n            return x >> 1; // mine")
    (target / "Calc.cs").write_text(mine)
    plan = plan_write(target, originals, [_rec(TWICE, code=TWICE_CODE), _rec(HALF, code=HALF_CODE)])
    write_plan(target, plan)
    text = (target / "Calc.cs").read_text()
    assert "return x >> 1; // mine" in text and "return x * 2;" in text
    assert plan.skipped == [(HALF, "changed in Calc.cs since the batch read it; left as it is")]


def test_crlf_files_stay_crlf(port):
    target, originals = port
    (target / "Calc.cs").write_bytes(FILE.replace("\n", "\r\n").encode())
    write_plan(target, plan_write(target, originals, [_rec(TWICE, code=TWICE_CODE)]))
    data = (target / "Calc.cs").read_bytes()
    assert b"            return x * 2;\r\n" in data and data.count(b"\n") == data.count(b"\r\n")


def test_a_file_with_mixed_line_endings_keeps_every_line_it_does_not_splice(port):
    """BCrypt.Net's BCrypt.cs mixes CRLF and LF lines: writing 5 members rewrote all 793 lines as LF."""
    target, originals = port
    head, rest = FILE.split("    public class Calc", 1)
    mixed = head.replace("\n", "\r\n") + "    public class Calc" + rest
    (target / "Calc.cs").write_bytes(mixed.encode())
    plan = plan_write(target, originals, [_rec(TWICE, code=TWICE_CODE)])
    write_plan(target, plan)
    after = (target / "Calc.cs").read_bytes().decode()
    assert after.startswith(head.replace("\n", "\r\n")) and "return x * 2;" in after
    changed = [l for l in patch_text(plan).splitlines() if l[:1] in "+-" and l[:3] not in ("+++", "---")]
    assert changed == ["-            throw new NotImplementedException();", "+            return x * 2;"]


def test_the_patch_is_the_same_change_and_git_applies_it(port, tmp_path):
    target, originals = port
    copy = tmp_path / "copy"
    shutil.copytree(target, copy)
    plan = plan_write(target, originals, [_rec(TWICE, code=TWICE_CODE), _rec(HALF, code=HALF_CODE)])
    (tmp_path / "change.patch").write_text(patch_text(plan))
    assert (target / "Calc.cs").read_text() == FILE                 # planning touches nothing
    write_plan(target, plan)
    subprocess.run(["git", "init", "-q", str(copy)], check=True)
    subprocess.run(["git", "-C", str(copy), "apply", str(tmp_path / "change.patch")], check=True)
    assert (copy / "Calc.cs").read_text() == (target / "Calc.cs").read_text()


def test_indentation_keeps_usings_flush_and_verbatim_strings_untouched():
    assert indented("using System.Text;\npublic int F()\n{\n    return 1;\n}", "    ") == \
        "using System.Text;\npublic int F()\n    {\n        return 1;\n    }"
    code = 'public string F()\n{\n    return @"a\n  b";\n}'
    assert indented(code, "        ") == code


def test_nothing_is_written_when_the_whole_suite_does_not_clear_it_unless_anyway(port):
    target, originals = port
    recs = [_rec(TWICE, code=TWICE_CODE)]
    timed_out = {"status": "timeout", "tests_run": 3}
    assert write_refusal(timed_out) == "the whole-suite check timed out"
    out = write_passing(target, originals, recs, timed_out, WriteRequest(write=True), stopped="")
    assert out.refused and (target / "Calc.cs").read_text() == FILE
    elsewhere = {"status": "test_failure", "tests_failed": 2, "in_untranslated": 1, "elsewhere_count": 1}
    assert write_refusal(elsewhere) == "1 whole-suite failure(s) are not in untranslated members"
    assert write_refusal({"status": "blocked", "tests_failed": 4, "in_untranslated": 4}) == ""
    assert write_refusal({"status": "test_failure", "tests_failed": 2, "in_untranslated": 2,
                          "elsewhere_count": 0}) == ""
    out = write_passing(target, originals, recs, timed_out, WriteRequest(write=True, anyway=True), stopped="x")
    assert out.members == [TWICE] and "return x * 2;" in (target / "Calc.cs").read_text()
    assert "so far (the batch stopped early)" in out.lines[0] and "despite: the whole-suite check timed out" in out.lines[0]


def test_members_and_types_a_candidate_brings_along_are_listed_apart(port):
    target, originals = port
    code = ("public int Twice(int x)\n{\n    return Doubler.Of(x);\n}\n\n"
            "private static class Doubler\n{\n    public static int Of(int x) { return x * 2; }\n}")
    plan = plan_write(target, originals, [_rec(TWICE, code=code)])
    write_plan(target, plan)
    saved = plan.to_json()["files"]["Calc.cs"]
    assert saved["members"] == [TWICE]
    assert saved["created"] == ["Acme.Calc.Doubler", "Acme.Calc.Doubler.Of(int)"]
    assert "    created (no task; came with the candidates above): Acme.Calc.Doubler" in render(plan)
    plain = plan_write(target, originals, [_rec(HALF, code=HALF_CODE)])
    assert plain.to_json()["files"]["Calc.cs"]["created"] == []


def test_written_members_take_the_files_indent_unit_and_brace_style(tmp_path):
    """NSoup's tab-indented StringUtil.cs and ZXing.Net's three-space files: the builtin's four-space
    Allman candidate is written in the file's own layout."""
    (tmp_path / "java").mkdir()
    (tmp_path / "java" / "Calc.java").write_text("class Calc { int twice(int x) { return x * 2; } }")
    (tmp_path / "cs").mkdir()
    tabbed = FILE.replace("    ", "\t").replace("\tpublic int Keep(int x) { return x; }",
                                                 "\tpublic int Keep(int x) {\n\t\t\treturn x;\n\t\t}")
    (tmp_path / "cs" / "Calc.cs").write_text(tabbed)
    index = Index.open(tmp_path / "wd")
    index.build(tmp_path / "java", tmp_path / "cs", progress=False)
    originals = original_texts(index, [TWICE])
    index.close()
    code = "public int Twice(int x)\n{\n    if (x > 9)\n    {\n        return x;\n    }\n    return x * 2;\n}"
    assert write_plan(tmp_path / "cs", plan_write(tmp_path / "cs", originals, [_rec(TWICE, code=code)])) == ["Calc.cs"]
    assert "\t\tpublic int Twice(int x)\n\t\t{\n\t\t\tif (x > 9)\n\t\t\t{\n\t\t\t\treturn x;\n\t\t\t}\n" \
           "\t\t\treturn x * 2;\n\t\t}\n" in (tmp_path / "cs" / "Calc.cs").read_text()
