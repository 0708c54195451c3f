"""What a sync run has finished, kept in its run folder's RunStore (results.sqlite, as `batch --resume`
does), so a run stopped part way (Ctrl-C, a crash, a machine restart) continues where it stopped.

Each judged step (a rename, move, edit, removal or created member) is one row, committed the moment its
verdict is known: its key is the step and the change (kind, old and new Java ids), its status the verdict
and its result the whole Outcome. A re-run in the same folder with the same range, port and configuration
takes those outcomes as they are and judges only the rest (an `error` row, a task error, is tried again).
A run folder is bound to what it was started with: another range, port or configuration is refused with
one line naming the setting to change back (or another --run-dir to choose).
"""
from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

from repotrans.errors import ConfigError
from repotrans.verdicts.status import ERROR, VERDICTS
from repotrans.runs.store import RunStore, TaskRecord
from repotrans.sync.diff import Change
from repotrans.sync.report import Outcome

CONFIG = "sync"
# settings that cannot change a verdict: where caches live, how often a server is retried
_NEUTRAL = {"model": {"cache", "cache_dir", "max_retries", "timeout"}, "retrieval": {"threads"}}
_NEUTRAL_SECTIONS = {"cache"}


def judged_settings(config_json: dict) -> dict:
    """The configuration (AgentConfig.to_json()) without the settings that cannot change a verdict."""
    return {section: {k: v for k, v in values.items() if k not in _NEUTRAL.get(section, ())}
            if isinstance(values, dict) else values for section, values in config_json.items()
            if section not in _NEUTRAL_SECTIONS}


def _differences(was: dict, now: dict, prefix: str = "") -> list[str]:
    out = []
    for key in sorted(set(was) | set(now)):
        a, b = was.get(key), now.get(key)
        if isinstance(a, dict) and isinstance(b, dict):
            out += _differences(a, b, f"{prefix}{key}.")
        elif a != b:
            out.append(f"{prefix}{key} (was {json.dumps(a)}, now {json.dumps(b)})")
    return out


def step_key(change: Change, action: str) -> str:
    """The row key of one step of one change."""
    return "|".join((action, change.kind, change.old_id or "", change.new_id or ""))


def outcome_from_json(d: dict) -> Outcome:
    """An Outcome as Outcome.to_json() wrote it."""
    c = dict(d["change"])
    c["commits"] = tuple(c.get("commits") or ())
    known = {f.name for f in fields(Outcome)}
    return Outcome(**{**{k: v for k, v in d.items() if k in known}, "change": Change(**c)})


class SyncLedger:
    """The finished steps of one sync run folder (see the module doc)."""

    def __init__(self, store: RunStore, run_dir: Path, inputs: dict, config_json: dict):
        """`store`: the run folder's (the run's, which closes it); `inputs`: what the run is of ({"range": [old,
        new], "target": path, ...}); `config_json`: the configuration (AgentConfig.to_json()). Raises
        ConfigError when the folder holds another run."""
        self.store = store
        self.dataset = " -> ".join(inputs["range"])
        bound = json.loads(json.dumps({"inputs": inputs, "config": judged_settings(config_json)}, default=str))
        was = self.store.meta("sync")
        if was is None and self.store.records():
            raise ConfigError(f"{run_dir} holds another kind of run (batch?); choose another --run-dir")
        if was is not None and was != bound:
            changed = _differences(was, bound)
            raise ConfigError(f"{run_dir} holds a sync of another {', '.join(changed[:3])}; run it with the "
                              f"same settings to resume, or choose another --run-dir")
        self.store.set_meta("sync", bound)
        self._done = {r.task_id: outcome_from_json(r.result["outcome"]) for r in self.store.records()
                      if r.config == CONFIG and r.dataset == self.dataset and r.status != ERROR and r.result}

    @property
    def resuming(self) -> bool:
        """Whether an earlier run in this folder finished some steps."""
        return bool(self._done)

    def finished(self, change: Change, action: str) -> Outcome | None:
        """The outcome of this step when an earlier run judged it."""
        return self._done.get(step_key(change, action))

    def record(self, outcome: Outcome, verdict: str) -> None:
        """Keep a judged step: `verdict` is the judge's status (a verdict or `error`)."""
        status = verdict if verdict in VERDICTS or verdict == ERROR else ERROR
        self.store.add(TaskRecord(CONFIG, self.dataset, step_key(outcome.change, outcome.action), status,
                                  seconds=outcome.seconds, prompt_tokens=outcome.tokens, code=outcome.code,
                                  result={"outcome": outcome.to_json()}))
        if status != ERROR:
            self._done[step_key(outcome.change, outcome.action)] = outcome

