"""What the small-model rules did over a run's tasks (model calls, deterministic fallbacks, calls and
test runs saved): the batch summary prints it, the reports show it."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from repotrans.runs.store import TaskRecord


@dataclass
class Economy:
    """What the small-model rules (agents.progress) did over some tasks: model calls, the steps that
    took their deterministic default, and the calls and test runs they saved."""
    tasks: int = 0
    model_calls: int = 0
    fallbacks: dict[str, int] = field(default_factory=dict)     # step -> times it fell back
    identical_requests_avoided: int = 0
    repeated_candidates_avoided: int = 0

    @classmethod
    def of(cls, records: list[TaskRecord]) -> "Economy":
        fallbacks: Counter = Counter(step for r in records for step in r.fallbacks)
        return cls(tasks=len(records), model_calls=sum(r.model_calls for r in records), fallbacks=dict(fallbacks),
                   identical_requests_avoided=sum(r.saved("identical_requests_avoided") for r in records),
                   repeated_candidates_avoided=sum(r.saved("repeated_candidates_avoided") for r in records))

    @property
    def any(self) -> bool:
        return bool(self.fallbacks or self.identical_requests_avoided or self.repeated_candidates_avoided)

    @property
    def calls_per_task(self) -> float:
        return self.model_calls / self.tasks if self.tasks else 0.0

    def fallbacks_text(self) -> str:
        return ", ".join(f"{step} {n}" for step, n in sorted(self.fallbacks.items())) or "none"

    def line(self) -> str:
        """One line for the batch summary."""
        return (f"model calls: {self.model_calls} ({self.calls_per_task:.1f} per task); fallbacks: "
                f"{self.fallbacks_text()}; identical requests avoided: {self.identical_requests_avoided}; "
                f"repeated candidates not judged again: {self.repeated_candidates_avoided}")
