"""`repotrans translate-tests`: the JUnit tests of Java classes as NUnit fixtures in the port's test project.

    written = port_junit_tests(index, load_mapping(index), Path("core/src/test/java"), ["org.acme.geo.*Test"])

The test project is the one whose build references the library that compiles the class under test;
its style (test_style.py) and the port's conventions shape the fixtures (junit.py); place.py adds
them to the project the way it compiles files. Verdicts from them are labelled as translated tests.
"""
from __future__ import annotations

import asyncio
import fnmatch
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from repotrans.errors import InputError
from repotrans.execution.toolchains.api import BuildSettings, plan_build
from repotrans.skeleton.check import build_libraries, member_errors
from repotrans.translator.repair import repair
from repotrans.translator.resolver import ConventionResolver
from repotrans.verdicts.results import Diagnostic, TestResult
from repotrans.skeleton.conventions import learn
from repotrans.junit.translate import TranslatedTest, port_context, translate_junit
from repotrans.skeleton.place import Placement, place_files
from repotrans.junit.test_style import TestStyle, learn_style

if TYPE_CHECKING:
    from autogen_core.models import ChatCompletionClient

    from repotrans.index.store import Index
    from repotrans.junit.model_tests import ModelTest
    from repotrans.mapping.mapping import Mapping



@dataclass
class PortedTests:
    tests: list[TranslatedTest] = field(default_factory=list)
    placement: Placement | None = None
    skipped: dict[str, str] = field(default_factory=dict)
    by_model: dict[str, str] = field(default_factory=dict)      # JUnit path -> what the model path did

    def render(self) -> str:
        how = "by the model" if self.by_model else "by the builtin rules"
        lines = [f"{len(self.tests)} JUnit class(es) translated {how} ({sum(t.tests for t in self.tests)} tests), "
                 "labelled [Category(\"RepotransTranslated\")]:"]
        lines += [f"  {t.java_path} -> {t.path} ({t.namespace}.{t.fixture}, {t.tests} tests)" for t in self.tests]
        lines += [f"  skipped {k}: {v}" for k, v in sorted(self.skipped.items())]
        lines += [f"  note: {n}" for t in self.tests for n in t.notes]
        lines += [f"  model: {k}: {v}" for k, v in sorted(self.by_model.items())]
        return "\n".join(lines)


def junit_files(root: Path, patterns: list[str]) -> dict[str, Path]:
    """Java test files under root whose qualified class name matches a pattern: qualified name -> file."""
    out = {}
    for f in sorted(root.rglob("*.java")):
        qualified = f.relative_to(root).with_suffix("").as_posix().replace("/", ".")
        if any(fnmatch.fnmatchcase(qualified, p) for p in patterns):
            out[qualified] = f
    return out


def port_junit_tests(index: "Index", mapping: "Mapping", junit_root: Path, patterns: list[str], write: bool = True,
                     settings: BuildSettings = BuildSettings(),
                     client: "ChatCompletionClient | None" = None, rounds: int = 3,
                     templates: Path | None = None) -> PortedTests:
    """JUnit files under `junit_root` matching `patterns` as NUnit fixtures in the port's first test
    project (`mapping`: the index's, with the user's overrides; the build plan with the user's `settings`).
    With a model `client` the model writes each fixture (model_tests.py), compiled against the port
    and repaired from its errors up to `rounds` times; a fixture that never compiles is skipped
    (`templates`: the user's prompt templates folder, [prompts] dir)."""
    if not junit_root.is_dir():
        raise InputError(f"--junit: {junit_root} is not a folder (give the Java test sources, e.g. src/test/java)")
    files = junit_files(junit_root, patterns)
    if not files:
        raise InputError(f"no JUnit file under {junit_root} matches {' '.join(patterns)}")
    target = index.root("target")
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
            draft = translate_junit(path, path.relative_to(junit_root).as_posix(), index, mapping, style, conv, target)
        except (ValueError, InputError) as exc:
            result.skipped[qualified] = str(exc)
            continue
        if client is None:
            result.tests.append(_repaired(target, test_project, draft, settings, rounds))
            continue
        if write and (target / draft.path).exists():
            result.skipped[qualified] = f"{draft.path} already exists"
            continue
        done = _by_model(client, path, draft, style, index, mapping, settings, rounds, templates)
        result.by_model[draft.java_path] = (f"{'compiled' if done.compiled else 'never compiled'} after "
                                            f"{done.attempts} candidate(s)" + "".join(f"; {n}" for n in done.notes))
        if done.compiled:
            result.tests.append(done.test)
        else:
            result.skipped[qualified] = ("the model's fixture does not compile with the port: "
                                         + "; ".join(done.errors[:3]))
    if write:
        taken = [t for t in result.tests if (target / t.path).exists()]
        for t in taken:
            result.skipped[t.java_path] = f"{t.path} already exists"
        result.tests = [t for t in result.tests if t not in taken]
        result.placement = place_files(target, {t.path: t.text for t in result.tests})
    return result


