"""Run one candidate for one target method: patch a scratch copy, build what changed, run the
covering tests in a sandbox, and return a TestResult. Compile errors, failing tests, crashes and
timeouts are results; only a target that does not build unpatched raises (TargetBuildError)."""
from __future__ import annotations

import difflib
import hashlib
import re
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from repotrans.errors import ConfigError, InputError
from repotrans.execution.capability.allowances import allowances
from repotrans.execution.capability.checks import (MemberRef, PolicyVerdict, merged_verdict, policy_allowances,
                                                    trust_note)
from repotrans.execution.judge.baseline import BaselineCache, PortBaseline, cached_baseline
from repotrans.execution.judge.blocked import judge_blocked
from repotrans.execution.judge.proven import proven_wrong
from repotrans.verdicts.results import TestResult, tail
from repotrans.verdicts.status import BLOCKED
from repotrans.execution.sandboxes import Sandbox
from repotrans.execution.sandboxes.choice import make_sandbox
from repotrans.execution.settings import ExecutionConfig, concrete_sandbox
from repotrans.execution.toolchains import Limits, PatchedFile, TargetBuildError, Toolchain, Verdict
from repotrans.execution.toolchains.api import FAILS_BESIDE, capped, known_cause, make_toolchain, never_run_note
from repotrans.execution.workspace.apply import Patch, apply_candidate, plan_patch
from repotrans.execution.workspace.scratch import Workspace, prepare_workspace
from repotrans.execution.workspace.reach import Reachability
from repotrans.execution.workspace.selection import choose_tests, index_tests
from repotrans.index.model import Method
from repotrans.index.typename import simple_name
from repotrans.index.parse import parse_file, source_text

__all__ = ["Runner", "TargetBuildError", "find_target_method", "write_candidate"]


@dataclass(frozen=True)
class Chosen:
    """The tests one candidate runs: names (None: all), why those, tests translated by repotrans, limits (with
    the selected tests left out before the run: without_known)."""
    selected: list[str] | None
    selection: str
    translated: tuple[str, ...]
    limits: Limits


USING = re.compile(r"^[ \t]*(?:global[ \t]+)?using[ \t]+(?:static[ \t]+)?[\w.]+(?:[ \t]*=[ \t]*[^;\n]+)?[ \t]*;", re.M)
Planned = tuple[Workspace, Patch, float]    # a candidate planned into its file: Runner.patch's answer, its seconds


