"""The steps of one sync on its work copy, each judged by the port's own tests (sync.py runs them in
order): a rename or move with its call sites (sync_port), an edit of a changed member (old Java, new
Java, the Java diff and the port's body; an edit that fails is put back), a removal (only with
`remove`, only when the whole suite passes without it), and the whole suite at the end. Each finished
step's outcome goes to the report and, with its verdict, to the ledger a resumed run reads
(sync_resume)."""
from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Callable

from repotrans.agents.config import AgentConfig

from repotrans.execution.capability.allowances import allowances
from repotrans.execution.judge.runner import Runner
from repotrans.runs.ordering import dependency_graph, order_levels
from repotrans.sync.diff import Change, JavaTree, similarity
from repotrans.sync.port import FileSnapshot, move_member, remove_member, rename_member, widen_member
from repotrans.sync.reach import inaccessible, new_callees
from repotrans.sync.report import Outcome, SyncReport
from repotrans.sync.resume import SyncLedger
from repotrans.index.parse import source_text
from repotrans.index.store import Index
from repotrans.mapping.history import history_overrides
from repotrans.mapping.load import load_mapping
from repotrans.mapping.overrides import MappingOverrides
from repotrans.translator.cs_types import pascal
from repotrans.mapping.api_cache import load_api_map
from repotrans.translator.edit import Edit
from repotrans.translator.edit_names import learn_port_names, resolver_for_pair
from repotrans.translator.java2cs import translate_method

Editor = Callable[..., Edit]        # (old Java, new Java, current C# text, resolver, index, mapping) -> Edit


