"""Settings travel as values to every node of a real two-node Ray cluster: a batch whose tasks can only
pass with the user's mapping overrides (the port renamed a helper, and the naming rules pick a wrong
one) and with a local NuGet folder (--packages: the library references a package found nowhere
else) passes on both nodes, and each task's config.json, written on its node, carries both.

The pair is the bundled sample with four placeholders added (StringUtils.Echo*, each calling the
Java helper `shout`, which the port calls `Exclaim`; its `Shout` does something else), their NUnit
tests, and a PackageReference the library needs to compile.
"""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from repotrans.agents.config import with_concrete_sandbox
from repotrans.cli import build_parser
from repotrans.cli.options import load_settings
from repotrans.execution.toolchains.projects import plan_build
from repotrans.runs.batch import run_batch
from repotrans.runs.ray_executor import RayExecutor
from repotrans.runs.tasks import task_dir_name
from repotrans.index.store import Index
from repotrans.mapping.load import load_mapping
from tests.runs.test_batch import _table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from ray_cluster import LocalCluster  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"
pytestmark = pytest.mark.slow

JAVA_ADDED = """
    public static String echo(String text) {
        return shout(text);
    }

    public static String echoTwice(String text) {
        return shout(shout(text));
    }

    public static String echoPair(String text) {
        return shout(text) + shout(text);
    }

    public static String echoKept(String text) {
        String loud = shout(text);
        return loud;
    }

    static String shout(String text) {
        return text + "!";
    }
}
"""
CS_ADDED = """
        public static string Echo(string text) { throw new NotImplementedException(); }

        public static string EchoTwice(string text) { throw new NotImplementedException(); }

        public static string EchoPair(string text) { throw new NotImplementedException(); }

        public static string EchoKept(string text) { throw new NotImplementedException(); }

        internal static string Shout(string text) { return text + "?"; }

        internal static string Exclaim(string text) { return text + "!"; }
    }
}
"""
CS_TESTS = """using Acme.Common;
using NUnit.Framework;

namespace Acme.Geo.Tests.Common
{
    [TestFixture]
    public class EchoTests
    {
        [Test] public void EchoAddsOneMark() { Assert.AreEqual("hi!", StringUtils.Echo("hi")); }
        [Test] public void EchoTwiceAddsTwo() { Assert.AreEqual("hi!!", StringUtils.EchoTwice("hi")); }
        [Test] public void EchoPairRepeats() { Assert.AreEqual("hi!hi!", StringUtils.EchoPair("hi")); }
        [Test] public void EchoKeptAddsOne() { Assert.AreEqual("hi!", StringUtils.EchoKept("hi")); }
    }
}
"""
USES_PACKAGE = """namespace Acme.Common
{
    internal static class ExtraUse
    {
        internal static string Mark() { return Acme.Extra.Marker.Text; }
    }
}
"""
OVERRIDES = '[mapping.methods]\n"org.acme.util.StringUtils.shout(String)" = "Acme.Common.StringUtils.Exclaim(string)"\n'
TASKS = ["Acme.Common.StringUtils.Echo(string)", "Acme.Common.StringUtils.EchoKept(string)",
         "Acme.Common.StringUtils.EchoPair(string)", "Acme.Common.StringUtils.EchoTwice(string)"]


def _replace_last_brace(path: Path, text: str, closing: int) -> None:
    """`text` in place of the file's last `closing` closing braces."""
    body = path.read_text(encoding="utf-8").rstrip()
    for _ in range(closing):
        body = body[:body.rindex("}")].rstrip()
    path.write_text(body + "\n" + text, encoding="utf-8")