class Runner:
    """Judges candidates under one execution configuration: owns the toolchain (made with the
    configuration's build settings), the scratch workspaces under `workdir`, one sandbox per
    workspace folder and image (a docker container stays warm until `close`) and the limits.
    translate, batch, ablate, dataset build, doctor and the Ray node each build one and close it."""

    def __init__(self, config: ExecutionConfig, workdir: Path, image: str | None = None, *, trusted: bool = False):
        config.check()
        self.config = config
        self.trusted = trusted      # who wrote the code judged vouches for it: `auto` may then fall back to local
        self.workdir = Path(workdir)
        self.toolchain: Toolchain = make_toolchain(config.toolchain, config.build_settings())
        self.image = image or self.toolchain.image
        self.limits = Limits(timeout=config.timeout, memory_mb=config.memory_mb,
                             exclude_categories=tuple(config.exclude_categories), test_timeout=config.test_timeout,
                             clock=config.clock, known_failures=tuple(config.known_failures),
                             test_processes=max(1, config.test_processes))
        self._sandboxes: dict[str, Sandbox] = {}
        self._sandbox_name: str | None = None if config.sandbox == "auto" else config.sandbox
        self._lock = threading.Lock()
        self._reach = Reachability()      # the target's call graph per state (covering tests)
        self._measured = False            # measured seconds looked up (config.measured_from)
        # the untouched port's baseline its known failures come from (judge.baseline.leave_out_baseline): what its
        # judgements see fail on the untouched build is recorded there (learn_untouched)
        self.untouched: PortBaseline | None = None

    def __enter__(self) -> "Runner":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def workspace(self, target_root: Path) -> Workspace:
        """The scratch copy of `target_root` this runner builds in."""
        return prepare_workspace(Path(target_root), self.workdir, self.toolchain.name)

    def sandbox(self, ws: Workspace) -> Sandbox:
        """The sandbox for the workspaces under ws.root.parent, made on first use."""
        key = str(ws.root.parent)
        with self._lock:
            if key not in self._sandboxes:
                if self._sandbox_name is None:      # a judge built from an unresolved configuration: once
                    self._sandbox_name = concrete_sandbox(self.config.sandbox, self.trusted, self.image)
                self._sandboxes[key] = make_sandbox(self._sandbox_name, ws.root.parent, self.image,
                                                    self.limits.test_processes)
            return self._sandboxes[key]

    def baseline(self, target_root: Path, limits: Limits | None = None) -> Workspace:
        """Build the unpatched target once (TargetBuildError if it does not build); its workspace."""
        ws = self.workspace(target_root)
        self.toolchain.baseline(ws, self.sandbox(ws), limits or self.limits)
        return ws

    def language_version(self, target_root: Path) -> str:
        """The C# version candidates must keep to: the projects' LangVersion, else the toolchain default."""
        return self.toolchain.language_version(Path(target_root))

    def run(self, index, method: Method, code: str, *, java: Method | None,
            scope: Literal["covering", "all"] | None = None, keep_run: bool = False,
            allow: frozenset[str] | None = None, scaled: bool = False) -> TestResult:
        """Judge `code` as the new text of `method` (a whole member or a body) in the index's target repo.
        `allow`: capabilities the Java original reaches (capability.allowances of `java`, derived here when not
        given); the candidate may use their C# surface and the result records reduced trust. `scaled`:
        the test step's limit grows with the covering selection (Selection.timeout; dataset validation).
        `java`: the Java original (required, so no caller forgets it; None only where the member has none,
        e.g. a whole-suite run): a placeholder it does not call blocks nothing (blocked), and with None no
        placeholder blocks a candidate that calls it itself."""
        started = time.monotonic()
        ws, patch = self.patch(index, method, code)
        return self.run_planned(index, method, (ws, patch, time.monotonic() - started), java=java, scope=scope,
                                keep_run=keep_run, allow=allow, scaled=scaled)

    def run_planned(self, index, method: Method, planned: Planned, *, java: Method | None,
                    scope: Literal["covering", "all"] | None = None, keep_run: bool = False,
                    allow: frozenset[str] | None = None, scaled: bool = False) -> TestResult:
        """`run` on a candidate already planned into its file (`patch`'s answer and the seconds it took):
        a batching judge's candidate judged alone is not planned twice."""
        if allow is None:
            allow = allowances(index, java)
        ws, patch, seconds = planned
        started = time.monotonic() - seconds
        timings = {"apply": seconds}
        tc, box = self.toolchain, self.sandbox(ws)
        t = time.monotonic()
        tc.baseline(ws, box, self.limits)
        timings["baseline"] = time.monotonic() - t
        chosen = self.select(index, method, ws, scope, scaled)
        with ws.run_dir(keep=keep_run) as run_dir:
            cand = PatchedFile(path=method.path, text=patch.new_text, line_map=patch.line_map,
                               surface_changed=patch.surface_changed, run_dir=run_dir, member=MemberRef.of(method),
                               allowed=policy_allowances(frozenset(allow)))
            verdict = tc.run(ws, cand, chosen.selected, box, chosen.limits)
        code = candidate_text(patch)
        result = self.result(index, method, verdict, chosen, cand.allowed, started, timings, java=java, code=code)
        if result.status == BLOCKED and verdict.cut_short:     # blocked rests on every failure: run them all
            with ws.run_dir(keep=keep_run) as run_dir:
                cand = replace(cand, run_dir=run_dir)
                verdict = tc.run(ws, cand, chosen.selected, box, replace(chosen.limits, fail_fast=False))
            result = self.result(index, method, verdict, chosen, cand.allowed, started, timings, java=java, code=code)
        return result

    def run_many(self, index, items: list[tuple[Method, str, frozenset[str], Method | None]], *,
                 scope: Literal["covering", "all"] | None = None, scaled: bool = False,
                 base: Path | None = None) -> list[TestResult]:
        """Verdicts of several (member, code, allowances, Java original), one after another (a
        judge_batch.BatchingJudge shares their builds). `base`: the index's target tree already holds every
        item's code and differs from `base` only in the items' files: `base` is that tree without any of it (a
        unit judged together, runs.rejudge), or the tree itself (members already in the work copy judged again
        there, runs.batch_end); they are then built once (together), each checked against `base`."""
        if base is not None:
            return self.together(index, items, Path(base), scope=scope, scaled=scaled)
        return [self.run(index, m, code, scope=scope, allow=allow, scaled=scaled, java=java)
                for m, code, allow, java in items]

    def together(self, index, items: list[tuple[Method, str, frozenset[str], Method | None]], base: Path, *,
                 scope: Literal["covering", "all"] | None = None, scaled: bool = False) -> list[TestResult]:
        """Each item's verdict on the index's target tree, which holds every item's code (each item's: the candidate
        as written, its helpers and usings with it, `own_check`'s), built once: `base`'s
        workspace with the items' files as that tree has them (the toolchain's build_together), each item's
        capability check comparing that build with `base`'s own (for a unit: the tree without any item, since a
        baseline holding the items would hide what one of them added, a helper method say), and its covering
        tests run on that one build. Each check inspects everything the items added under that item's allowances;
        one that denies is settled by the item's own code alone (own_check). TargetBuildError when the tree does not
        build."""
        started = time.monotonic()
        ws = self.baseline(base)
        box, root = self.sandbox(ws), index.root("target")
        with ws.run_dir() as out:
            cands, patches = [], []
            for m, _, allow, _ in items:
                text = source_text((root / m.path).read_bytes())
                patch = plan_patch(text, m, text.encode("utf-8")[m.start_byte:m.end_byte].decode("utf-8"))
                patches.append(patch)
                cands.append(PatchedFile(path=m.path, text=patch.new_text, line_map=patch.line_map,
                                         surface_changed=True, run_dir=out, member=MemberRef.of(m),
                                         allowed=policy_allowances(frozenset(allow))))
            build = self.toolchain.build_together(ws, cands, out, box, self.limits)
            if not build.ok:
                raise TargetBuildError(f"the unit's tree does not build: {build.output[-500:]}")
            timings = {"apply": 0.0, "baseline": 0.0, "build": time.monotonic() - started}
            answers, at, checked = build.answers or [], 0, []
            for m, _, _, _ in items:
                jobs = len(self.toolchain.compiling(ws, m.path))
                checked.append(merged_verdict(answers[at:at + jobs]) if jobs else None)
                at += jobs
            checked = [(self.own_check(ws, box, out / f"alone-{n}", m, code, cand) or verdict) if denied(verdict)
                       else verdict for n, ((m, code, _, _), cand, verdict) in enumerate(zip(items, cands, checked))]
            results = []
            for (m, _, _, java), cand, patch, own in zip(items, cands, patches, checked):
                member_started = time.monotonic()
                chosen = self.select(index, m, ws, scope, scaled)
                judge = f"together: {len(items)} candidates in one build"
                result = None
                for limits in (chosen.limits, replace(chosen.limits, fail_fast=False)):
                    verdict = self.toolchain.run_built(ws, cand, build, [own] if own else [], chosen.selected, box, limits)
                    result = self.result(index, m, verdict, chosen, cand.allowed, member_started, timings,
                                         judge=judge, java=java, code=candidate_text(patch))
                    if not (result.status == BLOCKED and verdict.cut_short):   # blocked rests on every failure
                        break
                results.append(result)
        return results

    def own_check(self, ws: Workspace, box: Sandbox, out: Path, m: Method, code: str,
                  cand: PatchedFile) -> PolicyVerdict | None:
        """The capability check of `m`'s candidate `code` alone on `ws`'s tree (the work copy: no other member of the
        unit in it), under its own allowances (`cand`'s): what it adds is inspected against the work copy's build
        again, and nothing another member added is judged by this member's grants (a unit whose members' Java
        originals reach different capabilities, file I/O in one, none in the other, settles when each member's code
        passes under its own). None when its code alone is not its code in the unit (another member's `using` in
        its file could bind its names otherwise) or that tree does not build (it needs another's code): its
        combined check stands."""
        data = (ws.src / m.path).read_bytes()
        there = next((x for x in parse_file("target", m.path, data, "").methods if x.id == m.id), None)
        if there is None:
            return None
        patch = plan_patch(source_text(data), there, code)
        if usings(cand.text) != usings(patch.new_text):
            return None
        out.mkdir(parents=True, exist_ok=True)
        alone = replace(cand, text=patch.new_text, line_map=patch.line_map, run_dir=out)
        build = self.toolchain.build_together(ws, [alone], out, box, self.limits)
        return merged_verdict(build.answers) if build.ok and build.answers else None

    def patch(self, index, method: Method, code: str) -> tuple[Workspace, Patch]:
        """The workspace of the index's target and `code` planned into `method`'s file (ConfigError when
        the member is not a target's or its file changed since it was indexed)."""
        if method.side != "target":
            raise ConfigError(f"{method.id} is not a target (C#) method")
        ws = self.workspace(index.root("target"))
        file_path = ws.src / method.path
        if not file_path.is_file():
            raise ConfigError(f"{method.path} is not in the target repository (is the index stale?)")
        data = file_path.read_bytes()
        info = index.file("target", method.path) if hasattr(index, "file") else None
        if info is not None and info.sha256 != hashlib.sha256(data).hexdigest():
            raise ConfigError(f"{method.path} changed since it was indexed; re-run `repotrans index`")
        return ws, plan_patch(source_text(data), method, code)

    def select(self, index, method: Method, ws: Workspace, scope: str | None, scaled: bool) -> "Chosen":
        """The tests a candidate for `method` runs (`scope` None: the configuration's) and their limits."""
        scope = scope or self.config.scope
        if scope != "covering":
            return Chosen(None, "the whole test suite (--scope all)", (), self.limits)
        self.measured()
        fixtures = index_tests(ws, self.toolchain.test_projects(ws))
        chosen = choose_tests(index, method, fixtures, covering_names(index, method), member_tokens(index, method),
                              self._reach)
        limits = replace(self.limits, fail_fast=True)
        if scaled and not limits.test_seconds:      # nothing measured: grown with the count, under the cap
            limits = replace(limits, timeout=capped(chosen.timeout(self.limits.timeout), self.limits.timeout,
                                                    self.limits.kill_cap))
        tests, known = without_known(chosen.tests, fixtures, dict(self.limits.known_failures))
        note = f"; {len(known)} known to fail on the untouched port not run" if known else ""
        return Chosen(tests, chosen.describe() + note, chosen.translated,
                      replace(limits, left_out_before=tuple(known.items())))

    def measured(self) -> dict[str, dict[str, float]]:
        """Each test's measured seconds (test project -> test -> seconds), looked up once in the cached baseline
        of config.measured_from (judge.baseline; nothing is run for it) unless the limits have them already."""
        with self._lock:
            if self._measured or self.limits.test_seconds:
                return self.limits.test_seconds
            self._measured = True
            if not (self.config.measured_from and self.config.baseline_cache):
                return {}
        found = cached_baseline(self, Path(self.config.measured_from), BaselineCache(Path(self.config.baseline_cache)))
        if found is not None:
            self.limits = replace(self.limits, test_seconds=found.test_seconds)
        return self.limits.test_seconds

    def result(self, index, method: Method, verdict: Verdict, chosen: "Chosen", allowed: frozenset[str],
               started: float, timings: dict[str, float], judge: str = "", java: Method | None = None,
               code: str = "") -> TestResult:
        """The TestResult of a toolchain's verdict (candidate lines the compiler proves wrong judged,
        blocked judged against the candidate's `code`, secrets redacted); `judge` says how it was judged when
        not alone (execution.judge.batching)."""
        timings = {**timings, **verdict.timings, "total": time.monotonic() - started}
        self.learn_untouched(verdict.left_out, verdict.untouched_failed)
        verdict = proven_wrong(verdict)
        result = TestResult(status=verdict.status, diagnostics=verdict.diagnostics, failures=verdict.failures,
                            exceptions=verdict.exceptions, tests_run=verdict.tests_run,
                            tests_failed=verdict.tests_failed, timings={k: round(v, 3) for k, v in timings.items()},
                            log_tail=tail(verdict.log), reason=verdict.reason, selected=chosen.selected or [],
                            selection=chosen.selection + never_run(verdict), trust=trust_note(allowed) if verdict.tests_run else "",
                            translated=list(chosen.translated), judge=judge, left_out=dict(verdict.left_out))
        return judge_blocked(result, index, method, java, code).redacted()

    def learn_untouched(self, left_out: dict[str, str], failed: set[tuple[str, str, str]] = frozenset()) -> None:
        """Keep what a judgement saw fail on the untouched build (tests its run left out as failing there too,
        beside the same tests: toolchains' FAILS_BESIDE, a fact about the port the candidate cannot reach) among
        this runner's known failures, so later candidates leave them out from the start, and how the untouched
        build failed there (`failed`: project, exception, frame) among its random failures
        (toolchains.mono_test.passed_again); both in the untouched baseline too (and its cache: later runs of the
        same port). NPOI's formula tests throw at random (an identity hash taken modulo an array's length), a
        few new ones in each run: each is learned once."""
        found = {key: why for key, why in left_out.items() if why == FAILS_BESIDE}
        with self._lock:
            known = dict(self.limits.known_failures)
            new = {key: why for key, why in found.items() if key not in known}
            fresh = set(failed) - set(self.limits.random_failures)
            if not new and not fresh:
                return
            self.limits = replace(self.limits, known_failures=tuple(sorted({**known, **new}.items())),
                                  random_failures=tuple(sorted({*self.limits.random_failures, *fresh})))
            if self.untouched is not None:
                self.untouched.record_failures(new, fresh)

    def close(self) -> None:
        """Remove warm containers; the runner may be used again afterwards."""
        with self._lock:
            boxes, self._sandboxes = list(self._sandboxes.values()), {}
        for box in boxes:
            box.close()


