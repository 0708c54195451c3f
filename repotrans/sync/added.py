"""Added Java members and types in a sync: the existing create-missing path (skeletons for new types,
placeholder members for new methods of matched types), then `batch` fills those placeholders callee-first
and judges them with the port's tests, writing what passed into the work copy. A created member that did
not pass is taken out again (and a created file left with no passing member is deleted), so the work
copy holds the port plus what passed, nothing else."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from repotrans.runs.batch import placeholder_tasks, run_batch
from repotrans.sync.diff import Change
from repotrans.sync.port import FileSnapshot, remove_member
from repotrans.sync.report import Outcome
from repotrans.index.placeholders import is_placeholder
from repotrans.skeleton.missing import create_missing


@dataclass
class CreatedAdded:
    """What create-missing wrote for the added members, before the edits (so an edit's resolver names a new
    callee as the port will declare it, and an edit that calls one fills it in the same judged step)."""
    placeholders: set[str]          # placeholder members the work copy had before
    files: set[str]                 # .cs files the work copy had before
    skipped: dict[str, str]         # Java member -> why create-missing wrote nothing for it
    compiled: bool


def create_added(ctx: Any, added: list[Change]) -> CreatedAdded | None:
    """Placeholders for the added members of `added` in the work copy (create-missing); None when there
    are none. Run before the edits; port_added fills, judges and cleans up after them."""
    members = [c for c in added if c.member]
    if not members:
        return None
    owners = sorted({ctx.new_tree.methods[c.new_id].type_id.split(":", 1)[1] for c in members})
    placeholders = {m.id for m in ctx.index.all_methods("target") if is_placeholder(m.body)}
    files = {p.relative_to(ctx.work).as_posix() for p in ctx.work.rglob("*.cs")}
    ctx.say(f"create-missing: {', '.join(owners)}")
    created = create_missing(ctx.index, owners, overrides=ctx.config.mapping,
                             settings=ctx.config.execution.build_settings())
    if created.compiled:
        ctx.reindex()
    return CreatedAdded(placeholders, files, created.members.skipped, bool(created.compiled))


def port_added(ctx: Any, added: list[Change], run_dir: Path, junit: Path | None = None, resume: bool = False,
               created: CreatedAdded | None = None) -> None:
    """Translate and judge the added members of `added` (types count through their members) that no edit
    filled already, in the placeholders `created` (create_added) wrote; created here when not given.
    `ctx`: the sync's shared state (sync_steps.SyncSteps: index, work copy, config, report, ledger, reindex()).
    With `junit` (the new revision's Java test sources) the JUnit tests of the types that gained members are
    translated into the port's tests first (labelled, as `batch --junit` does), so the new bodies have tests. With
    `resume`, members an earlier run of this folder judged keep their outcomes: when all did, nothing is
    created again; otherwise the phase runs again and its batch resumes (RUN/batch)."""
    done = {o.change.new_id for o in ctx.report.outcomes if o.action == "create"}
    members = [c for c in added if c.member and c.new_id not in done]
    if resume and members and all(ctx.ledger.finished(c, "create") for c in members):
        for c in members:
            ctx.resumed(c, "create")
        _types(ctx, added)
        return
    created = created or create_added(ctx, members)
    if created is None:
        _types(ctx, added)
        return
    if not created.compiled:
        for c in members:
            ctx.report.add(Outcome(c, None, "create", "for a human",
                                   reason="what create-missing wrote does not compile with the port"))
        return
    placeholders, snapshot_files = created.placeholders, created.files
    owners = sorted({ctx.new_tree.methods[c.new_id].type_id.split(":", 1)[1] for c in members})
    ctx.reindex()
    translated = _translate_tests(ctx, junit, owners) if junit is not None else []
    wanted = {c.new_id for c in members}
    tasks = [t for t in placeholder_tasks(ctx.index, ctx.mapping()) if t.source_method_id in wanted]
    listed = run_dir.parent / "added-functions.txt"
    listed.write_text("".join(f"{t.target_method_id}\n" for t in tasks), encoding="utf-8")
    records = {}
    if tasks:
        summary = run_batch(ctx.after, ctx.work, run_dir, ctx.config, functions=listed, write=True, progress=False,
                            quiet=True, resume=resume, baseline=False)    # ctx.config holds the port's baseline
        ctx.say(summary.render().splitlines()[-1] if summary.render() else "batch done")
        from repotrans.runs.store import RunStore
        store = RunStore(run_dir)
        try:
            records = {"target:" + r.task_id: r for r in store.records()}
        finally:
            store.close()
    ctx.reindex()
    by_java = {t.source_method_id: t.target_method_id for t in tasks}
    snap = FileSnapshot(ctx.work)
    for c in members:
        target = by_java.get(c.new_id)
        rec = records.get(target) if target else None
        if target is None:
            why = created.skipped.get(c.new_id.split(":", 1)[1], "create-missing wrote no member for it")
            ctx.report.add(Outcome(c, None, "create", "for a human", reason=why))
            continue
        status = rec.status if rec is not None else "error"
        ctx.judged(Outcome(c, target, "create", status, how="batch", seconds=rec.seconds if rec else 0.0,
                           tokens=(rec.prompt_tokens + rec.completion_tokens) if rec else 0,
                           reason="" if status == "passed" else _reason(rec), code=rec.code if rec else None,
                           judged_by="translated tests" if rec is not None and rec.translated_verdict else ""),
                   status)
    removed = 0
    while True:        # every placeholder create-missing wrote that batch did not fill (one at a time: offsets)
        left = [m for m in ctx.index.all_methods("target") if is_placeholder(m.body) and m.id not in placeholders]
        if not left:
            break
        remove_member(ctx.work, left[0], snap)
        removed += 1
        ctx.reindex()
    if removed and translated:         # they call members that are gone again: they would not build
        for rel in translated:
            (ctx.work / rel).unlink(missing_ok=True)
        ctx.say(f"translate-tests: {len(translated)} translated fixture(s) taken out with the members they test")
    for rel in sorted({p.relative_to(ctx.work).as_posix() for p in ctx.work.rglob("*.cs")} - snapshot_files):
        kept = [m for m in ctx.index.all_methods("target") if m.path == rel]
        if not kept:
            (ctx.work / rel).unlink()
    ctx.reindex()
    _types(ctx, added)


def _types(ctx: Any, added: list[Change]) -> None:
    """An added type's outcome: passed when one of its members passed (nothing of it is written otherwise)."""
    for c in added:
        if not c.member:
            ok = any(o.change.new_id and o.change.new_id.startswith(c.new_id + ".") and o.status == "passed"
                     for o in ctx.report.outcomes)
            ctx.report.add(Outcome(c, None, "create type", "passed" if ok else "for a human",
                                   reason="" if ok else "no member of the new type passed; nothing written"))


def _translate_tests(ctx: Any, junit: Path, owners: list[str]) -> list[str]:
    """The JUnit tests of `owners` (FooTest, FooTests, FooTestCase) as labelled NUnit fixtures in the work
    copy; the paths written (relative to it)."""
    from repotrans.errors import InputError
    from repotrans.junit.port_tests import port_junit_tests

    client = None
    from repotrans.agents.providers import provider

    if not provider(ctx.config.model.name).deterministic:
        from repotrans.agents.models import make_client
        client = make_client(ctx.config)
    patterns = [f"{t}{suffix}" for t in owners for suffix in ("Test", "Tests", "TestCase")]
    try:
        ported = port_junit_tests(ctx.index, ctx.mapping(), junit, patterns,
                                  settings=ctx.config.execution.build_settings(), client=client,
                                  rounds=ctx.config.agents.max_repair_rounds)
    except InputError as exc:          # no JUnit test for these types: judged by the port's tests alone
        ctx.say(f"translate-tests: {exc}")
        return []
    ctx.say(ported.render())
    ctx.reindex()
    return [t.path for t in ported.tests]


def _reason(rec) -> str:
    if rec is None:
        return "not judged"
    if rec.error:
        return rec.error.splitlines()[0][:200]
    res = rec.result or {}
    return (res.get("reason") or res.get("status") or rec.status)[:200]
