"""`repotrans sync`: carry a range of upstream Java commits into the C# port.

    report = run_sync(SyncInputs(...), config)

1. The Java side at both revisions (a git range, or --source-before DIR and --source DIR as trees) and
   the member-level diff between them, each change with the upstream commits that touched it (sync_diff).
2. The mapping of the OLD revision with the port gives each changed member's C# counterpart.
3. In a work copy of the port (RUN/work/target), callee-first: renames and moves with their call sites
   (sync_port), then each changed member edited (old Java, new Java, the Java diff and the port's body:
   policy.edit for the builtin, sync_model for a model), each judged by the port's own covering tests;
   an edit that fails is put back. Added members and types go through create-missing and batch
   (experiments/batch) in RUN/batch; a created member that did not pass is taken out again. Removed
   members are reported; with `remove` one is deleted only when the whole suite passes without it.
4. The work copy then holds the port plus what passed, nothing else. `write` and RUN/changes.patch
   (`git apply` takes it) go through batch --write's member splicer (sync_write): edited members are
   spliced into the user's files as they are now (one the user changed since is skipped and named);
   files of structural steps are taken whole unless the user changed them since (then named). RUN/sync.json and RUN/sync.md report
   per upstream commit (sync_report).
"""
from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from repotrans.agents.config import AgentConfig
from repotrans.errors import ConfigError
from repotrans.execution.capability.allowances import allowances
from repotrans.execution.judge.runner import Runner
from repotrans.experiments.ordering import dependency_graph, order_levels
from repotrans.experiments.sync_diff import Change, JavaTree, diff_trees, read_tree, touched, with_commits
from repotrans.experiments.sync_files import file_digests
from repotrans.experiments.sync_write import edit_records, sync_write
from repotrans.experiments.write_back import original_texts
from repotrans.experiments.sync_history import Commit, commits, export, resolve
from repotrans.experiments.sync_port import FileSnapshot, move_member, remove_member, rename_member
from repotrans.experiments.sync_report import Outcome, SyncReport
from repotrans.index.parse import source_text
from repotrans.index.store import Index
from repotrans.mapping.load import load_mapping
from repotrans.policy.cs_types import pascal
from repotrans.policy.edit import Edit, edit_member, resolver_for_pair

Editor = Callable[..., Edit]        # (old Java, new Java, current C# text, resolver, index, mapping) -> Edit


@dataclass
class SyncInputs:
    target: Path                          # the C# port (the old revision's)
    run_dir: Path
    source: Path                          # Java git repository, or the new tree with source_before
    until: str = "HEAD"
    since: str | None = None
    source_before: Path | None = None     # the old Java tree (no git)
    write: bool = False
    patch: Path | None = None
    remove: bool = False
    junit: Path | None = None             # Java test sources, relative to the Java side's root (or absolute)
    progress: Callable[[str], None] = field(default=lambda line: None)


