"""Metrics over run records: rates, error types of unsolved tasks, overlap of solved tasks, costs."""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import combinations

from repotrans.verdicts.status import LABELS, PARTIAL
from repotrans.runs.economy import Economy
from repotrans.runs.store import TaskRecord



@dataclass
class RateRow:
    config: str
    dataset: str            # "all" for the row over every dataset
    tasks: int
    compiled: int
    passed: int
    errors: dict[str, int]  # error type -> count, unsolved tasks only (partial ones among them: not solved)
    prompt_tokens: float    # means per task
    completion_tokens: float
    model_calls: float
    seconds: float
    cost: float | None

    @property
    def compile_rate(self) -> float:
        return self.compiled / self.tasks if self.tasks else 0.0

    @property
    def pass_rate(self) -> float:
        return self.passed / self.tasks if self.tasks else 0.0

    @property
    def partial(self) -> int:
        """Tasks passed only on the tests that could run: counted apart, never in pass_rate."""
        return self.errors.get(LABELS[PARTIAL], 0)

    @property
    def partial_rate(self) -> float:
        return self.partial / self.tasks if self.tasks else 0.0


def _row(config: str, dataset: str, recs: list[TaskRecord]) -> RateRow:
    n = len(recs)
    costs = [r.cost for r in recs if r.cost is not None]
    return RateRow(
        config=config, dataset=dataset, tasks=n,
        compiled=sum(r.compiled for r in recs),
        passed=sum(r.passed for r in recs),
        errors=dict(Counter(LABELS[r.status] for r in recs if not r.passed)),
        prompt_tokens=sum(r.prompt_tokens for r in recs) / n if n else 0.0,
        completion_tokens=sum(r.completion_tokens for r in recs) / n if n else 0.0,
        model_calls=sum(r.model_calls for r in recs) / n if n else 0.0,
        seconds=sum(r.seconds for r in recs) / n if n else 0.0,
        cost=sum(costs) / n if costs else None,
    )


def rate_rows(records: list[TaskRecord]) -> list[RateRow]:
    """One row per (config, dataset), plus one per config over all datasets when there are several."""
    groups: dict[tuple[str, str], list[TaskRecord]] = defaultdict(list)
    for r in records:
        groups[(r.config, r.dataset)].append(r)
    rows = [_row(c, d, recs) for (c, d), recs in sorted(groups.items())]
    datasets = {d for _, d in groups}
    if len(datasets) > 1:
        by_config: dict[str, list[TaskRecord]] = defaultdict(list)
        for r in records:
            by_config[r.config].append(r)
        rows += [_row(c, "all", recs) for c, recs in sorted(by_config.items())]
    return rows


def solved_sets(records: list[TaskRecord]) -> dict[str, set[str]]:
    """Config -> the set of solved tasks, each named 'dataset/task_id'."""
    solved: dict[str, set[str]] = defaultdict(set)
    for r in records:
        solved.setdefault(r.config, set())
        if r.passed:
            solved[r.config].add(f"{r.dataset}/{r.task_id}")
    return dict(solved)


def overlap(records: list[TaskRecord]) -> dict:
    """Pairwise intersections and each config's unique solves."""
    solved = solved_sets(records)
    pairs = {f"{a} & {b}": len(solved[a] & solved[b]) for a, b in combinations(sorted(solved), 2)}
    unique = {c: sorted(s - set().union(*(o for k, o in solved.items() if k != c)))
              for c, s in solved.items()}
    return {"solved": {c: len(s) for c, s in solved.items()}, "pairs": pairs, "unique": unique}


def intersections(records: list[TaskRecord]) -> list[tuple[frozenset[str], int]]:
    """UpSet data: for each exact combination of configs that solved a task, how many tasks."""
    solved = solved_sets(records)
    by_task: dict[str, set[str]] = defaultdict(set)
    for config, tasks in solved.items():
        for t in tasks:
            by_task[t].add(config)
    counts = Counter(frozenset(cs) for cs in by_task.values())
    return sorted(counts.items(), key=lambda kv: (-kv[1], sorted(kv[0])))


def economy_rows(records: list[TaskRecord]) -> list[tuple[str, str, Economy]]:
    """(config, dataset, Economy) per (config, dataset)."""
    groups: dict[tuple[str, str], list[TaskRecord]] = defaultdict(list)
    for r in records:
        groups[(r.config, r.dataset)].append(r)
    return [(c, d, Economy.of(recs)) for (c, d), recs in sorted(groups.items())]