class SyncSteps:
    """What the steps of one sync share: the new index over the work copy (`after`: the new Java tree,
    `work`: the work copy), the runner, the configuration, the report and how progress is said, both
    revisions' Java trees, the old revision's index and mapping over the untouched port, and the ledger of
    finished steps. Built once by sync.run (keyword arguments only)."""

    def __init__(self, *, index: Index, after: Path, work: Path, runner: Runner, config: AgentConfig,
                 report: SyncReport, say: Callable[[str], None], old_tree: JavaTree, new_tree: JavaTree,
                 old_index: Index, old_mapping, ledger: SyncLedger):
        self.index, self.after, self.work, self.runner, self.config = index, after, work, runner, config
        self.report, self.say, self.old_tree, self.new_tree = report, say, old_tree, new_tree
        self.old_index, self.old_mapping, self.ledger = old_index, old_mapping, ledger
        self.anchors: list[str] = []       # carried counterparts: members of files a built project compiles
        self.history = MappingOverrides()  # the upstream history's pairs (mapping.history), under the user's
        self.added: dict[str, Change] = {}  # added members with placeholders (new Java id -> change)
        self.superseded: dict[str, str] = {}  # the port's tests upstream changed, left out of verdicts -> why

    def mapping(self):
        """The new revision's mapping: the upstream history's pairs whose members are in the work copy now
        (an edit may have changed a counterpart's signature since), the user's overrides on top."""
        found = {j: t for j, t in self.history.methods.items()
                 if self.index.method("source:" + j) is not None and self.index.method("target:" + t) is not None}
        history = MappingOverrides({}, found, self.history.origin) if found else MappingOverrides()
        return load_mapping(self.index, history.merged(self.config.mapping))

    def pin_history(self, changes: list[Change], carried: dict[str, str]) -> None:
        """Each carried Java member whose id changed upstream (renamed, moved, another signature) keeps its
        counterpart in the new revision's mapping, as the port names it now."""
        self.history = history_overrides([(c.old_id, c.new_id, self.report.current_target(c, carried[c.old_id]))
                                          for c in changes if c.old_id in carried and c.new_id])

    def supersede(self, tests: dict[str, str]) -> None:
        """Leave the port's own tests `tests` (":Ns.Fixture.Test" -> why) out of the verdicts from now on, as
        known failures are: upstream changed what they assert, and their translations judge instead."""
        if tests:
            self.superseded.update(tests)
            limits = self.runner.limits
            self.runner.limits = replace(limits, known_failures=limits.known_failures + tuple(tests.items()))

    def judged(self, outcome: Outcome, verdict: str) -> None:
        """A step's outcome, into the report and (with the judge's verdict) the ledger."""
        self.report.add(outcome)
        self.ledger.record(outcome, verdict)

    def resumed(self, c: Change, action: str) -> bool:
        """Take this step's outcome from an earlier run of this folder, when it finished there."""
        done = self.ledger.finished(c, action)
        if done is not None:
            self.report.add(done)
        return done is not None

    def reindex(self) -> None:
        self.index.build(self.after, self.work, progress=False)

    def text(self, member) -> str:
        return source_text((self.work / member.path).read_bytes()).encode("utf-8")[member.start_byte:member.end_byte].decode("utf-8")

    def judge(self, member, code: str, java=None, scope: str = "covering"):
        return self.runner.run(self.index, member, code, scope=scope, allow=allowances(self.index, java), java=java)

    def structural(self, c: Change, target_id: str) -> None:
        """Rename or move the C# counterpart (with call sites); judged by its covering tests, else put back."""
        if self.resumed(c, "rename" if c.kind == "renamed" else "move"):
            return
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
        self.judged(Outcome(c, target_id, "rename" if c.kind == "renamed" else "move", status,
                            new_target=new_id if status == "passed" else None, reason=note or _why(result),
                            seconds=round(time.time() - started, 2), files=sorted(snap.saved)), status)

    def edit_all(self, changes: list[Change], carried: dict[str, str], editor: Editor) -> None:
        """Edit each changed member, callees first (by the new Java bodies' calls)."""
        by_new = {c.new_id: c for c in changes}
        levels = order_levels(dependency_graph({c.new_id: self.new_tree.methods[c.new_id] for c in changes}))
        for level in levels:
            for new_id in level:
                c = by_new[new_id]
                if c.kind in ("renamed", "moved") and (c.similarity or 0) >= 1.0:
                    continue                     # the same body: the structural step was the whole change
                if self.resumed(c, "edit"):
                    continue
                self._edit(c, self.report.current_target(c, carried[c.old_id]), editor)

    def _edit(self, c: Change, target_id: str, editor: Editor) -> None:
        started = time.time()
        member = self.index.method(target_id)
        if member is None:
            self.report.add(Outcome(c, target_id, "edit", "skipped", reason="the counterpart is not in the port"))
            return
        old, new = self.old_tree.methods[c.old_id], self.new_tree.methods[c.new_id]
        mapping = self.mapping()
        api = load_api_map(self.index, mapping).without(new.id, member.id)
        resolver = resolver_for_pair(self.index, mapping, new, member, api=api)
        current = self.text(member)
        plain, port = _old_translation(self.old_index, self.old_mapping, old, target_id)
        adapted = None if plain is None else similarity(plain, port) < 0.98
        names = learn_port_names(plain, port) if plain is not None else None
        try:
            edit = editor(old, new, current, resolver, index=self.index, mapping=mapping, member=member,
                          commits=c.commits, names=names)
        except Exception as exc:          # a task error: recorded, the sync goes on
            self.report.add(Outcome(c, target_id, "edit", "error", reason=f"{type(exc).__name__}: {exc}",
                                    adapted=adapted))
            return
        snap = FileSnapshot(self.work)
        filled = self._fill_callees(new, mapping, api, snap)
        member = self.index.method(target_id)
        result = self.judge(member, edit.code, new)
        widened = self._widen(result, mapping, snap) if result.status == "compile_error" else []
        if widened:
            member = self.index.method(target_id)
            result = self.judge(member, edit.code, new)
        notes = edit.notes + [f"filled {t} (added upstream), judged with this edit" for _, t, _ in filled] + \
            [f"{t} made internal: Java reaches it from its package" for t in widened] + \
            ([f"{len(self.superseded)} port test(s) upstream changed left out of the verdict (their "
              f"translations judge): {', '.join(sorted(t.lstrip(':') for t in self.superseded))[:300]}"]
             if self.superseded else [])
        if result.status == "passed":
            from repotrans.execution.workspace.apply import apply_candidate
            path = self.work / member.path
            text, _ = apply_candidate(source_text(path.read_bytes()), member, edit.code)
            path.write_bytes(text.encode("utf-8"))
        elif snap.saved:
            snap.restore()
        if result.status == "passed" or snap.saved:
            self.reindex()
        self.judged(Outcome(c, target_id, "edit", result.status, how=edit.how, reason=_why(result),
                            notes=notes, adapted=adapted, seconds=round(time.time() - started, 2),
                            tokens=edit.tokens, code=edit.code, files=sorted(snap.saved)), result.status)
        if result.status == "passed":
            for added, tid, code in filled:
                self.judged(Outcome(added, tid, "create", "passed", how="with the edit",
                                    reason=f"judged with the edit of {target_id}, its caller", code=code), "passed")

    def _fill_callees(self, new, mapping, api, snap: FileSnapshot) -> list[tuple[Change, str, str]]:
        """Translate (builtin) the added members the new Java body calls into their placeholders in the
        work copy, under `snap`; (change, C# id, code) of each."""
        from repotrans.execution.workspace.apply import apply_candidate
        filled = []
        for added, target in new_callees(new, self.added, self.new_tree.methods, self.index, mapping):
            java = self.new_tree.methods[added.new_id]
            resolver = resolver_for_pair(self.index, mapping, java, target, api=api.without(java.id, target.id))
            try:
                code = translate_method(java, resolver, target)
            except Exception:            # the builtin cannot translate it: left to port_added's batch
                continue
            target = self.index.method(target.id)
            path = self.work / target.path
            snap.keep(target.path)
            text, _ = apply_candidate(source_text(path.read_bytes()), target, code)
            path.write_bytes(text.encode("utf-8"))
            self.reindex()
            filled.append((added, target.id, code))
        return filled

    def _widen(self, result, mapping, snap: FileSnapshot) -> list[str]:
        """Widen the port members the candidate may not call (sync_reach.inaccessible); their ids."""
        widened = [m.id for m in inaccessible(result, self.index, mapping) if widen_member(self.work, m, snap)]
        if widened:
            self.reindex()
        return widened

    def removed(self, c: Change, target_id: str | None, remove: bool) -> None:
        if target_id is None:
            self.report.add(Outcome(c, None, "remove", "nothing to do", reason="the port has no counterpart"))
            return
        if not remove:
            self.report.add(Outcome(c, target_id, "remove", "for a human",
                                    reason="removed upstream; kept in the port (--remove deletes it when the "
                                           "port's tests pass without it)"))
            return
        if self.resumed(c, "remove"):
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
        self.judged(Outcome(c, target_id, "remove", "passed" if status == "passed" else "for a human",
                            reason=why, seconds=round(time.time() - started, 2)), result.status if result else "error")

    def whole_suite_result(self):
        """The port's whole suite on the work copy as it is, judged through one unchanged member: a carried
        counterpart when there is one (a file a built project compiles), else the first member with a body."""
        preferred = (self.index.method(i) for i in self.anchors)
        anchor = next((m for m in preferred if m is not None and m.body and m.kind in ("method", "constructor")),
                      None)
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