def denied(verdict: PolicyVerdict | None) -> bool:
    """Whether a check answered with denials (not an error: a check that could not run settles nothing)."""
    return verdict is not None and bool(verdict.denials) and not verdict.error


def usings(text: str) -> set[str]:
    """The using directives of a C# file's text (aliases and `using static` included), spacing aside."""
    return {" ".join(d.split()) for d in USING.findall(text)}


def candidate_text(patch: Patch) -> str:
    """The lines of the patched file that came from the candidate (its member or body, helpers, usings)."""
    lines = patch.new_text.split("\n")
    return "\n".join(lines[n - 1] for n in sorted(patch.line_map.entries) if 0 < n <= len(lines))


def never_run(verdict: Verdict) -> str:
    """'; never run, the suite says not to: 1 [Explicit] (Ns.F.T)': the selected tests the run left out by the
    suite's own attributes (none of them judged the candidate), for the selection's description."""
    return never_run_note(verdict.excluded)


def covering_names(index, method: Method) -> set[str]:
    """Names whose mention makes a fixture cover `method` (the name walk, selection's fallback): its
    class, the classes deriving from it (Index.subtypes: bases bound as C# binds them, not by simple
    name), and the method's own name when it is static (called through an extension or a using static)."""
    own = index.type(method.type_id) if hasattr(index, "type") else None
    names = {simple_name(method.type_id)}
    if own is not None:
        names |= {t.name for t in index.subtypes(own)}
    if "static" in method.modifiers and method.kind == "method":
        names.add(method.name)
    return names


