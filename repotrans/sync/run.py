"""`repotrans sync`: carry a range of upstream Java commits into the C# port.

    report = run_sync(SyncInputs(...), config)

1. The Java side at both revisions (a git range, or --source-before DIR and --source DIR as trees) and
   the member-level diff between them, each change with the upstream commits that touched it (sync_diff).
2. The mapping of the OLD revision with the port gives each changed member's C# counterpart.
3. In a work copy of the port (RUN/work/target), callee-first: renames and moves with their call sites
   (sync_port), then each changed member edited (old Java, new Java, the Java diff and the port's body:
   policy.edit for the builtin, sync_model for a model), each judged by the port's own covering tests;
   an edit that fails is put back. Added members and types go through create-missing and batch
   (runs/batch) in RUN/batch; a created member that did not pass is taken out again. Removed
   members are reported; with `remove` one is deleted only when the whole suite passes without it.
4. The work copy then holds the port plus what passed, nothing else. `write` and RUN/changes.patch
   (`git apply` takes it) go through batch --write's member splicer (sync_write): edited members are
   spliced into the user's files as they are now (one the user changed since is skipped and named);
   files of structural steps are taken whole unless the user changed them since (then named). RUN/sync.json and RUN/sync.md report
   per upstream commit (sync_report).
The steps are sync_steps'; each judged step is kept in RUN/results.sqlite as it finishes (sync_resume), so
the same command run again in the same folder resumes: finished steps are taken as they are, the work copy
is kept, and only the rest is judged (the added members' batch resumes too). Another range, port or
configuration in that folder is refused.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from repotrans.agents.config import AgentConfig
from repotrans.errors import ConfigError
from repotrans.runs.run import Run, RunInputs
from repotrans.sync.diff import diff_trees, read_tree, touched, with_commits
from repotrans.sync.files import file_digests
from repotrans.sync.history import Commit, commits, export, resolve
from repotrans.sync.report import Outcome, SyncReport
from repotrans.sync.resume import SyncLedger
from repotrans.sync.steps import Editor, SyncSteps
from repotrans.sync.write import edit_records, sync_write
from repotrans.runs.write_back import original_texts
from repotrans.index.store import Index
from repotrans.mapping.load import load_mapping
from repotrans.translator.edit import Edit, edit_member


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
    before, after, history = _upstream(inputs)
    with Run(RunInputs(after, inputs.target, run), config) as sync_run:
        ledger = SyncLedger(sync_run.store, run, _bound_inputs(inputs, before, after, history), config.to_json())
        report, work, originals, start_texts, digests = _steps(inputs, sync_run, ledger, before, after, history,
                                                               editor or _builtin_editor)
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


def _steps(inputs: SyncInputs, sync_run: Run, ledger: SyncLedger, before: Path, after: Path,
           history: list[Commit], editor: Editor) -> tuple[SyncReport, Path, dict, dict, dict]:
    """The sync's judged steps in the run's work copy (see the module doc): the report, the work copy, the
    carried members' original texts and their files' texts and digests at the start (for writing back)."""
    run, say, config = inputs.run_dir, inputs.progress, sync_run.config
    say(f"diff: {before.name} -> {after.name}")
    old_tree, new_tree = read_tree(before), read_tree(after)
    per_commit = [(c, touched(inputs.source, c)) for c in history] if history else []
    changes = with_commits(diff_trees(old_tree, new_tree), per_commit)
    digests = file_digests(inputs.target)
    work = sync_run.work
    if ledger.resuming and work.is_dir():
        say(f"resuming: the work copy {work} holds what passed so far")
    else:
        sync_run.fresh_work_copy()
    old_index = Index.open(run / "workspace-old")
    old_index.build(before, inputs.target, progress=False)
    old_mapping = load_mapping(old_index, config.mapping)
    index = sync_run.open_index()
    report = SyncReport(commits=history, changes=changes, revisions=(before.name, after.name))
    carried = {c.old_id: old_mapping.target_method(c.old_id) for c in changes if c.member and c.old_id}
    carried = {k: v.target_id for k, v in carried.items() if v is not None}
    originals = original_texts(old_index, sorted({t.split(":", 1)[1] for t in carried.values()}))
    start_texts = {o["path"]: (inputs.target / o["path"]).read_bytes().decode("utf-8", "replace")
                   for o in originals.values()}
    runner = sync_run.runner
    try:
        # the untouched port's failing, flipping and not-running tests are left out of every step's verdict
        report.baseline = sync_run.untouched_baseline(say).facts()
        config = sync_run.config
        ctx = SyncSteps(index=index, after=after, work=work, runner=runner, config=config, report=report, say=say,
                        old_tree=old_tree, new_tree=new_tree, old_index=old_index, old_mapping=old_mapping,
                        ledger=ledger)
        ctx.anchors = sorted(set(carried.values()))
        for c in changes:
            if c.kind == "field":
                report.add(Outcome(c, None, "field", "for a human", reason=(
                    "the field's type, modifiers or initializer changed upstream: sync edits members only; "
                    "port the change to its counterpart by hand" if c.old_id else
                    "a new public field or constant upstream: sync edits members only; add it to the port by hand")))
            elif c.member and c.old_id and c.old_id not in carried and c.kind != "removed":
                reason = old_mapping.unmatched_methods.get(c.old_id, "no C# counterpart in the mapping")
                report.add(Outcome(c, None, "not carried", "skipped", reason=f"the port has no counterpart: {reason}"))
        junit = _junit(inputs, after)
        if junit is not None and (before / inputs.junit).is_dir() and not inputs.junit.is_absolute():
            from repotrans.sync.upstream_tests import port_test_changes
            port_test_changes(ctx, before / inputs.junit, junit, inputs.source, history, inputs.junit.as_posix())
        structural = [c for c in changes if c.kind in ("renamed", "moved") and c.old_id in carried]
        for c in structural:
            ctx.structural(c, carried[c.old_id])
        edits = [c for c in changes if c.kind in ("body", "signature", "renamed", "moved") and c.old_id in carried
                 and not report.failed_structurally(c)]
        ctx.pin_history(changes, carried)
        added = [c for c in changes if c.kind == "added"]
        from repotrans.sync.added import create_added, port_added
        finished = ledger.resuming and all(ledger.finished(c, "create") for c in added if c.member)
        created = None if finished else create_added(ctx, added)
        if created is not None and created.compiled:
            ctx.added = {c.new_id: c for c in added if c.member}
        ctx.edit_all(edits, carried, editor)
        for c in changes:
            if c.kind == "removed" and c.member:
                ctx.removed(c, carried.get(c.old_id), inputs.remove)
        if added:
            port_added(ctx, added, run / "batch", junit, resume=ledger.resuming, created=created)
        report.whole_suite = ctx.whole_suite()
    finally:
        old_index.close()
    return report, work, originals, start_texts, digests


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


def _bound_inputs(inputs: SyncInputs, before: Path, after: Path, history: list[Commit]) -> dict:
    """What a run folder is bound to: the range (resolved revisions, or the two trees), the port, and the
    flags that change what is judged."""
    if history or inputs.source_before is None:
        span = [before.name, after.name]
    else:
        span = [str(before.resolve()), str(after.resolve())]
    return {"range": span, "target": str(inputs.target.resolve()), "remove": inputs.remove,
            "junit": str(inputs.junit) if inputs.junit else None}


def _junit(inputs: SyncInputs, after: Path) -> Path | None:
    """--junit: a folder of the new revision's tree (relative: under the Java side's root), else as given."""
    if inputs.junit is None:
        return None
    path = inputs.junit if inputs.junit.is_absolute() else after / inputs.junit
    if not path.is_dir():
        raise ConfigError(f"--junit: {inputs.junit} is no folder of the new Java revision (e.g. src/test/java)")
    return path


def _builtin_editor(old, new, current_text: str, resolver, names=None, **_) -> Edit:
    return edit_member(old, new, current_text, resolver, names)


