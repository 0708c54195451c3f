"""Names for generated C# types: Java package -> C# namespace and folder, Java type -> C# type name.

Both maps are learned from the pairs the mapping aligned (a package the port split over namespaces goes
where most of its aligned types are); a package the port has not seen yet gets
the namespace and folder of its closest mapped ancestor package with the remaining package segments
appended, in the casing the port uses for them (e.g. `com.acme.geo.shapes.solid` ->
`Acme.Geo.Shapes.Solid` in folder `Shapes/Solid` when `com.acme.geo.shapes` -> `Acme.Geo.Shapes`).
"""
from __future__ import annotations

import posixpath
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from repotrans.index.store import Index
    from repotrans.mapping.mapping import Mapping


@dataclass
class Names:
    namespaces: dict[str, str]                       # java package -> C# namespace
    folders: dict[str, str]                          # java package -> folder of the target repo
    lower_folders: bool = True                       # the port's folder segments are lower case
    types: dict[str, str] = field(default_factory=dict)   # java simple name -> C# simple name (project)
    namespace_of: dict[str, str] = field(default_factory=dict)   # java simple name -> namespace of its C# type
    referenced: dict[str, str] = field(default_factory=dict)     # lower-cased -> namespaces the port's usings name
    paths: dict[str, str] = field(default_factory=dict)   # Java nested type path (`Document.OutputSettings`) ->
                                                          # how the port names its counterpart (`OutputSettings`)
    split: dict[str, dict[str, str]] = field(default_factory=dict)   # java package the port split over several
                                                          # namespaces -> {namespace: the folder of its types there}

    def namespace(self, package: str) -> str:
        """The C# namespace for a Java package (the learned one, else derived from an ancestor)."""
        if package in self.namespaces:
            return self.namespaces[package]
        parent, rest = _ancestor(package, self.namespaces)
        if parent is None:
            derived = ".".join(_pascal(s) for s in package.split(".") if s)
        else:
            derived = ".".join([self.namespaces[parent]] + [_pascal(s) for s in rest])
        return self.referenced.get(derived.lower(), derived)     # the port's own spelling when its code names it

    def folder(self, package: str) -> str:
        """The folder (relative to the target root) where the port keeps that package's files."""
        if package in self.folders:
            return self.folders[package]
        parent, rest = _ancestor(package, self.folders)
        segments = [s.lower() if self.lower_folders else _pascal(s) for s in rest]
        base = self.folders[parent] if parent is not None else _common_root(self.folders.values())
        return posixpath.join(base, *segments) if segments else base


def learn_names(index: "Index", mapping: "Mapping") -> Names:
    """Namespaces, folders and project type names from the aligned type pairs."""
    by_id = {t.id: t for t in index.types("source") + index.types("target")}
    folders: dict[str, Counter] = defaultdict(Counter)
    spaces: dict[str, Counter] = defaultdict(Counter)       # package -> namespaces of its aligned top types
    places: dict[str, Counter] = defaultdict(Counter)       # package -> their folders
    homes: dict[tuple[str, str], Counter] = defaultdict(Counter)   # (package, namespace) -> their folders
    types: dict[str, str] = {}
    namespace_of: dict[str, str] = {}
    paths: dict[str, str] = {}
    for tm in mapping.type_matches:
        java, cs = by_id.get(tm.source_id), by_id.get(tm.target_id)
        if java is None or cs is None:
            continue
        top = cs
        while top.outer_id is not None and top.outer_id in by_id:
            top = by_id[top.outer_id]
        namespace_of.setdefault(java.name, top.container)   # where the port's type is, whatever the package's map
        if java.outer_id is None and cs.outer_id is None:
            spaces[java.container][cs.container] += 1
            places[java.container][posixpath.dirname(cs.path)] += 1
            homes[(java.container, cs.container)][posixpath.dirname(cs.path)] += 1
        if "not the package's majority" in tm.reason:
            continue
        if java.outer_id is None and cs.outer_id is None:
            folders[java.container][posixpath.dirname(cs.path)] += 1
        types[java.name] = cs.name
        if java.outer_id is not None:
            java_path, cs_path = _path(java, by_id), _path(cs, by_id)
            if java_path != cs_path:
                paths[java_path] = cs_path
        namespace_of[java.name] = top.container
    chosen = {p: c.most_common(1)[0][0] for p, c in places.items()}
    chosen.update({p: c.most_common(1)[0][0] for p, c in folders.items()})
    referenced = {i.name.lower(): i.name for f in index.files("target") for i in f.imports
                  if not i.static and i.alias is None}
    # a package the port split over namespaces (HdrHistogram.NET keeps org.HdrHistogram's iterators in
    # HdrHistogram.NET.Iteration) has no majority in the mapping: its types go where most of its aligned types
    # are, beside the folder chosen the same way, never into a namespace derived from the Java package
    plurality = {p: c.most_common(1)[0][0] for p, c in spaces.items()}
    split = {p: {ns: homes[(p, ns)].most_common(1)[0][0] for ns in c} for p, c in spaces.items() if len(c) > 1}
    return Names({**plurality, **mapping.namespace_map}, chosen, _lower_case_folders(chosen.values()), types,
                 namespace_of, referenced, paths, split)


def _path(t, by_id: dict) -> str:
    """A type's name with its enclosing types' (`Outer.Inner`), as code of its namespace writes it."""
    names = [t.name]
    while t.outer_id is not None and t.outer_id in by_id:
        t = by_id[t.outer_id]
        names.append(t.name)
    return ".".join(reversed(names))


def _lower_case_folders(folders) -> bool:
    """Does the port name package folders in lower case (`qrcode/decoder`)? Counted over the folder
    segments below the folders' common root; with none, C#'s PascalCase."""
    root = _common_root(folders)
    votes = Counter()
    for f in folders:
        rest = posixpath.relpath(f, root) if root else f
        for seg in rest.split("/"):
            if seg and seg != "." and seg.lower() != seg.upper():
                votes[seg == seg.lower()] += 1
    return votes[True] > votes[False]


def _ancestor(package: str, known: dict[str, str]) -> tuple[str | None, list[str]]:
    parts = package.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        parent = ".".join(parts[:cut])
        if parent in known:
            return parent, parts[cut:]
    return None, parts


def _common_root(folders) -> str:
    folders = [f for f in folders if f]
    if not folders:
        return ""
    return posixpath.commonpath(folders)


def _pascal(segment: str) -> str:
    return segment[:1].upper() + segment[1:]