def _old_translation(old_index: Index, old_mapping, old_java, target_id: str) -> tuple[str | None, str]:
    """(the builtin's translation of the old Java body, the port's body for it): the port's body differs
    from the translation where it is a local adaptation or names things its own way (edit_names reads
    those names); (None, body) when the builtin cannot translate it."""
    member = old_index.method(target_id)
    java = old_index.method(old_java.id)
    if member is None or java is None:
        return None, ""
    api = load_api_map(old_index, old_mapping).without(java.id, member.id)
    try:
        plain = translate_method(java, resolver_for_pair(old_index, old_mapping, java, member, api=api), member)
    except Exception:                    # the builtin cannot translate it: no verdict on adaptation
        return None, member.body or ""
    return plain.split("\n", 1)[-1], member.body or ""


def _why(result) -> str:
    if result is None:
        return "not judged"
    if result.status == "passed":
        return ""
    first = next((f"{d.code}: {d.message}" for d in result.diagnostics if d.severity == "error"), None)
    first = first or next((f"{f.name}: {f.message}" for f in result.failures), None)
    reason = (result.reason or first or result.status).splitlines()[0]
    if first and result.reason and first.splitlines()[0] not in reason:
        reason = f"{reason}; first: {first.splitlines()[0]}"      # the summary alone hides the cause
    return reason[:300]