@pytest.fixture(scope="module")
def pair(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("settings-pair")
    java, cs, nuget = root / "java", root / "csharp", root / "nuget"
    shutil.copytree(SAMPLE / "java", java)
    shutil.copytree(SAMPLE / "csharp", cs, ignore=shutil.ignore_patterns("bin", "obj"))
    _replace_last_brace(java / "src/main/java/org/acme/util/StringUtils.java", JAVA_ADDED, 1)
    _replace_last_brace(cs / "src/Acme.Geo/Common/StringUtils.cs", CS_ADDED, 2)
    (cs / "tests/Acme.Geo.Tests/Common/EchoTests.cs").write_text(CS_TESTS)
    (cs / "src/Acme.Geo/Common/ExtraUse.cs").write_text(USES_PACKAGE)
    csproj = cs / "src/Acme.Geo/Acme.Geo.csproj"
    csproj.write_text(csproj.read_text().replace(
        "</Project>", '  <ItemGroup>\n    <PackageReference Include="Acme.Extra" Version="1.0.0" />\n'
                      "  </ItemGroup>\n\n</Project>"))
    lib = nuget / "acme.extra" / "1.0.0" / "lib" / "netstandard2.0"
    lib.mkdir(parents=True)
    (root / "Marker.cs").write_text('namespace Acme.Extra { public static class Marker '
                                    '{ public const string Text = "extra"; } }\n')
    subprocess.run(["mcs", "-target:library", "-nologo", f"-out:{lib / 'Acme.Extra.dll'}", str(root / "Marker.cs")],
                   check=True, capture_output=True)
    (root / "overrides.toml").write_text(OVERRIDES)
    (root / "repotrans.toml").write_text("[agents]\nrag = false\n")
    return {"root": root, "java": java, "cs": cs, "nuget": nuget, "overrides": root / "overrides.toml",
            "config": root / "repotrans.toml"}


def test_without_the_settings_the_tasks_cannot_pass(pair, tmp_path):
    """The control: the naming rules send `shout` to the port's `Shout` (which appends '?'), and the
    library's package is found nowhere without --packages."""
    index = Index.open(tmp_path / "ws")
    index.build(pair["java"], pair["cs"], progress=False)
    shout = "source:org.acme.util.StringUtils.shout(String)"
    assert load_mapping(index).target_method(shout).target_id == "target:Acme.Common.StringUtils.Shout(string)"
    index.close()
    library = next(p for p in plan_build(pair["cs"], "mono").chosen if p.name == "Acme.Geo")
    assert library.unresolved == ["Acme.Extra"]


def test_a_batch_on_two_nodes_uses_the_overrides_and_the_packages_on_every_node(pair, tmp_path):
    argv = ["--packages", str(pair["nuget"]), "--mapping", str(pair["overrides"]), "batch", "--source",
            str(pair["java"]), "--target", str(pair["cs"]), "--run-dir", str(tmp_path / "run"), "--model", "builtin",
            "--config", str(pair["config"]), "--sandbox", "local", "--executor", "ray"]
    config = with_concrete_sandbox(load_settings(build_parser().parse_args(argv), env={}))   # what the CLI builds
    assert config.execution.packages == (str(pair["nuget"].resolve()),) and config.mapping.methods
    with LocalCluster(head_cpus=1, worker_cpus=1) as cluster:
        executor = RayExecutor(address=cluster.address, tasks_per_node=1, progress=False)
        try:
            summary = run_batch(pair["java"], pair["cs"], tmp_path / "run", config, progress=False, executor=executor)
            stats = executor.stats()
        finally:
            executor.close()
    rows = _table(tmp_path / "run")
    assert [(r[2], r[3]) for r in rows] == [(t, "passed") for t in TASKS], rows
    assert summary.passed == 4 and summary.together["status"] == "passed"
    assert all("Exclaim(" in r[4] and "Shout(" not in r[4] for r in rows)
    # both nodes ran tasks, and every task passed: each node had the overrides and the packages
    assert len(stats) == 2 and all(s["tasks"] >= 1 for s in stats), stats
    for task in TASKS:
        seen = json.loads((tmp_path / "run" / "tasks" / task_dir_name(task) / "config.json").read_text())
        assert seen["execution"]["packages"] == [str(pair["nuget"].resolve())]
        assert seen["mapping"]["methods"] == {"org.acme.util.StringUtils.shout(String)":
                                              "Acme.Common.StringUtils.Exclaim(string)"}