def run_sync(inputs: SyncInputs, config: AgentConfig, editor: Editor | None = None) -> SyncReport:
    """Sync the port with the upstream range; see the module doc. `editor` writes a changed member's new
    C# text (default: the builtin policy's statement-level edit)."""
    started = time.time()
    run = inputs.run_dir
    if (run / "sync.json").exists():
        raise ConfigError(f"{run} already holds a sync; choose another --run-dir")
    say = inputs.progress
    before, after, history = _upstream(inputs)
    say(f"diff: {before.name} -> {after.name}")
    old_tree, new_tree = read_tree(before), read_tree(after)
    per_commit = [(c, touched(inputs.source, c)) for c in history] if history else []
    changes = with_commits(diff_trees(old_tree, new_tree), per_commit)
    digests = file_digests(inputs.target)
    work = run / "work" / "target"
    shutil.copytree(inputs.target, work, ignore=shutil.ignore_patterns("bin", "obj", ".repotrans"))
    old_index = Index.open(run / "workspace-old")
    old_index.build(before, inputs.target, progress=False)
    old_mapping = load_mapping(old_index, config.mapping)
    index = Index.open(run / "workspace")
    index.build(after, work, progress=False)
    report = SyncReport(commits=history, changes=changes, revisions=(before.name, after.name))
    carried = {c.old_id: old_mapping.target_method(c.old_id) for c in changes if c.member and c.old_id}
    carried = {k: v.target_id for k, v in carried.items() if v is not None}
    originals = original_texts(old_index, sorted({t.split(":", 1)[1] for t in carried.values()}))
    start_texts = {o["path"]: (inputs.target / o["path"]).read_bytes().decode("utf-8", "replace")
                   for o in originals.values()}
    editor = editor or _builtin_editor
    runner = Runner(config.execution, run / "workspace")
    try:
        ctx = _Context(index, after, work, runner, config, report, say, old_tree, new_tree, old_index, old_mapping)
        ctx.anchors = sorted(set(carried.values()))
        for c in changes:
            if c.kind == "field":
                report.add(Outcome(c, None, "field", "for a human", reason=(
                    "the field's type, modifiers or initializer changed upstream: sync edits members only; "
                    "port the change to its counterpart by hand")))
            elif c.member and c.old_id and c.old_id not in carried and c.kind != "removed":
                reason = old_mapping.unmatched_methods.get(c.old_id, "no C# counterpart in the mapping")
                report.add(Outcome(c, None, "not carried", "skipped", reason=f"the port has no counterpart: {reason}"))
        structural = [c for c in changes if c.kind in ("renamed", "moved") and c.old_id in carried]
        for c in structural:
            ctx.structural(c, carried[c.old_id])
        edits = [c for c in changes if c.kind in ("body", "signature", "renamed", "moved") and c.old_id in carried
                 and not report.failed_structurally(c)]
        ctx.edit_all(edits, carried, editor)
        for c in changes:
            if c.kind == "removed" and c.member:
                ctx.removed(c, carried.get(c.old_id), inputs.remove)
        added = [c for c in changes if c.kind == "added"]
        if added:
            from repotrans.experiments.sync_added import port_added
            port_added(ctx, added, run / "batch", _junit(inputs, after))
        report.whole_suite = ctx.whole_suite()
    finally:
        runner.close()
        old_index.close()
        index.close()
    passed = edit_records([(o.target, o.code) for o in report.outcomes
                           if o.action == "edit" and o.status == "passed" and o.code and o.target])
    out = sync_write(inputs.target, work, digests, originals, start_texts, passed, inputs.write)
    (run / "changes.patch").write_text(out.patch, encoding="utf-8")
    if inputs.patch:
        inputs.patch.write_text(out.patch, encoding="utf-8")
    if inputs.write:
        report.written, report.refused = out.written, out.refused
    report.seconds = round(time.time() - started, 2)
    report.save(run)
    return report


def _upstream(inputs: SyncInputs) -> tuple[Path, Path, list[Commit]]:
    """The old and new Java trees (exported under RUN/upstream from git) and the commits between."""
    if inputs.source_before is not None:
        for name, path in (("--source-before", inputs.source_before), ("--source", inputs.source)):
            if not path.is_dir():
                raise ConfigError(f"{name}: {path} is not a folder")
        return inputs.source_before, inputs.source, []
    if not inputs.since:
        raise ConfigError("sync needs --since REV (the upstream revision the port follows) or --source-before DIR")
    since, until = resolve(inputs.source, inputs.since), resolve(inputs.source, inputs.until)
    up = inputs.run_dir / "upstream"
    before = export(inputs.source, since, up / since[:7])
    after = export(inputs.source, until, up / until[:7])
    return before, after, commits(inputs.source, since, until)


def _junit(inputs: SyncInputs, after: Path) -> Path | None:
    """--junit: a folder of the new revision's tree (relative: under the Java side's root), else as given."""
    if inputs.junit is None:
        return None
    path = inputs.junit if inputs.junit.is_absolute() else after / inputs.junit
    if not path.is_dir():
        raise ConfigError(f"--junit: {inputs.junit} is no folder of the new Java revision (e.g. src/test/java)")
    return path


def _builtin_editor(old, new, current_text: str, resolver, **_) -> Edit:
    return edit_member(old, new, current_text, resolver)


