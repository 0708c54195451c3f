"""What a Java catch clause catches, in C#: the .NET images of the caught Java exception and of its Java
subclasses, and not the .NET subclasses of those images that stand for unrelated Java exceptions.

The two hierarchies differ where the table maps them ([types], [exception_tree] of jdk_map.toml):
- `catch (IllegalArgumentException e)` also catches Java's NumberFormatException, whose image is .NET's
  FormatException, no ArgumentException: caught too;
- .NET's ArgumentException has the subclass ArgumentOutOfRangeException (Java's IndexOutOfBoundsException):
  where a later clause of the same try catches IndexOutOfBoundsException, the IllegalArgumentException clause
  before it leaves it out (Java sends it there; C# rejected the later clause after an unfiltered
  `catch (ArgumentException)`, CS0160). A clause alone keeps .NET's subclasses: a port throws
  ArgumentNullException where Java threw IllegalArgumentException;
- `catch (IndexOutOfBoundsException e)` takes ArrayIndexOutOfBoundsException (IndexOutOfRangeException).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Caught:
    """The C# types a catch clause tests: any of `types`, none of `excluded`."""
    types: tuple[str, ...]
    excluded: tuple[str, ...] = ()


def _java_subclasses(name: str, java_parents: dict[str, str]) -> list[str]:
    """Java exceptions of the table that extend `name`, directly or not."""
    out: list[str] = []
    for child in java_parents:
        parent = java_parents.get(child)
        while parent is not None:
            if parent == name:
                out.append(child)
                break
            parent = java_parents.get(parent)
    return out


def _is_net_subtype(child: str | None, ancestor: str, net_parents: dict[str, str]) -> bool:
    """Whether .NET's `child` is `ancestor` or derives from it (every exception is an Exception)."""
    if ancestor in ("Exception", "System.Exception"):
        return True
    while child is not None:
        if child == ancestor:
            return True
        child = net_parents.get(child)
    return False


def caught_types(clauses: list[list[str]], image, table: dict) -> list[Caught]:
    """The C# tests of a try statement's catch clauses, in order, each of Java types (or C# types the port
    throws for them); `image(t)` is a name's C# type (the translator's cs_type). A clause leaves out what a
    later clause of the same statement catches in Java where .NET's hierarchy would take it first."""
    tree = table.get("exception_tree", {})
    java_parents, net_parents = tree.get("java", {}), tree.get("dotnet", {})
    wanted: list[list[str]] = []
    for java_types in clauses:
        mine: list[str] = []
        for java in java_types:
            for name in [java, *_java_subclasses(java, java_parents)]:
                for cs in [image(name), *tree.get("also", {}).get(name, [])]:
                    if not any(_is_net_subtype(cs, w, net_parents) for w in mine):
                        mine = [w for w in mine if not _is_net_subtype(w, cs, net_parents)] + [cs]
        wanted.append(mine)
    out = []
    for i, mine in enumerate(wanted):
        later = [t for other in wanted[i + 1:] for t in other if t not in mine]
        excluded = tuple(dict.fromkeys(t for t in later if any(_is_net_subtype(t, w, net_parents) for w in mine)))
        out.append(Caught(tuple(mine), excluded))
    return out


def catch_head(caught: Caught, name: str) -> str:
    """`catch (T name)`, or `catch (Exception name) when (...)` for several types or an exclusion."""
    if len(caught.types) == 1 and not caught.excluded:
        return f"catch ({caught.types[0]} {name})"
    test = " || ".join(f"{name} is {t}" for t in caught.types)
    if caught.excluded:
        test = f"({test})" if len(caught.types) > 1 else test
        test += "".join(f" && !({name} is {t})" for t in caught.excluded)
    return f"catch (Exception {name}) when ({test})"
