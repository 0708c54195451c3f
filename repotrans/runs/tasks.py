"""Run one translation task to a TaskRecord: the unit that batch and ablate repeat.

A task error (model server gone, runner broke) becomes a record with status "error"; only a
configuration error (ConfigError) propagates, because it would fail every other task too.
"""
from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

from repotrans.agents.config import AgentConfig
from repotrans.agents.models import make_client
from repotrans.agents.session import brief_for
from repotrans.agents.state import TranslationRun
from repotrans.agents.workdir import Workdir
from repotrans.agents.team import run_translation
from repotrans.errors import ConfigError
from repotrans.verdicts.status import ERROR, UNTESTED
from repotrans.runs.store import TaskRecord
from repotrans.mapping.task import TranslationTask
from repotrans.tools.context import ToolContext


def task_dir_name(task_id: str) -> str:
    """A file-system-safe folder name for a task id."""
    return re.sub(r"[^A-Za-z0-9_.,-]+", "_", task_id)[:150]


def run_task(work: Workdir, task: TranslationTask, config: AgentConfig, *, run_dir: Path, config_name: str,
             dataset: str, adjust=None, limiter=None) -> TaskRecord:
    """Translate one task of the workload `work` with the agents, its test runs through the workload's
    judge; `adjust(brief)` may rebind services (the evaluation oracle); `limiter` (agents.limits) is
    shared by the tasks of a run."""
    task_id = task.target_method_id.split(":", 1)[1]
    started = time.time()
    try:
        brief = brief_for(work, task, config)
        if adjust is not None:
            adjust(brief)
        client = make_client(config, ToolContext(work.index, work.mapping, lookups=work.lookups), limiter=limiter,
                             servers=work.caches.servers)
        outcome = asyncio.run(run_translation(brief, client, run_dir / task_dir_name(task_id)))
    except ConfigError:
        raise
    except Exception as exc:          # any other failure is this task's alone: record it, go on
        run: TranslationRun | None = getattr(exc, "run", None)     # what the agents kept before it failed
        tokens = run.total_tokens if run else {"prompt": 0, "completion": 0, "calls": 0}
        return TaskRecord(config=config_name, dataset=dataset, task_id=task_id, status=ERROR,
                          rounds=run.rounds if run else 0, prompt_tokens=tokens["prompt"],
                          completion_tokens=tokens["completion"], model_calls=tokens["calls"],
                          seconds=round(time.time() - started, 2), error=f"{type(exc).__name__}: {exc}",
                          progress=run.progress if run else None)
    status = outcome.status if outcome.status != UNTESTED else ERROR
    return TaskRecord(
        config=config_name, dataset=dataset, task_id=task_id, status=status,
        rounds=outcome.repair_rounds, prompt_tokens=outcome.tokens["prompt"],
        completion_tokens=outcome.tokens["completion"], model_calls=outcome.tokens["calls"],
        seconds=outcome.seconds, cost=outcome.cost, code=outcome.code, result=outcome.result,
        error=None if status != ERROR else "no candidate was tested", progress=outcome.progress)
