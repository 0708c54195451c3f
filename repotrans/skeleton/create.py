"""`repotrans skeleton`: plan, write, compile-check and re-index, in that order.

    result = create_skeleton(index, ["org.acme.geo.*"], check=True)

After it the index holds the new C# types, so the mapping pairs them with their Java types and
`batch` finds their placeholder bodies (callee-first with everything else).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from repotrans.errors import InputError
from repotrans.execution.toolchains.api import BuildSettings
from repotrans.index.store import Index
from repotrans.mapping.load import load_mapping
from repotrans.mapping.overrides import MappingOverrides
from repotrans.skeleton.check import CheckReport, check_skeleton
from repotrans.skeleton.generate import SkeletonPlan, plan_skeleton
from repotrans.skeleton.place import Placement, place_files


@dataclass
class SkeletonResult:
    plan: SkeletonPlan
    placement: Placement | None = None
    check: CheckReport | None = None
    mapped: dict[str, str] = field(default_factory=dict)     # Java type -> C# type after re-indexing

    def render(self) -> str:
        parts = [self.plan.render()]
        if self.placement is not None:
            for project, files in sorted(self.placement.projects.items()):
                parts.append(f"added to {project}'s Compile items: {len(files)} file(s)")
            for project, files in sorted(self.placement.globbed.items()):
                parts.append(f"picked up by {project}'s default glob: {len(files)} file(s)")
            parts += [f"note: {n}" for n in self.placement.notes]
        if self.check is not None:
            parts.append(self.check.render())
        if self.mapped:
            parts.append(f"mapping now pairs {len(self.mapped)} of the generated types")
        return "\n".join(parts)


def create_skeleton(index: Index, patterns: list[str], check: bool = True, dry_run: bool = False,
                    overrides: MappingOverrides | None = None,
                    settings: BuildSettings = BuildSettings()) -> SkeletonResult:
    """Generate the C# skeleton of every selected Java type the port lacks (see the module doc); the
    mapping with the user's `overrides`, the compile check with the user's build `settings`."""
    if not patterns:
        raise InputError("skeleton: name the Java types with --types 'org.acme.pkg.*' (a glob over qualified names)")
    mapping = load_mapping(index, overrides)
    plan = plan_skeleton(index, mapping, patterns)
    result = SkeletonResult(plan)
    if dry_run or not plan.files:
        return result
    target, source = index.root("target"), index.root("source")
    taken = [f for f in plan.files if (target / f.path).exists()]
    for f in taken:
        plan.skipped[", ".join(f.java_types)] = f"{f.path} already exists in the target"
    plan.files = [f for f in plan.files if f not in taken]
    result.placement = place_files(target, {f.path: f.text for f in plan.files})
    if check:
        result.check = check_skeleton(target, plan.files, settings=settings)
    index.build(source, target, progress=False)
    mapping = load_mapping(index, overrides)
    for f in plan.files:
        for java in f.java_types:
            for t in index.find_types("source", java.rsplit(".", 1)[-1]):
                if t.qualified_name == java and mapping.target_type(t.id) is not None:
                    result.mapped[java] = mapping.target_type(t.id).target_id
    return result