class _Context:
    """What the steps of one sync share: the new index over the work copy, the runner, the report."""

    def __init__(self, index: Index, after: Path, work: Path, runner: Runner, config: AgentConfig,
                 report: SyncReport, say, old_tree: JavaTree, new_tree: JavaTree, old_index: Index, old_mapping):
        self.index, self.after, self.work, self.runner, self.config = index, after, work, runner, config
        self.report, self.say, self.old_tree, self.new_tree = report, say, old_tree, new_tree
        self.old_index, self.old_mapping = old_index, old_mapping
        self.anchors: list[str] = []       # carried counterparts: members of files a built project compiles

    def reindex(self) -> None:
        self.index.build(self.after, self.work, progress=False)

    def text(self, member) -> str:
        return source_text((self.work / member.path).read_bytes()).encode("utf-8")[member.start_byte:member.end_byte].decode("utf-8")

    def judge(self, member, code: str, java=None, scope: str = "covering"):
        return self.runner.run(self.index, member, code, scope=scope, allow=allowances(self.index, java), java=java)

    def structural(self, c: Change, target_id: str) -> None:
        """Rename or move the C# counterpart (with call sites); judged by its covering tests, else put back."""
        started = time.time()
        member = self.index.method(target_id)
        snap = FileSnapshot(self.work)
        if member is None:
            self.report.add(Outcome(c, target_id, c.kind, "skipped", reason="the counterpart is not in the port"))
            return
        new_java = self.new_tree.methods[c.new_id]
        old_java = self.old_tree.methods[c.old_id]
        if c.kind == "renamed":
            name = _renamed(member.name, old_java.name, new_java.name)
            if name is None:
                self.report.add(Outcome(c, target_id, "rename", "for a human", reason=(
                    f"the port names it {member.name}, not after {old_java.name}: choose the new name by hand")))
                return
            unique = sum(1 for m in self.index.all_methods("target") if m.name == member.name) == 1
            rename_member(self.work, member, name, unique, snap)
            note = "" if unique else f"call sites not renamed: other members are named {member.name} too"
            new_id = target_id.replace(f".{member.name}", f".{name}", 1)
        else:
            dest = self.old_mapping.target_type("source:" + new_java.type_id.split(":", 1)[1])
            owner = self.index.type(member.type_id)
            dest_type = self.index.type(dest.target_id) if dest else None
            if dest_type is None or owner is None:
                self.report.add(Outcome(c, target_id, "move", "for a human",
                                        reason="the new Java type has no C# counterpart to move the member into"))
                return
            move_member(self.work, member, owner, dest_type, snap)
            note = "" if owner.container == dest_type.container else \
                f"callers outside {dest_type.container} may need `using {dest_type.container};`"
            new_id = f"{dest_type.id}.{target_id.split(':', 1)[1][len(owner.id.split(':', 1)[1]) + 1:]}"
        self.reindex()
        moved = self.index.method(new_id)
        result = self.judge(moved, self.text(moved), new_java) if moved is not None else None
        status = result.status if result is not None else "error"
        if status != "passed":
            snap.restore()
            self.reindex()
        self.report.add(Outcome(c, target_id, "rename" if c.kind == "renamed" else "move", status,
                                new_target=new_id if status == "passed" else None, reason=note or _why(result),
                                seconds=round(time.time() - started, 2), files=sorted(snap.saved)))

    def edit_all(self, changes: list[Change], carried: dict[str, str], editor: Editor) -> None:
        """Edit each changed member, callees first (by the new Java bodies' calls)."""
        by_new = {c.new_id: c for c in changes}
        levels = order_levels(dependency_graph({c.new_id: self.new_tree.methods[c.new_id] for c in changes}))
        for level in levels:
            for new_id in level:
                c = by_new[new_id]
                if c.kind in ("renamed", "moved") and (c.similarity or 0) >= 1.0:
                    continue                     # the same body: the structural step was the whole change
                self._edit(c, self.report.current_target(c, carried[c.old_id]), editor)

    def _edit(self, c: Change, target_id: str, editor: Editor) -> None:
        started = time.time()
        member = self.index.method(target_id)
        if member is None:
            self.report.add(Outcome(c, target_id, "edit", "skipped", reason="the counterpart is not in the port"))
            return
        old, new = self.old_tree.methods[c.old_id], self.new_tree.methods[c.new_id]
        mapping = load_mapping(self.index, self.config.mapping)
        resolver = resolver_for_pair(self.index, mapping, new, member)
        current = self.text(member)
        adapted = _adapted(self.old_index, self.old_mapping, old, target_id, current)
        try:
            edit = editor(old, new, current, resolver, index=self.index, mapping=mapping, member=member,
                          commits=c.commits)
        except Exception as exc:          # a task error: recorded, the sync goes on
            self.report.add(Outcome(c, target_id, "edit", "error", reason=f"{type(exc).__name__}: {exc}",
                                    adapted=adapted))
            return
        result = self.judge(member, edit.code, new)
        if result.status == "passed":
            from repotrans.execution.workspace.apply import apply_candidate
            path = self.work / member.path
            text, _ = apply_candidate(source_text(path.read_bytes()), member, edit.code)
            path.write_bytes(text.encode("utf-8"))
            self.reindex()
        self.report.add(Outcome(c, target_id, "edit", result.status, how=edit.how, reason=_why(result),
                                notes=edit.notes, adapted=adapted, seconds=round(time.time() - started, 2),
                                tokens=edit.tokens, code=edit.code))

    def removed(self, c: Change, target_id: str | None, remove: bool) -> None:
        if target_id is None:
            self.report.add(Outcome(c, None, "remove", "nothing to do", reason="the port has no counterpart"))
            return
        if not remove:
            self.report.add(Outcome(c, target_id, "remove", "for a human",
                                    reason="removed upstream; kept in the port (--remove deletes it when the "
                                           "port's tests pass without it)"))
            return
        started = time.time()
        baseline = self.whole_suite_result()
        member = self.index.method(target_id)
        snap = FileSnapshot(self.work)
        remove_member(self.work, member, snap)
        self.reindex()
        result = self.whole_suite_result()
        status = result.status if result is not None else "error"
        if status == "passed" and baseline is not None and result.tests_run < baseline.tests_run:
            # a test file that no longer compiles is quarantined: fewer tests pass, none fails
            status = "fewer tests"
            why = f"kept: without it {baseline.tests_run - result.tests_run} of the port's tests no longer build"
        else:
            why = "deleted: the whole suite passes without it" if status == "passed" else \
                f"kept: without it the suite ends {status} ({_why(result)})"
        if status != "passed":
            snap.restore()
            self.reindex()
        self.report.add(Outcome(c, target_id, "remove", "passed" if status == "passed" else "for a human",
                                reason=why, seconds=round(time.time() - started, 2)))

    def whole_suite_result(self):
        """The port's whole suite on the work copy as it is, judged through one unchanged member: a carried
        counterpart when there is one (a file a built project compiles), else the first member with a body."""
        preferred = (self.index.method(i) for i in self.anchors)
        anchor = next((m for m in preferred if m is not None and m.body and m.kind == "method"), None)
        anchor = anchor or next((m for m in self.index.all_methods("target") if m.body and m.kind == "method"),
                                None)
        if anchor is None:
            return None
        return self.judge(anchor, self.text(anchor), None, scope="all")

    def whole_suite(self) -> dict:
        result = self.whole_suite_result()
        if result is None:
            return {}
        return {"status": result.status, "reason": _why(result), "tests_run": result.tests_run,
                "tests_failed": result.tests_failed}


