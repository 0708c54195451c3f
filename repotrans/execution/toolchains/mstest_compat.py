"""The MSTest compatibility layer for the mono toolchain (NUnit 2.6): its C# source, compiled into every
test assembly whose project references MSTest (VS's QualityTools.UnitTestFramework or the MSTest.TestFramework
package) in place of MSTest's own assembly, and the MSTest features a test project uses that the layer
does not give (for `repotrans doctor`)."""
from __future__ import annotations

import re
from pathlib import Path

SOURCE = Path(__file__).with_name("mstest_compat.cs")
# MSTest's assemblies and packages: the layer stands in for them, nothing of theirs is referenced.
ASSEMBLIES = ("microsoft.visualstudio.qualitytools.unittestframework",
              "microsoft.visualstudio.testplatform.testframework",
              "microsoft.visualstudio.testplatform.testframework.extensions")
PACKAGES = ("mstest.testframework", "mstest")
# (pattern, what the layer does not give)
UNSUPPORTED = (
    (re.compile(r"[\[,]\s*ClassInitialize\b"),
     "[ClassInitialize] takes a TestContext NUnit 2.6 cannot pass: its class is reported not runnable"),
    (re.compile(r"[\[,]\s*Assembly(Initialize|Cleanup)\b"), "[AssemblyInitialize]/[AssemblyCleanup] are not run"),
    (re.compile(r"\bAllowDerivedTypes\s*=\s*true\b"),
     "[ExpectedException(..., AllowDerivedTypes = true)] accepts only the exact type"),
    (re.compile(r"[\[,]\s*DeploymentItem\b"),
     "[DeploymentItem] deploys nothing (the build's CopyToOutputDirectory items are beside the assembly)"),
    (re.compile(r"\bTestContext\s*\.\s*\w+"), "TestContext is never set (null)"),
    (re.compile(r"[\[,]\s*(DynamicData|DataSource)\b"),
     "[DynamicData]/[DataSource] (data from a member or a database)"),
    (re.compile(r"\bcatch\s*\(\s*(AssertFailedException|UnitTestAssertException)\b"),
     "an Assert failure is NUnit's AssertionException here: a catch of AssertFailedException does not see it"),
    (re.compile(r"\bAssert\.(ThrowsExceptionAsync|That)\b"), "Assert.ThrowsExceptionAsync and Assert.That extensions"),
)


LINE_COMMENT_RE = re.compile(r"//[^\n]*")     # VS's MSTest template leaves `// [ClassInitialize()]` in every class


def is_mstest_assembly(name: str) -> bool:
    """Whether a Reference names one of MSTest's own assemblies (the layer stands in for it)."""
    return name.lower().removesuffix(".dll") in ASSEMBLIES


def unsupported_features(sources: list[Path]) -> list[str]:
    """Every MSTest construct in these files the compatibility layer does not give, with the first file using it."""
    found: dict[str, str] = {}
    for path in sources:
        try:
            text = LINE_COMMENT_RE.sub("", path.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
        for pattern, what in UNSUPPORTED:
            if what not in found and pattern.search(text):
                found[what] = path.name
    return [f"{what} (e.g. {name})" for what, name in found.items()]
