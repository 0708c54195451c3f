"""What a batch would do, without doing it (`batch --dry-run`): its tasks in levels (callees first), and
what the mapping could not match, with the way to fix each kind:

- a C# placeholder whose Java counterpart the mapping does not know: it is not a task (correct the
  mapping in repotrans.toml [mapping.methods]);
- a Java method of a matched type with no C# member: the batch cannot translate it until the port
  declares it (add its C# signature with a placeholder body); a Java `main` whose work the port's own
  program runs (mapping.entry_points) is no such miss, as parity and --create-missing hold;
- a Java type with no C# counterpart: `repotrans skeleton --types GLOB` writes it with placeholders.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from repotrans.runs.batch import listed_tasks
from repotrans.runs.task_choice import task_reasons
from repotrans.runs.ordering import dependency_graph, order_levels
from repotrans.index.placeholders import placeholder_form
from repotrans.index.store import Index
from repotrans.mapping.drift import drifted_in_port
from repotrans.mapping.entry_points import PortPrograms
from repotrans.mapping.mapping import Mapping
from repotrans.mapping.task import TranslationTask
from repotrans.mapping.test_code import index_test_files

SHOWN = 12          # items listed per kind of miss (the rest is counted)


@dataclass
class BatchPlan:
    tasks: list[TranslationTask]
    levels: list[list[str]]                                     # task ids (C# members), callees first
    calls: dict[str, set[str]] = field(default_factory=dict)    # task id -> task ids it calls
    unmatched_placeholders: dict[str, str] = field(default_factory=dict)   # C# member -> why no Java side
    missing_members: dict[str, list[str]] = field(default_factory=dict)    # C# type -> Java methods it lacks
    missing_types: dict[str, str] = field(default_factory=dict)            # Java type -> why unmatched
    reasons: dict[str, str] = field(default_factory=dict)                  # task id -> why it is a task
    packages: list[str] = field(default_factory=list)      # Java packages of the misses, for the hints' glob

    def glob(self) -> str:
        """A --create-missing glob over the user's own packages of the misses: the one package, or the
        packages' longest common prefix ('com.example.*'), else the first package."""
        if not self.packages:
            return "your.package.*"
        parts = [p.split(".") for p in sorted(set(self.packages))]
        common = []
        for segments in zip(*parts):
            if len(set(segments)) > 1:
                break
            common.append(segments[0])
        return ".".join(common or parts[0]) + ".*"

    def render(self, show_all: bool = False) -> str:
        """The plan for people; lists of misses stop after SHOWN items unless `show_all`."""
        def _listed(items) -> list[str]:
            return _list(items, show_all)

        lines = [f"{len(self.tasks)} tasks in {len(self.levels)} level(s), callees first:"]
        for n, level in enumerate(self.levels):
            lines.append(f"  level {n}:")
            for tid in level:
                calls = sorted(c.split(":", 1)[1] for c in self.calls.get(tid, ()))
                why = self.reasons.get(tid, "listed in --functions")
                lines.append(f"    {tid.split(':', 1)[1]}: {why}" + (f"  (calls {', '.join(calls)})" if calls else ""))
        if self.unmatched_placeholders:
            lines.append(f"{len(self.unmatched_placeholders)} C# placeholder(s) the mapping pairs with no Java method "
                         "(not tasks; name the pair under [mapping.methods] in repotrans.toml):")
            lines += _listed(f"{m}: {why}" for m, why in sorted(self.unmatched_placeholders.items()))
        if self.missing_members:
            count = sum(len(v) for v in self.missing_members.values())
            lines.append(f"{count} Java method(s) of matched types have no C# member (declare each in the C# type "
                         "with a placeholder body `throw new NotImplementedException();` to make it a task, "
                         f"or run batch with --create-missing '{self.glob()}'):")
            lines += _listed(f"{cs}: {', '.join(java if show_all else java[:4])}"
                             f"{', ...' if len(java) > 4 and not show_all else ''}"
                             for cs, java in sorted(self.missing_members.items()))
        if self.missing_types:
            lines.append(f"{len(self.missing_types)} Java type(s) have no C# counterpart (`repotrans skeleton --types "
                         f"'{self.glob()}'` or `batch --create-missing '{self.glob()}'` writes them with "
                         "placeholder bodies):")
            lines += _listed(f"{t}: {why}" for t, why in sorted(self.missing_types.items()))
        return "\n".join(lines)