def member_tokens(index, method: Method) -> set[str]:
    """Tokens whose mention makes a test method cover `method` itself (selection.index_tests): its name
    for a method or property, "new <Class>" for a constructor (the class or one deriving from it);
    none for an indexer, which has no name to look for."""
    if method.kind == "constructor":
        return {f"new {name}" for name in covering_names(index, method)}
    if method.kind in ("method", "property"):
        return {method.name}
    return set()


def find_target_method(index, query: str) -> Method:
    """One C# member from a signature like "Circle.Area()"; InputError with close names otherwise."""
    found = index.find_methods("target", query)
    if len(found) == 1:
        return found[0]
    if found:
        raise InputError(f"{query!r} matches {len(found)} members; add the class or parameter types",
                         did_you_mean=[m.id.split(":", 1)[1] for m in found])
    name = query.split("(")[0].rsplit(".", 1)[-1]
    names = sorted({m.id.split(":", 1)[1] for m in index.all_methods("target")})
    close = difflib.get_close_matches(name, sorted({n.split("(")[0].rsplit(".", 1)[-1] for n in names}), n=5)
    raise InputError(f"no C# member matches {query!r}",
                     did_you_mean=[n for n in names if n.split("(")[0].rsplit(".", 1)[-1] in close][:5])


def write_candidate(index, method: Method, code: str) -> str:
    """--write: apply the candidate to the user's own file; returns the path written."""
    path = index.root("target") / method.path
    new_text, _ = apply_candidate(source_text(path.read_bytes()), method, code)   # CRLF kept (byte offsets)
    path.write_bytes(new_text.encode("utf-8"))
    return str(path)


def without_known(tests: list[str], fixtures: dict[str, dict], known: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """`tests` (selected ids: "<project>:<Ns.Fixture>" or that plus ".Test") less those `known` names as failing or
    flipping on the untouched port (a key ":Ns.Fixture.Test" names the test in any project), a whole fixture holding
    one given as its other tests; and those left out, with their cause. Whatever such a test does beside a
    candidate decides nothing (its failure is left out, a flaky pass counts for nothing), and one known to hang
    cost its whole limit on every run. A test waiting for untranslated code stays: the candidate may be what it
    waits for."""
    kept, left = [], {}
    for test in tests:
        members = [f"{test}.{name}" for name in fixtures[test].get("tests", {})] if test in fixtures else [test]
        out = {m: why for m in members if (why := known_cause(known, *m.split(":", 1))) is not None}
        if not out:
            kept.append(test)
            continue
        left.update(out)
        kept += [m for m in members if m not in out]
    return kept, left

