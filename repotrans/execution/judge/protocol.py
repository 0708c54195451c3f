"""What judges a candidate, as its callers see it: the per-candidate Runner and the BatchingJudge
(builds shared between concurrent candidates) both implement `Judge`; `batching.judge_for` returns one."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from repotrans.verdicts.results import TestResult
    from repotrans.index.model import Method

Scope = Literal["covering", "all"]


class Judge(Protocol):
    """Verdicts of candidates for target members; closed (its sandboxes) by its owner."""

    def run(self, index, method: "Method", code: str, *, java: "Method | None", scope: Scope | None = None,
            keep_run: bool = False, allow: frozenset[str] | None = None, scaled: bool = False) -> "TestResult":
        """`code` as the new text of `method`, judged by its covering tests (Runner.run says how); `java`:
        its Java original, required (None where it has none): a placeholder it does not call blocks nothing,
        and what it reaches is what the candidate may use (`allow`, derived from it when not given)."""
        ...

    def run_many(self, index, items: list[tuple["Method", str, frozenset[str], "Method | None"]], *,
                 scope: Scope | None = None, scaled: bool = False, base: Path | None = None) -> list["TestResult"]:
        """Verdicts of several (member, code, allowances, Java original); `base`: the index's target tree holds
        every item's code already and differs from `base` only in the items' files (Runner.run_many)."""
        ...

    def language_version(self, target_root: Path) -> str:
        """The C# version candidates must keep to."""
        ...

    def close(self) -> None:
        """Release the sandboxes; the judge may be used again afterwards."""
        ...

    def __enter__(self) -> "Judge":
        ...

    def __exit__(self, *exc) -> None:
        ...