def _list(items, show_all: bool) -> list[str]:
    items = list(items)
    if show_all or len(items) <= SHOWN:
        return [f"  {item}" for item in items]
    return [f"  {item}" for item in items[:SHOWN]] + [f"  ... and {len(items) - SHOWN} more (--all lists them)"]


def _member(source_id: str) -> str:
    """'org.acme.Foo.bar(java.util.List, int)' -> 'bar(java.util.List, int)' (dots inside the parameters kept)."""
    head, paren, params = source_id.partition("(")
    return head.rsplit(".", 1)[-1] + paren + params


def _empty_constructor(m) -> bool:
    """A C# constructor with an empty body is complete as written far more often than a placeholder."""
    return m.kind == "constructor" and "NotImplemented" not in (m.body or "")


def _hidden_constructor(m) -> bool:
    """A private parameterless Java constructor (a utility class's): C# has static classes instead."""
    return m.kind == "constructor" and not m.params and "private" in m.modifiers


def plan_batch(index: Index, mapping: Mapping, functions: Path | None = None, weak: bool = False,
               java_tests: tuple[str, ...] = ()) -> BatchPlan:
    """The tasks a batch over this index would run (each with why), their levels, and the mapping's misses;
    `java_tests`: the user's Java test folders ([mapping]), never library code."""
    reasons = {} if functions else task_reasons(index, mapping, weak)
    tasks = (listed_tasks(index, mapping, functions) if functions else
             [TranslationTask(target_method_id=t, source_method_id=s) for t, (s, _) in reasons.items()])
    java = {t.target_method_id: index.method(t.source_method_id) for t in tasks}
    deps = dependency_graph({k: v for k, v in java.items() if v is not None})
    plan = BatchPlan(tasks=tasks, levels=order_levels(deps), calls=deps,
                     reasons={t: why for t, (_, why) in reasons.items()})
    task_ids = {t.target_method_id for t in tasks}
    tests = index_test_files(index, "target")
    for m in index.all_methods("target"):
        if m.id not in task_ids and m.path not in tests and placeholder_form(m.body) in ("throws", "accessor throws") \
                and mapping.source_method(m.id) is None:
            plan.unmatched_placeholders[m.id.split(":", 1)[1]] = "no Java method pairs with it"
    junit = index_test_files(index, "source", java_tests)      # Java test code is never library code
    missing: dict[str, list[str]] = defaultdict(list)
    programs = PortPrograms(index, tests)
    for source_id, why in mapping.unmatched_methods.items():
        m = index.method(source_id)
        if m is None or why == "enclosing type unmatched" or _hidden_constructor(m) or m.path in junit:
            continue
        match = mapping.target_type(m.type_id) if m.type_id else None
        if match is not None and programs.running(m, index.type(match.target_id)) is not None:
            continue                                  # a main the port's program runs is there (parity's rule)
        if match is not None and drifted_in_port(index, mapping, source_id) is None:
            missing[match.target_id.split(":", 1)[1]].append(_member(source_id.split(":", 1)[1]))
            plan.packages.append(index.type(m.type_id).container)
    plan.missing_members = dict(missing)
    plan.missing_types = {t.split(":", 1)[1]: why for t, why in mapping.unmatched_types.items()
                          if not why.startswith("test code") and getattr(index.type(t), "path", None) not in junit}
    plan.packages = [p for p in plan.packages + [getattr(index.type(f"source:{t}"), "container", "")
                                                 for t in plan.missing_types] if p]
    return plan
