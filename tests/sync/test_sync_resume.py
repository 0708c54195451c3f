"""A sync run resumes (sync_resume): each judged step is kept in the run folder's RunStore as it finishes,
the same command run again judges only what is left, and a folder of another range or configuration is
refused with one line naming what differs. The ledger on its own, then a real interrupted sync of the
bundled history (mono builds and the port's NUnit tests)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from repotrans.agents.config import AgentConfig
from repotrans.errors import ConfigError
from repotrans.runs.store import RunStore
from repotrans.sync.run import SyncInputs, run_sync
from repotrans.sync.diff import Change
from repotrans.sync.report import Outcome
from repotrans.sync.resume import SyncLedger
from repotrans.translator.edit import edit_member

from .conftest import SAMPLE
from .test_sync_run import OUTCOMES, outcomes_of

INPUTS = {"range": ["aaaaaaa", "bbbbbbb"], "target": "/port", "remove": False, "junit": None}
CHANGE = Change("body", "source:p.A.f(int)", "source:p.A.f(int)", 0.8, ("1234567",))


def test_the_ledger_keeps_judged_steps_and_retries_errors(tmp_path):
    config = AgentConfig().to_json()
    store = RunStore(tmp_path)
    ledger = SyncLedger(store, tmp_path, INPUTS, config)
    assert not ledger.resuming
    done = Outcome(CHANGE, "target:P.A.F(int)", "edit", "passed", how="statements", code="{ }", seconds=1.5)
    ledger.record(done, "passed")
    other = Change("body", "source:p.A.g()", "source:p.A.g()", 0.5, ("1234567",))
    ledger.record(Outcome(other, "target:P.A.G()", "edit", "error", reason="boom"), "error")
    store.close()
    store = RunStore(tmp_path)
    again = SyncLedger(store, tmp_path, INPUTS, {**config, "model": {**config["model"], "cache": False},
                                                 "cache": {"root": "/elsewhere", "embeddings": False}})
    assert again.resuming
    assert again.finished(CHANGE, "edit") == done             # the same Outcome, change and all
    assert again.finished(CHANGE, "rename") is None
    assert again.finished(other, "edit") is None               # a task error is tried again
    store.close()


@pytest.mark.parametrize("inputs, config, named", [
    ({**INPUTS, "range": ["aaaaaaa", "ccccccc"]}, {},
     'inputs.range (was ["aaaaaaa", "bbbbbbb"], now ["aaaaaaa", "ccccccc"])'),
    (INPUTS, {"name": "fake-coder"}, 'config.model.name (was null, now "fake-coder")'),
    ({**INPUTS, "remove": True}, {}, "inputs.remove (was false, now true)"),
])
def test_another_range_or_configuration_is_refused_naming_it(tmp_path, inputs, config, named):
    base = AgentConfig().to_json()
    store = RunStore(tmp_path)
    SyncLedger(store, tmp_path, INPUTS, base)
    with pytest.raises(ConfigError) as err:
        SyncLedger(store, tmp_path, inputs, {**base, "model": {**base["model"], **config}})
    store.close()
    message = str(err.value)
    assert "\n" not in message and named in message and "choose another --run-dir" in message


@pytest.mark.slow
def test_an_interrupted_sync_resumes_without_judging_again(history, tmp_path):
    """The first run stops (Ctrl-C) at its second edit; the same run again edits and judges only the rest,
    and ends with the outcomes of an uninterrupted run (test_sync_run's OUTCOMES)."""
    config = replace(AgentConfig(), model=replace(AgentConfig().model, name="builtin"))
    inputs = SyncInputs(target=SAMPLE / "csharp", run_dir=tmp_path / "run", source=history, since="v1",
                        until="v2")
    edited: list[str] = []

    def stopping(old, new, current, resolver, **_):
        if edited:
            raise KeyboardInterrupt
        edited.append(new.id)
        return edit_member(old, new, current, resolver)

    with pytest.raises(KeyboardInterrupt):
        run_sync(inputs, config, stopping)
    first = edited[0]
    again: list[str] = []

    def counting(old, new, current, resolver, **_):
        again.append(new.id)
        return edit_member(old, new, current, resolver)

    report = run_sync(inputs, config, counting)
    edits = [o for o in report.outcomes if o.action == "edit"]
    assert first not in again and len(again) == len(edits) - 1
    assert sorted(outcomes_of({"outcomes": [o.to_json() for o in report.outcomes]})) == sorted(OUTCOMES)
    with pytest.raises(ConfigError, match="inputs.range"):
        run_sync(replace(inputs, until="v1"), config)
