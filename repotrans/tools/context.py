"""What every tool call sees: the index, the mapping and the function under translation (if any)."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from repotrans.errors import InputError
from repotrans.mapping.mapping import Mapping
from repotrans.mapping.overrides import MappingOverrides
from repotrans.mapping.load import load_mapping
from repotrans.mapping.api_cache import load_api_map
from repotrans.mapping.api_map import ApiMap
from repotrans.index.model import Method, TypeDecl
from repotrans.mapping.task import TranslationTask, resolve_task

if TYPE_CHECKING:
    from repotrans.index.store import Index


class Lookups:
    """What the tools computed once over one index and mapping (the learned API map, the C# types by
    namespace, a task's referenced names): the contexts of one run share it (the run context,
    agents.workdir.Workdir, owns one; `ToolContext.for_task` passes it on); a new mapping (loaded
    after a re-index) gets a new one."""

    def __init__(self, mapping: Mapping):
        self.mapping = mapping
        self.memo: dict = {}


class ToolError(InputError):
    """A tool cannot answer; `extra` is merged into the JSON error (e.g. ambiguous candidates)."""

    def __init__(self, message: str, did_you_mean: list[str] | None = None, extra: dict | None = None):
        super().__init__(message, did_you_mean)
        self.extra = extra or {}


@dataclass
class ToolContext:
    index: Index
    mapping: Mapping
    task: TranslationTask | None = None
    lookups: Lookups | None = field(default=None, repr=False, compare=False)   # None: this context's own

    def __post_init__(self) -> None:
        if self.lookups is None:
            self.lookups = Lookups(self.mapping)
        elif self.lookups.mapping is not self.mapping:
            raise ValueError("a ToolContext's lookups must be those of its own mapping")

    def for_task(self, task: TranslationTask | None) -> "ToolContext":
        """This view with `task` under translation, sharing its lookups."""
        return replace(self, task=task)

    @classmethod
    def from_workdir(cls, workdir: Path, function: str | None = None,
                     overrides: MappingOverrides | None = None) -> "ToolContext":
        """Open the index in `workdir`, load the mapping (with the user's `overrides`) and resolve
        `function` (C# or Java signature)."""
        from repotrans.index.store import Index

        index = Index.open(Path(workdir), must_exist=True)
        mapping = load_mapping(index, overrides)
        task = resolve_task(index, mapping, function) if function else None
        return cls(index, mapping, task)

    def task_methods(self) -> tuple[Method, Method]:
        """(Java method, C# member) under translation; ToolError when no task is set."""
        if self.task is None:
            raise ToolError("no function under translation: this tool needs a task "
                            "(pass --function to `repotrans tool`)")
        source = self.index.method(self.task.source_method_id)
        target = self.index.method(self.task.target_method_id)
        if source is None or target is None:
            raise ToolError("the function under translation is no longer in the index; re-index")
        return source, target

    @property
    def hidden_method_id(self) -> str | None:
        """The C# member whose body no tool may show."""
        return self.task.target_method_id if self.task else None

    def _memo(self) -> dict:
        return self.lookups.memo

    def api_map(self) -> ApiMap:
        """The port's learned API map (mapping.api_map), loaded once per index and mapping. It holds every
        aligned pair: leave the task's own out (`ApiMap.without`) before a translation reads it."""
        memo = self._memo()
        if "api_map" not in memo:
            memo["api_map"] = load_api_map(self.index, self.mapping)
        return memo["api_map"]

    def task_api_map(self) -> ApiMap:
        """The API map without the pair under translation (its ground truth never feeds its own task)."""
        api = self.api_map()
        return api.without(self.task.source_method_id, self.task.target_method_id) if self.task else api

    def target_types_by_namespace(self) -> dict[str, list[TypeDecl]]:
        """Top-level C# types grouped by namespace (computed once per index and mapping)."""
        memo = self._memo()
        if "ns_types" not in memo:
            groups: dict[str, list[TypeDecl]] = defaultdict(list)
            for t in self.index.types("target"):
                if t.outer_id is None:
                    groups[t.container].append(t)
            memo["ns_types"] = dict(groups)
        return memo["ns_types"]
