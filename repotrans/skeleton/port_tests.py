"""`repotrans translate-tests`: the JUnit tests of Java classes as NUnit fixtures in the port's test project.

    written = port_junit_tests(index, Path("core/src/test/java"), ["org.acme.geo.*Test"])

The test project is the one whose build references the library that compiles the class under test;
its style (test_style.py) and the port's conventions shape the fixtures (junit.py); place.py adds
them to the project the way it compiles files. Verdicts from them are labelled as translated tests.
"""
from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from repotrans.errors import InputError
from repotrans.execution.toolchains.projects import BuildSettings, plan_build
from repotrans.mapping.load import load_mapping
from repotrans.mapping.overrides import MappingOverrides
from repotrans.skeleton.conventions import learn
from repotrans.skeleton.junit import TranslatedTest, translate_junit
from repotrans.skeleton.place import Placement, place_files
from repotrans.skeleton.test_style import learn_style

if TYPE_CHECKING:
    from repotrans.index.store import Index


@dataclass
class PortedTests:
    tests: list[TranslatedTest] = field(default_factory=list)
    placement: Placement | None = None
    skipped: dict[str, str] = field(default_factory=dict)

    def render(self) -> str:
        lines = [f"{len(self.tests)} JUnit class(es) translated ({sum(t.tests for t in self.tests)} tests), "
                 "labelled [Category(\"RepotransTranslated\")]:"]
        lines += [f"  {t.java_path} -> {t.path} ({t.namespace}.{t.fixture}, {t.tests} tests)" for t in self.tests]
        lines += [f"  skipped {k}: {v}" for k, v in sorted(self.skipped.items())]
        lines += [f"  note: {n}" for t in self.tests for n in t.notes]
        return "\n".join(lines)


def junit_files(root: Path, patterns: list[str]) -> dict[str, Path]:
    """Java test files under root whose qualified class name matches a pattern: qualified name -> file."""
    out = {}
    for f in sorted(root.rglob("*.java")):
        qualified = f.relative_to(root).with_suffix("").as_posix().replace("/", ".")
        if any(fnmatch.fnmatchcase(qualified, p) for p in patterns):
            out[qualified] = f
    return out


def port_junit_tests(index: "Index", junit_root: Path, patterns: list[str], write: bool = True,
                     overrides: MappingOverrides | None = None,
                     settings: BuildSettings = BuildSettings()) -> PortedTests:
    """JUnit files under `junit_root` matching `patterns` as NUnit fixtures in the port's first test
    project (the mapping with the user's `overrides`, the build plan with the user's `settings`)."""
    if not junit_root.is_dir():
        raise InputError(f"--junit: {junit_root} is not a folder (give the Java test sources, e.g. src/test/java)")
    files = junit_files(junit_root, patterns)
    if not files:
        raise InputError(f"no JUnit file under {junit_root} matches {' '.join(patterns)}")
    target = index.root("target")
    mapping = load_mapping(index, overrides)
    plan = plan_build(target, "mono", settings)
    if not plan.tests:
        raise InputError(f"{target} has no test project to put translated tests in")
    conv = learn(index, mapping)
    class_files = {t.name: (t.container, t.path) for t in index.types("target") if t.outer_id is None}
    styles = {}
    result = PortedTests()
    for qualified, path in files.items():
        test_project = plan.tests[0]
        style = styles.get(test_project.path)
        if style is None:
            style = styles[test_project.path] = learn_style(test_project, class_files, target)
            style.libraries = [p for p in plan.chosen if not p.is_test]
        try:
            result.tests.append(translate_junit(path, path.relative_to(junit_root).as_posix(), index, mapping,
                                                style, conv, target))
        except (ValueError, InputError) as exc:
            result.skipped[qualified] = str(exc)
    if write:
        taken = [t for t in result.tests if (target / t.path).exists()]
        for t in taken:
            result.skipped[t.java_path] = f"{t.path} already exists"
        result.tests = [t for t in result.tests if t not in taken]
        result.placement = place_files(target, {t.path: t.text for t in result.tests})
    return result
