"""What a candidate assembly added or changed against its baseline build, for the Python IL checker:
each method's key (identity and IL, tokens by name, compiler numbering left out, hashed), the
baseline's keys and type shapes, and the methods whose key the baseline lacks. The baseline's keys
are saved to a JSON file once per baseline build, so a checker process per candidate need not read
the (large) baseline assembly again."""
from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from repotrans.execution.capability.il_metadata import Assembly
from repotrans.execution.capability.il_refs import PortRefs, port_refs
from repotrans.execution.capability.checks import MemberRef


class Checker(Protocol):
    """What these functions read of il_check.Checker."""
    asm: Assembly
    methods_of: dict[int, list[int]]

    def method_def(self, index: int) -> Any: ...
    def body(self, index: int) -> Any: ...
    def token_text(self, token: int) -> str: ...
    def generated_type(self, index: int) -> bool: ...

NUMBERING = re.compile(r"(m__|c__AnonStorey|c__Iterator|c__async|am\$cache|DisplayClass|<>__|\$)(\w*)")


@dataclass(frozen=True)
class Baseline:
    keys: dict[str, frozenset[str]]              # type (numbering left out) -> its methods' hashed keys
    shapes: dict[str, tuple[str, ...]]           # type -> its methods' names and arities
    refs: PortRefs                               # the framework references of the port's code (il_refs)

    def save(self, path: Path) -> None:
        """Written whole or not at all (a temporary file renamed)."""
        data = {"keys": {t: sorted(k) for t, k in self.keys.items()}, "shapes": self.shapes, "refs": self.refs.to_json()}
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path) -> "Baseline":
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls({t: frozenset(k) for t, k in data["keys"].items()},
                   {t: tuple(s) for t, s in data["shapes"].items()}, PortRefs.from_json(data["refs"]))


def _unnumbered(text: str) -> str:
    """Compiler numbering (closure and lambda counters) left out: equal in two builds of one source."""
    return NUMBERING.sub(lambda m: m.group(1) + re.sub(r"\d+", "#", m.group(2)), text)


def method_key(c: Checker, index: int) -> str:
    """A method's identity and IL with tokens named and compiler numbering left out, hashed."""
    a, m = c.asm, c.method_def(index)
    parts = [f"{a.render(m.declaring)}::{m.name}({','.join(a.render(p) for p in m.params)}){a.render(m.ret)}"]
    body = c.body(index)
    for op, name, token, operand in body.instructions if body is not None else []:
        text = a.user_string(token) if name == "ldstr" else c.token_text(token) if token else operand.hex()
        parts.append(f"{op:x} {text}")
    return hashlib.blake2b(_unnumbered("\n".join(parts)).encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def type_key(c: Checker, index: int) -> str:
    return _unnumbered(c.asm.type_name("TypeDef", index))


def shape(c: Checker, index: int) -> tuple[str, ...]:
    """A type's methods by name and arity: cheap, and equal in two builds of one source."""
    return tuple(sorted(f"{c.method_def(m).name}/{len(c.method_def(m).params)}" for m in c.methods_of.get(index, [])))


def baseline_of(c: Checker) -> Baseline:
    keys: dict[str, set[str]] = {}
    shapes: dict[str, tuple[str, ...]] = {}
    for i in range(1, len(c.asm.rows("TypeDef")) + 1):
        name = type_key(c, i)
        keys.setdefault(name, set()).update(method_key(c, m) for m in c.methods_of.get(i, []))
        shapes[name] = shapes.get(name, ()) + shape(c, i)
    return Baseline({n: frozenset(k) for n, k in keys.items()}, shapes, port_refs(c))


def changed(c: Checker, base: Baseline, member: MemberRef | None) -> list[int]:
    """Methods new or changed against the baseline. Only the candidate's file differs between the
    two builds, so only these types can differ: the member's outermost type and its nested types,
    compiler-generated top-level types, types the baseline lacks or whose methods' names differ;
    their methods are compared by key (cecil_checker.cs compares every method: same answer, slower)."""
    a = c.asm
    hot: list[int] = []
    for i in range(1, len(a.rows("TypeDef")) + 1):
        top = i
        while a.enclosing.get(top):
            top = a.enclosing[top]
        name = type_key(c, i)
        if (name not in base.keys or base.shapes.get(name) != shape(c, i) or c.generated_type(top)
                or (member is not None and _same_outer(c, top, member.type_name))):
            hot.append(i)
    return [m for i in hot for m in c.methods_of.get(i, []) if method_key(c, m) not in base.keys.get(type_key(c, i), ())]


def _same_outer(c: Checker, top: int, type_name: str) -> bool:
    """Whether the member's type ("Ns.Outer.Inner") is `top` or nested in it."""
    outer = c.asm.plain_name(top)
    return type_name == outer or type_name.startswith(outer + ".")


def keys_file(folder: Path, baseline_dll: Path) -> Path:
    """Where a baseline build's keys are saved in `folder`: named by the assembly's path and file state
    (a rebuilt baseline gets a new file)."""
    st = baseline_dll.stat()
    name = hashlib.blake2b(f"refs+closure\0{baseline_dll.resolve()}\0{st.st_mtime_ns}\0{st.st_size}".encode(), digest_size=12)
    return folder / f"{name.hexdigest()}.json"