def _by_model(client: "ChatCompletionClient", java_file: Path, draft: TranslatedTest, style: TestStyle,
              index: "Index", mapping, settings: BuildSettings, rounds: int,
              templates: Path | None = None) -> "ModelTest":
    """One JUnit file through the model path, its candidates compiled with the port's test project."""
    from repotrans.junit.model_tests import test_slots, translate_with_model

    target = index.root("target")
    java = next((t for t in index.types("source") if t.qualified_name == draft.under_test), None)
    match = mapping.target_type(java.id) if java is not None else None
    cs_type = index.type(match.target_id) if match is not None else None
    slots = test_slots(java_file.read_text(encoding="utf-8", errors="replace"), draft, style,
                       port_context(index, mapping, java_file), style.project.lang_version or "default",
                       cs_type.qualified_name if cs_type else None)

    def check(code: str) -> list[str]:
        return compile_errors(target, style.project, draft, code, settings)

    return asyncio.run(translate_with_model(client, java_file, draft, style, slots, check, rounds, templates))


def _repaired(target: Path, test_project, draft: TranslatedTest, settings: BuildSettings,
              rounds: int) -> TranslatedTest:
    """The builtin's fixture compiled with the port's test project and, where it does not compile, repaired
    by the batch's repair rules (translator/repair.py: a cast where the port's member returns a base type, as
    C# has no covariant returns; ...) up to `rounds` times. Unchanged when it compiles, when the port's own
    build fails, or when no rule applies (the batch then reports the fixture as not built)."""
    text = draft.text
    for _ in range(rounds):
        _, errors = _file_errors(target, test_project, draft, text, settings)
        if not errors:
            break
        diagnostics = [Diagnostic(e.code, e.message, draft.path, e.line, 0, candidate_line=e.line) for e in errors]
        fixed = repair(text, TestResult("compile_error", diagnostics=diagnostics), ConventionResolver(frozenset(), {}))
        if fixed is None:
            break
        text = fixed
    return replace(draft, text=text)


def _file_errors(target: Path, test_project, draft: TranslatedTest, code: str,
                 settings: BuildSettings) -> tuple[str, list]:
    """The build output of the port with `code` as the test file `draft.path` of `test_project` (not
    written into it), and the compiler errors in that file ("" and none when it builds)."""
    with tempfile.TemporaryDirectory(prefix="repotrans-tests-") as tmp:
        candidate = Path(tmp) / Path(draft.path).name
        candidate.write_text(code, encoding="utf-8")
        build = build_libraries(target, settings, tests=True, extra={test_project.path: [candidate]}, changed=[])
    if build.ok:
        return "", []
    return build.output, [e for e in member_errors(build.output, target.resolve(), {})
                          if Path(e.file).name == candidate.name]


def compile_errors(target: Path, test_project, draft: TranslatedTest, code: str,
                   settings: BuildSettings = BuildSettings()) -> list[str]:
    """The compiler errors of `code` as the test file `draft.path` of `test_project`, built with the
    port (not written into it): "line N: CSxxxx message `source line`"."""
    output, found = _file_errors(target, test_project, draft, code, settings)
    if not output:
        return []
    lines = code.split("\n")
    errors = []
    for e in found:
        source = lines[e.line - 1].strip() if 0 < e.line <= len(lines) else ""
        errors.append(f"line {e.line}: {e.code} {e.message.strip()}" + (f" `{source}`" if source else ""))
    if not errors:
        first = next((ln for ln in output.splitlines() if "error" in ln), "")
        if first:
            errors.append(f"the port's own build fails: {first.strip()}")
    return errors
