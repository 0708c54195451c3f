"""sync --write and --patch go through batch --write's member splicer: an edited member is spliced into the
user's file as it is now (other user changes in the file survive), a member the user changed since the
sync read it is skipped and named, and a file of a structural step is taken whole only when the user left
it alone."""
from __future__ import annotations

import subprocess
from pathlib import Path

from repotrans.sync.files import file_digests
from repotrans.sync.write import edit_records, sync_write
from repotrans.index.parse import parse_file

CALC = ("namespace Acme\n{\n    public static class Calc\n    {\n"
        "        public static int Add(int a, int b)\n        {\n            return a + b;\n        }\n\n"
        "        public static int Neg(int a)\n        {\n            return -a;\n        }\n    }\n}\n")
ADD = "public static int Add(int a, int b)\n{\n    return checked(a + b);\n}"
NEG = "public static int Neg(int a)\n{\n    return checked(-a);\n}"


def _member_text(text: str, name: str) -> str:
    m = next(m for m in parse_file("target", "Calc.cs", text.encode(), "").methods if m.name == name)
    return text.encode()[m.start_byte:m.end_byte].decode()


def _setup(tmp_path: Path) -> tuple[Path, Path, dict, dict]:
    user, work = tmp_path / "user", tmp_path / "work"
    for root in (user, work):
        (root / "src").mkdir(parents=True)
        (root / "src/Calc.cs").write_text(CALC)
        (root / "src/Other.cs").write_text("namespace Acme { class Other { } }\n")
    originals = {f"Acme.Calc.{n}(int{', int' if n == 'Add' else ''})": {"path": "src/Calc.cs",
                                                                        "text": _member_text(CALC, n)}
                 for n in ("Add", "Neg")}
    text = CALC.replace("return a + b;", "return checked(a + b);").replace("return -a;", "return checked(-a);")
    (work / "src/Calc.cs").write_text(text)
    (work / "src/Other.cs").write_text("namespace Acme { class Other { int x; } }\n")     # a structural step
    return user, work, originals, {"src/Calc.cs": CALC}


def test_edits_are_spliced_into_the_file_as_it_is_now_and_a_user_changed_member_is_skipped(tmp_path):
    user, work, originals, start = _setup(tmp_path)
    digests = file_digests(user)
    edits = edit_records([("target:Acme.Calc.Add(int, int)", ADD), ("target:Acme.Calc.Neg(int)", NEG)])
    # the user, meanwhile: a comment on top of the file and their own Neg
    (user / "src/Calc.cs").write_text("// mine\n" + CALC.replace("return -a;", "return 0 - a;"))
    out = sync_write(user, work, digests, originals, start, edits, write=True)
    now = (user / "src/Calc.cs").read_text()
    assert now.startswith("// mine\n") and "return checked(a + b);" in now and "return 0 - a;" in now
    assert out.spliced == ["Acme.Calc.Add(int, int)"]
    assert "changed in src/Calc.cs since the batch read it" in out.refused["Acme.Calc.Neg(int)"]
    assert out.whole == ["src/Other.cs"] and "int x;" in (user / "src/Other.cs").read_text()
    assert out.written == ["src/Calc.cs", "src/Other.cs"]


def test_a_structural_file_the_user_changed_is_named_and_the_patch_applies(tmp_path):
    user, work, originals, start = _setup(tmp_path)
    digests = file_digests(user)
    edits = edit_records([("target:Acme.Calc.Add(int, int)", ADD), ("target:Acme.Calc.Neg(int)", NEG)])
    patch = sync_write(user, work, digests, originals, start, edits, write=False).patch
    assert [line for line in patch.splitlines() if line.startswith("diff --git")] == [
        "diff --git a/src/Calc.cs b/src/Calc.cs", "diff --git a/src/Other.cs b/src/Other.cs"]
    subprocess.run(["git", "init", "-q"], cwd=user, check=True)
    done = subprocess.run(["git", "apply", "--check", "-"], cwd=user, input=patch, text=True, capture_output=True)
    assert done.returncode == 0, done.stderr
    (user / "src/Other.cs").write_text("// the user's\n")
    out = sync_write(user, work, digests, originals, start, edits, write=True)
    assert out.refused == {"src/Other.cs": "changed in the port since the sync read it; apply RUN/changes.patch "
                                           "by hand"}
    assert (user / "src/Other.cs").read_text() == "// the user's\n"


def test_an_edit_cut_from_a_crlf_file_patches_only_the_lines_it_changed(tmp_path):
    """A sync edit is the member as cut from its file (first line at the member's start, the others at the
    file's depth, CRLF): its patch changes the one edited line (was: every line of the member, indented
    twice)."""
    crlf = CALC.replace("\n", "\r\n")
    user, work = tmp_path / "user", tmp_path / "work"
    for root, text in ((user, crlf), (work, crlf.replace("return a + b;", "return checked(a + b);"))):
        (root / "src").mkdir(parents=True)
        (root / "src/Calc.cs").write_bytes(text.encode())
    original = _member_text(crlf, "Add")
    originals = {"Acme.Calc.Add(int, int)": {"path": "src/Calc.cs", "text": original.replace("\r\n", "\n")}}
    edit = original.replace("return a + b;", "return checked(a + b);")
    out = sync_write(user, work, file_digests(user), originals, {"src/Calc.cs": crlf},
                     edit_records([("target:Acme.Calc.Add(int, int)", edit)]), write=False)
    changed = [line for line in out.patch.split("\n") if line and line[:1] in "+-" and line[:3] not in ("+++", "---")]
    assert changed == ["-            return a + b;\r", "+            return checked(a + b);\r"]
