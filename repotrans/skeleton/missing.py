"""`batch --create-missing GLOB`: before any body, the selected Java types the port lacks become C#
skeletons (create.py) and the Java methods their matched C# types lack become placeholder members
(members.py); the index is rebuilt so the batch's callee-first order takes them in.

    created = create_missing(index, ["org.acme.geo.*"])
"""
from __future__ import annotations

import difflib
import fnmatch
from dataclasses import dataclass
from typing import TYPE_CHECKING

from repotrans.errors import InputError
from repotrans.execution.toolchains.api import BuildSettings
from repotrans.mapping.load import load_mapping
from repotrans.mapping.overrides import MappingOverrides
from repotrans.skeleton.create import SkeletonResult, create_skeleton
from repotrans.skeleton.generate import plan_skeleton
from repotrans.skeleton.members import MissingMembers, plan_missing_members, write_missing_members

if TYPE_CHECKING:
    from repotrans.index.store import Index
    from repotrans.mapping.mapping import Mapping


@dataclass
class CreatedMissing:
    types: SkeletonResult
    members: MissingMembers
    dry_run: bool

    def render(self) -> str:
        verb = "would create" if self.dry_run else "created"
        files = self.types.plan.files
        lines = [f"create-missing: {verb} {sum(len(f.java_types) for f in files)} missing type(s) in "
                 f"{len(files)} file(s) and {self.members.count()} missing member(s) of existing C# types"]
        lines += ["  " + line for line in self.types.render().split("\n")]
        lines += ["  " + line for line in self.members.render().split("\n")]
        return "\n".join(lines)

    @property
    def compiled(self) -> bool:
        """Whether what was written compiles with the port (True when nothing was checked)."""
        return (self.types.check is None or self.types.check.compiled) and self.members.compiled is not False


def check_patterns(index: "Index", patterns: list[str], flag: str = "--create-missing") -> None:
    """A one-line InputError for a glob that cannot select Java types: empty, a path, or matching none."""
    names = [t.qualified_name for t in index.types("source")]
    for p in patterns:
        if not p.strip():
            raise InputError(f"{flag}: empty pattern; give a glob over Java qualified names, e.g. 'org.acme.geo.*'")
        if "/" in p or "\\" in p or p.endswith(".java"):
            raise InputError(f"{flag} {p!r}: a glob over Java qualified names with dots (e.g. 'org.acme.geo.*'), "
                             "not a file path")
        if not any(fnmatch.fnmatchcase(n, p) for n in names):
            packages = sorted({n.rsplit(".", 1)[0] + ".*" for n in names})
            raise InputError(f"{flag} {p!r} matches no Java type of the source (names are qualified: "
                             "package.Type)", did_you_mean=difflib.get_close_matches(p, packages + names, n=3))


def plan_missing(index: "Index", mapping: "Mapping", patterns: list[str]) -> CreatedMissing:
    """What create_missing would write for `patterns` (a dry run: nothing is written)."""
    check_patterns(index, patterns)
    return CreatedMissing(SkeletonResult(plan_skeleton(index, mapping, patterns)),
                          plan_missing_members(index, mapping, patterns), True)


def create_missing(index: "Index", patterns: list[str], check: bool = True,
                   overrides: MappingOverrides | None = None,
                   settings: BuildSettings = BuildSettings()) -> CreatedMissing:
    """Skeletons for the selected Java types without a C# counterpart, then placeholder members for
    the selected matched types' missing methods, then a re-index (see the module doc)."""
    check_patterns(index, patterns)
    types = create_skeleton(index, patterns, check=check, overrides=overrides, settings=settings)
    mapping = load_mapping(index, overrides)
    members = plan_missing_members(index, mapping, patterns)
    if members.additions:
        write_missing_members(index.root("target"), members, check=check, settings=settings)
        index.build(index.root("source"), index.root("target"), progress=False)
    return CreatedMissing(types, members, False)
