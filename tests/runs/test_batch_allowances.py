"""Batch re-judging and the combined check judge a candidate with the allowances of its Java original,
computed by the one function every path uses (policy_allow.allowances), not with none. The runner
here records what it is asked to judge (the judging itself is tested in tests/execution); the index,
the Java fixture and the run store are real."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from repotrans.verdicts.results import TestResult
from repotrans.runs.batch_end import combined_check
from repotrans.runs.rejudge import WorkCopy, rejudge_blocked
from repotrans.runs.store import RunStore, TaskRecord
from repotrans.runs.tasks import task_dir_name
from repotrans.index.store import Index

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "policy_reach"


class RecordingRunner:
    """Answers `passed` and keeps (member id, scope, allowances) of each call, and the Java original
    each was judged against (`java` is required, as Runner.run requires it)."""

    def __init__(self):
        self.calls: list[tuple[str, str, frozenset]] = []
        self.javas: list = []

    def run(self, index, method, code, *, java, scope=None, allow=frozenset(), **_):
        self.calls.append((method.id, scope, frozenset(allow)))
        self.javas.append(java)
        return TestResult(status="passed", tests_run=1)

    def run_many(self, index, items, *, scope=None, **_):
        return [self.run(index, method, code, scope=scope, allow=allow, java=java) for method, code, allow, java in items]


@pytest.fixture()
def pair(tmp_path):
    shutil.copytree(FIXTURE / "csharp", tmp_path / "csharp")      # passing candidates are applied to it
    index = Index.open(tmp_path / "wd")
    index.build(FIXTURE / "java", tmp_path / "csharp", progress=False)
    [names] = index.find_methods("target", "DiskStore.Names")
    [twice] = index.find_methods("target", "Shell.Twice")
    java = {names.id: index.find_methods("source", "DiskStore.names")[0],
            twice.id: index.find_methods("source", "Shell.twice")[0]}
    return index, names, twice, java, RunStore(tmp_path / "run")


def _record(m, status, code=None):
    return TaskRecord(config="batch", dataset="policy_reach", task_id=m.id.split(":", 1)[1], status=status, code=code)


def _as_is(index, m) -> str:
    return (index.root("target") / m.path).read_bytes()[m.start_byte:m.end_byte].decode("utf-8")


def test_rejudging_a_blocked_task_keeps_the_allowances_of_its_java_original(pair):
    index, names, twice, java, store = pair
    runner = RecordingRunner()
    blocked = [_record(names, "blocked", code=_as_is(index, names)), _record(twice, "blocked", code=_as_is(index, twice))]
    tasks = index.root("target").parent / "tasks"
    (tasks / task_dir_name(blocked[0].task_id)).mkdir(parents=True)
    (tasks / task_dir_name(blocked[0].task_id) / "result.json").write_text('{"status": "blocked", "code": "x"}')
    said = []
    rejudge_blocked(WorkCopy(index, FIXTURE / "java", index.root("target")), blocked, runner, store, java,
                    said.append, tasks)
    saved = json.loads((tasks / task_dir_name(blocked[0].task_id) / "result.json").read_text())
    assert saved["status"] == "passed" and saved["code"] == "x" and saved["verdicts"] == [
        {"judged": "first", "status": "blocked"}, {"judged": "again at the end (alone)", "status": "passed"}]
    assert said == [f"  blocked -> passed        {r.task_id}" for r in blocked]      # one line per changed task
    # DiskStore's Java class defines toString: its C# class may format (allowances.declares)
    assert runner.calls == [(names.id, "covering", frozenset({"file_system", "formatting"})),
                            (twice.id, "covering", frozenset())]
    assert runner.javas == [java[names.id], java[twice.id]]         # the callee check of `blocked` (issue 32)
    assert {r.task_id: r.status for r in store.records()} == {names.id[7:]: "passed", twice.id[7:]: "passed"}
    store.close()


def test_the_combined_check_judges_each_member_with_its_allowances(pair):
    index, names, twice, java, store = pair
    runner = RecordingRunner()
    combined_check(index, [_record(names, "passed"), _record(twice, "passed")], runner, java=java)
    assert runner.calls == [(names.id, "all", frozenset({"file_system", "formatting"}))]
    assert runner.javas == [java[names.id]]
    store.close()


class ScriptedRunner(RecordingRunner):
    """Answers each member with the status scripted for it (judging every member of a group at once)."""

    def __init__(self, statuses: dict[str, str]):
        super().__init__()
        self.statuses = statuses

    def run(self, index, method, code, *, java, scope=None, allow=frozenset(), **_):
        self.calls.append((method.id, scope, frozenset(allow)))
        self.javas.append(java)
        return TestResult(status=self.statuses[method.id], tests_run=1)


def test_a_unit_passes_only_when_every_member_passes_and_only_a_passing_unit_records_verdicts(pair, tmp_path):
    from repotrans.runs.rejudge import judge_together

    index, names, twice, java, store = pair
    group = [_record(names, "blocked", code=_as_is(index, names)), _record(twice, "blocked", code=_as_is(index, twice))]
    work = index.root("target")

    def verdicts(statuses):
        runner = ScriptedRunner(statuses)
        out = judge_together(WorkCopy(index, FIXTURE / "java", work), group, runner, java, lambda line: None)
        return runner, {rec.task_id: result for rec, result in out}

    # every member passes: the unit passes, each verdict says with whom
    _, out = verdicts({names.id: "passed", twice.id: "passed"})
    assert {t: r.status for t, r in out.items()} == {names.id[7:]: "passed", twice.id[7:]: "passed"}
    assert "passed together with " + twice.id[7:] in out[names.id[7:]].reason
    # one member still blocked behind something outside the unit: the other's pass rested on it, so the
    # unit is not accepted and no verdict of that run is recorded (each keeps its own)
    _, out = verdicts({names.id: "passed", twice.id: "blocked"})
    assert out == {}
    # a member fails in the unit: that verdict was taken beside it and others' candidates, so it is not
    # recorded either; it leaves, and one member is no unit
    runner, out = verdicts({names.id: "passed", twice.id: "test_failure"})
    assert out == {} and len(runner.calls) == 2
    assert runner.javas == [java[names.id], java[twice.id]]
    store.close()


def test_a_member_no_test_of_its_own_reaches_is_judged_by_the_tests_that_stopped_in_its_placeholder(pair):
    """Twice has no covering test of its own (no_tests in the unit); Names's tests stopped in Twice's
    placeholder before: Twice passes with the unit, judged by them, and the unit is accepted. Without that
    record Twice's no_tests is its own: it leaves, and one member is no unit."""
    from repotrans.runs.rejudge import judge_together

    index, names, twice, java, store = pair
    work = index.root("target")
    behind = _record(names, "blocked", code=_as_is(index, names))
    behind.result = {"status": "blocked", "behind": [twice.id]}
    group = [behind, _record(twice, "no_tests", code=_as_is(index, twice))]
    out = judge_together(WorkCopy(index, FIXTURE / "java", work), group,
                         ScriptedRunner({names.id: "passed", twice.id: "no_tests"}), java, lambda line: None)
    verdicts = {rec.task_id: result for rec, result in out}
    assert {t: r.status for t, r in verdicts.items()} == {names.id[7:]: "passed", twice.id[7:]: "passed"}
    assert "judged by the tests of " + names.id[7:] in verdicts[twice.id[7:]].reason
    assert judge_together(WorkCopy(index, FIXTURE / "java", work),
                          [_record(names, "blocked", code=_as_is(index, names)), group[1]],
                          ScriptedRunner({names.id: "passed", twice.id: "no_tests"}), java, lambda line: None) == []
    # the unit still fails when the member whose tests went through it fails
    assert judge_together(WorkCopy(index, FIXTURE / "java", work), group,
                          ScriptedRunner({names.id: "test_failure", twice.id: "no_tests"}), java, lambda line: None) == []
    store.close()


def test_only_records_blocked_behind_each_other_form_a_unit(pair):
    from repotrans.runs.rejudge import mutual_units

    index, names, twice, java, store = pair
    a, b, c = (_record(m, "blocked", code="x") for m in (names, twice, names))
    c.task_id = "Other.M()"
    a.result = {"behind": [twice.id]}
    b.result = {"behind": [names.id]}
    c.result = {"behind": [names.id]}              # behind a, but nothing is behind c: not in the unit
    assert [[r.task_id for r in unit] for unit in mutual_units([a, b, c])] == [[a.task_id, b.task_id]]
    b.result = {"behind": ["target:Outside.Placeholder()"]}     # behind a member that is no pending task
    assert mutual_units([a, b, c]) == []
    # an untested record (no test reached it: its callers are placeholders too) waits on the blocked
    # records whose tests stopped in its placeholder: they are judged as one
    u = _record(twice, "no_tests", code="x")
    u.task_id, u.result = "Callee.M()", {}
    c.result = {"behind": ["target:Callee.M()"]}
    assert [[r.task_id for r in unit] for unit in mutual_units([a, b, c, u])] == [[c.task_id, u.task_id]]
    store.close()
