"""The NUnit 3 compatibility layer for the mono toolchain (NUnit 2.6): its C# source, compiled into
every test assembly whose project references NUnit 3 or later, and the NUnit 3 features found in a
test project that the layer does not give (for `repotrans doctor`)."""
from __future__ import annotations

import re
from pathlib import Path

SOURCE = Path(__file__).with_name("nunit3_compat.cs")
NOWARN = "436"                   # a compat type hides the NUnit 2.6 type of the same name: intended
ALIAS = "nunit2"                 # extern alias through which the layer reaches NUnit 2.6 itself
# (pattern, what the layer does not give)
UNSUPPORTED = (
    (re.compile(r"[\[,]\s*TestFixtureSource\b"), "[TestFixtureSource] (fixtures are not parameterised from a source)"),
    (re.compile(r"[\[,]\s*TestCaseSource\s*\([^\]]*new\s+object\s*\[\s*\]"),
     "[TestCaseSource(..., methodParams)] (source methods with arguments)"),
    (re.compile(r"\bAssert\.(ThrowsAsync|CatchAsync|DoesNotThrowAsync)\b"), "Assert.ThrowsAsync and friends"),
    (re.compile(r"\bAssert\.Multiple\b"), "Assert.Multiple reports only its first failure"),
    (re.compile(r"[\[,]\s*Retry\s*\("), "[Retry] (a test runs once)"),
    (re.compile(r"[\[,]\s*(Parallelizable|NonParallelizable)\b"), "[Parallelizable] (tests run one at a time)"),
    (re.compile(r"[\[,]\s*Order\s*\("), "[Order] (NUnit 2.6 runs tests by name)"),
    (re.compile(r"\bDoes\.(Exist|ContainKey|ContainValue)\b"), "Does.Exist/ContainKey/ContainValue"),
    (re.compile(r"\bTestContext\.Parameters\b"), "TestContext.Parameters (always empty)"),
    (re.compile(r"[\[,]\s*DefaultFloatingPointTolerance\b"), "[DefaultFloatingPointTolerance]"),
    (re.compile(r"\bWarn\.(If|Unless)\b"), "Warn.If/Warn.Unless"),
)
SETUP_FIXTURE_RE = re.compile(r"[\[,]\s*SetUpFixture\s*\][\s\S]*?\[\s*OneTime(SetUp|TearDown)\s*\]")


def unsupported_features(sources: list[Path]) -> list[str]:
    """Every NUnit 3 construct in these files the compatibility layer does not give, with the first file using it."""
    found: dict[str, str] = {}
    for path in sources:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for pattern, what in UNSUPPORTED:
            if what not in found and pattern.search(text):
                found[what] = path.name
        what = "[OneTime*] in a [SetUpFixture] (NUnit 2.6 runs only [SetUp]/[TearDown] there)"
        if what not in found and SETUP_FIXTURE_RE.search(text):
            found[what] = path.name
    return [f"{what} (e.g. {name})" for what, name in found.items()]


ALIAS_RE = re.compile(r"\busing\s+(\w+)\s*=\s*(NUnit\.Framework(?:\.\w+)*)\s*;")
NUNIT2_DLL = Path("/usr/lib/cli/nunit.framework-2.6.3/nunit.framework.dll")


def alias_patterns(sources: list[Path]) -> list[str]:
    """Every distinct `using X = NUnit.Framework...;` in these files, as written."""
    found: dict[str, None] = {}
    for path in sources:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for alias, target in ALIAS_RE.findall(text):
            found[f"using {alias} = {target};"] = None
    return list(found)


def probe_aliases(patterns: list[str], folder: Path) -> dict[str, str]:
    """Compile each alias pattern in its own file against the layer with mcs: pattern -> "" when it
    compiles, else the compiler's first error (our own probe code, compiled on the host)."""
    import subprocess

    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for i, pattern in enumerate(patterns):
        alias = ALIAS_RE.match(pattern).group(1)
        path = folder / f"probe{i}.cs"
        path.write_text(f"{pattern}\nnamespace RepotransProbe{i} {{ class P {{ System.Type T = typeof({alias}); }} }}\n")
        files.append(path)
    if not files:
        return {}
    argv = ["mcs", "-target:library", "-out:probe.dll", f"-r:{ALIAS}={NUNIT2_DLL}", f"-r:{NUNIT2_DLL}",
            f"-nowarn:{NOWARN}", str(SOURCE), *(f.name for f in files)]
    try:
        run = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=folder)
        out = run.stdout + run.stderr
    except (OSError, subprocess.TimeoutExpired) as exc:
        return {p: f"probe not compiled: {exc}" for p in patterns}
    result = {}
    for pattern, path in zip(patterns, files):
        error = next((ln.split(": ", 1)[-1] for ln in out.splitlines() if ln.startswith(path.name + "(")
                      and ": error " in ln), "")
        result[pattern] = error
    return result