def _renamed(cs_name: str, old: str, new: str) -> str | None:
    """The port's new name for a member renamed upstream, by the port's own rule for the old name."""
    for rule in (pascal, lambda n: n):
        if cs_name == rule(old):
            return rule(new)
    return None


def _adapted(old_index: Index, old_mapping, old_java, target_id: str, current: str) -> bool | None:
    """Whether the port's current body differs from the builtin translation of the old Java (a local
    adaptation) or is that translation (False); None when it cannot tell."""
    from repotrans.experiments.sync_diff import similarity
    from repotrans.policy.java2cs import translate_method

    member = old_index.method(target_id)
    java = old_index.method(old_java.id)
    if member is None or java is None:
        return None
    try:
        plain = translate_method(java, resolver_for_pair(old_index, old_mapping, java, member), member)
    except Exception:                    # the builtin cannot translate it: no verdict on adaptation
        return None
    return similarity(plain.split("\n", 1)[-1], member.body) < 0.98


def _why(result) -> str:
    if result is None:
        return "not judged"
    if result.status == "passed":
        return ""
    first = next((f"{d.code}: {d.message}" for d in result.diagnostics if d.severity == "error"), None)
    first = first or next((f"{f.name}: {f.message}" for f in result.failures), None)
    return (result.reason or first or result.status).splitlines()[0][:200]
