"""`batch --create-missing`: skeletons for missing types and placeholder members for the Java methods
a matched C# type lacks, on tests/fixtures/skeleton_pair with Cage's `IsEmpty` and `Put` taken out
of the port (real tree-sitter, real mcs); the dry run lists both, bad globs are one-line errors."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from repotrans.mapping.load import load_mapping
from repotrans.cli import main
from repotrans.runs.batch_plan import plan_batch
from repotrans.skeleton.missing import create_missing
from tests.support.skeleton_pair import FIXTURE, copy_pair, index_pair

needs_mcs = pytest.mark.skipif(shutil.which("mcs") is None, reason="mcs not installed")
CUT = """        public bool IsEmpty
        {
            get { return occupant == null; }
        }

        public void Put(Animal animal)
        {
            occupant = animal;
        }
"""


@pytest.fixture
def port(tmp_path) -> tuple[Path, Path]:
    """The fixture's Java side, and its SDK-style port without Cage.IsEmpty/Put (CRLF, with a BOM)."""
    java, cs = copy_pair(tmp_path)
    cage = cs / "src" / "Demo.Zoo" / "Cage.cs"
    text = cage.read_text(encoding="utf-8")
    assert CUT in text
    cage.write_bytes(b"\xef\xbb\xbf" + text.replace(CUT, "").replace("\n", "\r\n").encode("utf-8"))
    return java, cs


def test_dry_run_lists_missing_types_and_members_and_writes_nothing(port, tmp_path, capsys):
    java, cs = port
    before = sorted(p.relative_to(cs).as_posix() for p in cs.rglob("*.cs"))
    rc = main(["batch", "--source", str(java), "--target", str(cs), "--dry-run", "--create-missing", "org.demo.*",
               "--workdir", str(tmp_path / "ws")])
    out = capsys.readouterr().out
    assert rc == 0
    assert "create-missing: would create 7 missing type(s) in 7 file(s) and 2 missing member(s)" in out
    assert "    src/Demo.Zoo/Care/Vet.cs  (Demo.Zoo.Care: Vet)" in out
    assert "    Demo.Zoo.Cage <- Cage.isEmpty()\n    Demo.Zoo.Cage <- Cage.put(Animal)" in out
    assert sorted(p.relative_to(cs).as_posix() for p in cs.rglob("*.cs")) == before


def test_dry_run_names_the_junit_tests_of_the_created_types(port, tmp_path, capsys):
    java, cs = port
    rc = main(["batch", "--source", str(java), "--target", str(cs), "--dry-run", "--create-missing", "org.demo.*",
               "--junit", str(FIXTURE / "junit"), "--workdir", str(tmp_path / "ws")])
    out = capsys.readouterr().out
    assert rc == 0 and ("translate-tests: would translate 3 JUnit class(es) of the created types\n"
                        "  org.demo.zoo.BoxTest\n  org.demo.zoo.SizeTest\n  org.demo.zoo.care.VetTest\n") in out
    rc = main(["batch", "--source", str(java), "--target", str(cs), "--dry-run", "--junit", str(FIXTURE / "junit"),
               "--workdir", str(tmp_path / "ws")])
    out = capsys.readouterr()                   # --junit alone says where the tests are; no placeholder: no task
    assert rc == 1 and "translate-tests" not in out.out and "repotrans: error: no tasks: " in out.err
    rc = main(["batch", "--source", str(java), "--target", str(cs), "--dry-run", "--junit", str(tmp_path / "none"),
               "--workdir", str(tmp_path / "ws")])
    assert rc == 2 and "--junit: " in capsys.readouterr().err


@pytest.mark.parametrize("pattern, message", [
    ("org/demo/*", "--create-missing 'org/demo/*': a glob over Java qualified names with dots"),
    ("org.demo.zo.*", "--create-missing 'org.demo.zo.*' matches no Java type of the source "
                      "(names are qualified: package.Type) (did you mean: org.demo.zoo.*"),
    ("", "--create-missing: empty pattern"),
])
def test_bad_globs_are_one_line_errors(port, tmp_path, capsys, pattern, message):
    java, cs = port
    rc = main(["batch", "--source", str(java), "--target", str(cs), "--dry-run", "--create-missing", pattern,
               "--workdir", str(tmp_path / "ws")])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and message in err and "\n" not in err, err


@needs_mcs
def test_created_types_and_members_join_the_batch(port, tmp_path):
    java, cs = port
    index = index_pair(tmp_path, java, cs)
    created = create_missing(index, ["org.demo.zoo.Cage", "org.demo.zoo.Size"])
    assert created.compiled and created.members.compiled
    assert [f.path for f in created.types.plan.files] == ["src/Demo.Zoo/Size.cs"]
    assert [(a.cs_type, list(a.members)) for a in created.members.additions] == [
        ("Demo.Zoo.Cage", ["Cage.isEmpty()", "Cage.put(Animal)"])]
    raw = (cs / "src" / "Demo.Zoo" / "Cage.cs").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\n" not in raw.replace(b"\r\n", b"")    # BOM and CRLF kept
    text = raw.decode("utf-8-sig").replace("\r\n", "\n")
    assert ("        public void Put(Animal animal)\n        {\n            throw new NotImplementedException();\n"
            "        }\n    }\n}") in text
    plan = plan_batch(index, load_mapping(index))
    ids = {t.target_method_id.split(":", 1)[1] for t in plan.tasks}
    assert {"Demo.Zoo.Cage.Put(Animal)", "Demo.Zoo.Size.HeavierThan(Size)", "Demo.Zoo.Size.Weight"} <= ids
    assert "Demo.Zoo.Cage" not in plan.missing_members
    again = create_missing(index, ["org.demo.zoo.Cage"])           # nothing is missing any more
    assert again.members.count() == 0 and not again.types.plan.files
