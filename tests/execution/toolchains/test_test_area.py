"""Real suites write beside themselves (fixture written for this test, compiled by mcs and run by
repotrans's NUnit runner for real): a SetUp creates folders under its assembly's folder and under the
current directory, a test reads a data folder by its path relative to the build's output folder
(bin/Debug/net48 -> ../../../Data), and a test checks that nothing an earlier run wrote is there. Two
candidates in a row, in each sandbox: both pass, the baseline stays as sealed, and nothing of the test
area is left behind."""
from __future__ import annotations


import pytest

from repotrans.execution.toolchains.test_area import AREA
from repotrans.execution.workspace.scratch import sealed
from tests.support.mono_repos import judging, needs_mono, nunit_tests_of_core, sdk_project, write_tree

FILES = {
    "src/Core/Core.csproj": sdk_project(),
    "src/Core/Codec.cs": "namespace Acme { public static class Codec { public static int Twice(int x) { return 2 * x; } } }",
    "tests/T/T.csproj": nunit_tests_of_core(),
    "tests/T/Data/input.txt": "21",
    "tests/T/ScratchTests.cs": """using System.IO;
using NUnit.Framework;
namespace Acme.Tests {
  [TestFixture] public class ScratchTests {
    static string Here { get { return Path.GetDirectoryName(typeof(ScratchTests).Assembly.Location); } }
    [SetUp] public void MakeScratch() {
      Assert.IsFalse(File.Exists(Path.Combine(Here, "scratch-repo", "left-over.txt")), "an earlier run's file is here");
      Directory.CreateDirectory(Path.Combine(Here, "scratch-repo", ".git", "objects"));
      File.WriteAllText(Path.Combine(Here, "scratch-repo", "left-over.txt"), "x");
      Directory.CreateDirectory(Path.Combine(Directory.GetCurrentDirectory(), "golden-out"));
      File.WriteAllText(Path.Combine("golden-out", "result.txt"), "42");
    }
    [TearDown] public void Clean() { Directory.Delete(Path.Combine(Here, "scratch-repo"), true); }
    [Test] public void TwiceFromTheDataFile() {
      string data = Path.Combine(Here, "..", "..", "..", "Data", "input.txt");
      Assert.AreEqual(42, Codec.Twice(int.Parse(File.ReadAllText(data).Trim())));
    }
    [Test] public void WritesBesideItself() {
      Assert.AreEqual("42", File.ReadAllText(Path.Combine(Here, "golden-out", "result.txt")));
      Assert.IsTrue(File.Exists(Path.Combine(Here, "T.dll")));
    }
  }
  [TestFixture] public class FreshAreaTests {
    static string Here { get { return Path.GetDirectoryName(typeof(FreshAreaTests).Assembly.Location); } }
    [Test] public void NothingOfAnEarlierRun() {
      Assert.IsFalse(File.Exists(Path.Combine(Here, "marker.txt")), "an earlier run's marker is here");
      File.WriteAllText(Path.Combine(Here, "marker.txt"), "written by one run");
    }
  }
}""",
}


@pytest.mark.parametrize("sandbox", [pytest.param("local", marks=pytest.mark.slow),
                                     pytest.param("docker", marks=pytest.mark.docker)])
def test_each_run_gets_a_private_writable_area_laid_out_as_the_build(tmp_path, sandbox):
    needs_mono()
    with judging(write_tree(tmp_path / "repo", FILES), tmp_path / "work", sandbox=sandbox) as judge:
        ws, verdicts = judge.workspace, []
        for _ in range(2):
            with ws.run_dir() as run_dir:
                verdicts.append(judge.run("src/Core/Codec.cs", judge.original("src/Core/Codec.cs"), run_dir=run_dir))
                assert not (run_dir / AREA).exists(), "the test area outlived its run"
    for verdict in verdicts:
        assert (verdict.status, verdict.tests_run) == ("passed", 3), (verdict.reason, verdict.failures,
                                                                      verdict.log[-3000:])
    assert sealed(ws), "a test run changed the sealed baseline"
    assert not list(ws.base.rglob("marker.txt")) and not list(ws.src.rglob("golden-out"))


def test_the_area_links_what_it_need_not_copy_and_goes_away(tmp_path):
    import os
    from repotrans.execution.toolchains.msbuild import load_project
    from repotrans.execution.toolchains.test_area import COPY_LIMIT, test_area

    write_tree(tmp_path / "src", FILES)
    project = load_project(tmp_path / "src/tests/T/T.csproj", tmp_path / "src")
    base = tmp_path / "base"
    (base / "Data").mkdir(parents=True)
    (base / "T.dll").write_bytes(b"MZ")
    (base / "Data" / "small.txt").write_text("21")
    (base / "Data" / "big.bin").write_bytes(b"\0" * (COPY_LIMIT + 1))
    items = {p.name: p for p in base.iterdir()}
    with test_area(tmp_path / "src", tmp_path / "run", project, items) as folder:
        assert folder == tmp_path / "run" / AREA / "T" / "tests" / "T" / "bin" / "Debug" / "net48"
        assert (folder / ".." / ".." / ".." / "Data" / "input.txt").read_text() == "21"   # as the build lays it out
        linked = os.geteuid() == 0
        assert os.path.samefile(folder / "T.dll", base / "T.dll") == linked
        assert os.path.samefile(folder / "Data" / "big.bin", base / "Data" / "big.bin") == linked
        assert not os.path.samefile(folder / "Data" / "small.txt", base / "Data" / "small.txt")
    assert not (tmp_path / "run" / AREA).exists()
