"""The reflection allowance, narrowed to the class itself, for the Python checker (il_check; cecil_reflect.cs
does the same for the Cecil one). A Java original that reflects on its own class lets its translation
reflect on the C# counterpart of that class (the job's type and the types nested in it), nothing else: a
call whose receiver or arguments are reflection values (System.Type, System.Reflection's classes,
System.Activator) takes them only from typeof(the counterpart) and what a short list of lookups returns from
it (its fields, methods, properties, constructors, members, nested types). Every other source is foreign:
an object's GetType(), a parameter, a field, a cast, the result of any other call (BaseType, Assembly,
FieldType, Delegate.Method, Exception.TargetSite); so the allowance never reaches the test framework's, the
runner's or the test assembly's types and objects. Names, type comparisons and property getters stay open on
any reflection value (what they return is foreign in turn): only looking members up, reading or writing a
field, invoking or creating acts, and those take the counterpart's values.

Provenance is followed through the evaluation stack and the locals of each method (two passes, the locals'
sources joined; a branch target merges the stacks that reach it; foreign wins every merge).
"""
from __future__ import annotations

import struct
from typing import Any, Callable, Protocol

from repotrans.execution.capability.il_allow import display
from repotrans.execution.capability.il_metadata import OP, OPERAND, TOKEN, TOKEN_TABLES, blob_bytes

LOOKUPS = frozenset({"GetField", "GetFields", "GetMethod", "GetMethods", "GetProperty", "GetProperties",
                     "GetConstructor", "GetConstructors", "GetMember", "GetMembers", "GetNestedType", "GetNestedTypes",
                     "GetGetMethod", "GetSetMethod", "get_GetMethod", "get_SetMethod", "GetTypeInfo",
                     "GetTypeFromHandle"})
NAMING = frozenset({"get_Name", "get_FullName", "get_Namespace", "ToString", "Equals", "GetHashCode", "op_Equality",
                    "op_Inequality", "IsAssignableFrom", "IsInstanceOfType", "IsSubclassOf"})
CALLS = {0x28: "call", 0x6F: "callvirt", 0x73: "newobj"}
BRANCH_SHORT = set(range(0x2B, 0x38)) | {0xDE}
BRANCH_LONG = set(range(0x38, 0x45)) | {0xDD}
ENDS = {0x2B, 0x38, 0xDD, 0xDE, 0x2A, 0x7A, 0xFE1A, 0xDC, 0x27, 0xFE11}      # no fall-through
LDLOC = {0x06: 0, 0x07: 1, 0x08: 2, 0x09: 3}
STLOC = {0x0A: 0, 0x0B: 1, 0x0C: 2, 0x0D: 3}


def _effects() -> dict[int, tuple[int, int]]:
    """(pops, pushes) of each opcode but calls, ldtoken, dup, casts, ldelem and locals (ECMA-335 III)."""
    e: dict[int, tuple[int, int]] = {}

    def put(ops, pops: int, pushes: int) -> None:
        for op in ops:
            e[op] = (pops, pushes)
    put([0x00, 0x01, 0x2B, 0x38, 0xDC, 0x27, 0xFE12, 0xFE13, 0xFE14, 0xFE16, 0xFE19, 0xFE1A, 0xFE1E], 0, 0)
    put([*range(0x02, 0x06), 0x0E, 0x0F, 0x12, *range(0x14, 0x24), 0x72, 0x7E, 0x7F, 0xD0, 0xFE00, 0xFE06, 0xFE09,
         0xFE0A, 0xFE0D, 0xFE1C], 0, 1)
    put([0x10, 0x26, 0x2C, 0x2D, 0x39, 0x3A, 0x45, 0x7A, 0x80, 0xFE0B, 0xFE11, 0xFE15, 0x2A], 1, 0)
    put([*range(0x2E, 0x38), *range(0x3B, 0x45), 0x51, *range(0x52, 0x58), 0x4F, 0x50, 0x70, 0x7D, 0x81, 0xDF], 2, 0)
    put([*range(0x46, 0x4F), 0x65, 0x66, *range(0x67, 0x6F), 0x71, 0x76, 0x79, 0x7B, 0x7C, *range(0x82, 0x8C), 0x8C,
         0x8D, 0x8E, 0xA5, *range(0xB3, 0xBB), 0xC2, 0xC3, 0xC6, *range(0xD1, 0xD6), 0xE0, 0xFE07, 0xFE0F, 0xFE1D], 1, 1)
    put([*range(0x58, 0x65), 0x8F, *range(0x90, 0x9A), *range(0xD6, 0xDC), *range(0xFE01, 0xFE06)], 2, 1)
    put([*range(0x9B, 0xA3), 0xA4, 0xFE17, 0xFE18], 3, 0)
    return e


EFFECTS = _effects()


class Job(Protocol):
    where: str

    def deny(self, capability: str, api: str) -> None: ...


def check(c: Any, job: Job, index: int, code: list, counterpart: str) -> None:
    """Denies each reflection call of method `index` (its instructions `code`) on a value not from
    typeof(`counterpart`) (`reflection_scope`)."""
    locals_: dict[int, bool] = {}
    walk(code, lambda ins, stack, last: _step(c, job, index, ins, stack, locals_, last, counterpart))


def walk(code: list, step: Callable[[Any, list[bool], bool], None]) -> None:
    """The provenance walk both narrowings take over a method's instructions (the caller's step keeps its
    locals): two passes, the first settling the locals; a branch target merges the stacks that reach it,
    code after an unconditional jump starts empty. `step(ins, stack, last)` is told which pass is the last."""
    offsets, at = [], 0
    for ins in code:
        offsets.append(at)
        at += (2 if ins[OP] > 0xFF else 1) + len(ins[OPERAND])
    for last in (False, True):
        recorded: dict[int, list[bool]] = {}
        stack: list[bool] = []
        reachable = True
        for n, ins in enumerate(code):
            here = offsets[n]
            if here in recorded:
                stack = merge(stack, recorded[here]) if reachable else list(recorded[here])
            elif not reachable:
                stack = []
            reachable = True
            step(ins, stack, last)
            end = offsets[n + 1] if n + 1 < len(code) else at
            for target in branch_targets(ins, end):
                recorded[target] = merge(recorded[target], stack) if target in recorded else list(stack)
            if ins[OP] in ENDS:
                reachable = False


def branch_targets(ins, end: int) -> list[int]:
    op, operand = ins[OP], ins[OPERAND]
    if op in BRANCH_SHORT:
        return [end + struct.unpack("<b", operand)[0]]
    if op in BRANCH_LONG:
        return [end + struct.unpack("<i", operand)[0]]
    if op == 0x45:
        count = struct.unpack_from("<I", operand)[0]
        return [end + struct.unpack_from("<i", operand, 4 + 4 * k)[0] for k in range(count)]
    return []


def merge(a: list[bool], b: list[bool]) -> list[bool]:
    n = min(len(a), len(b))
    return [a[len(a) - n + i] and b[len(b) - n + i] for i in range(n)]


def pop(stack: list[bool]) -> bool:
    """The top of the stack's provenance (False where no path here pushed one)."""
    return stack.pop() if stack else False       # a handler's exception, or what no path here pushed


def _step(c: Any, job: Job, index: int, ins, stack: list[bool], locals_: dict[int, bool], judge: bool,
          counterpart: str) -> None:
    op, operand = ins[OP], ins[OPERAND]
    if op == 0xD0:
        stack.append(_counterpart(c, ins[TOKEN], counterpart))
    elif op == 0x25:
        top = pop(stack)
        stack += [top, top]
    elif op in (0x74, 0x75):
        stack.append(pop(stack))
    elif op in (0x9A, 0xA3):
        pop(stack)
        stack.append(pop(stack))
    elif op in LDLOC or op in (0x11, 0xFE0C):
        slot = LDLOC.get(op, int.from_bytes(operand, "little"))
        stack.append(locals_.get(slot, False))
    elif op in STLOC or op in (0x13, 0xFE0E):
        slot, value = STLOC.get(op, int.from_bytes(operand, "little")), pop(stack)
        locals_[slot] = value and locals_.get(slot, True)
    elif op in CALLS and (ins[TOKEN] >> 24) in TOKEN_TABLES:
        _call(c, job, index, ins, stack, judge, counterpart)
    elif op in (0xDD, 0xDE):
        stack.clear()                           # leave
    else:
        pops, pushes = EFFECTS.get(op, (0, 1))
        for _ in range(pops):
            pop(stack)
        stack += [False] * pushes


def pop_call(c: Any, ins, stack: list[bool]) -> tuple[Any, bool, list[bool], bool, bool] | None:
    """A call's operands taken off `stack`: (member, newobj, arguments in order, receiver, instance call), the
    receiver True for a static call or a creation; None when the token names no method here."""
    m = c.member(ins[TOKEN])
    if m is None or isinstance(m, tuple):
        return None
    newobj = ins[OP] == 0x73
    args = [pop(stack) for _ in m.params][::-1]
    instance = has_this(c, ins[TOKEN]) and not newobj
    return m, newobj, args, pop(stack) if instance else True, instance


def _call(c: Any, job: Job, index: int, ins, stack: list[bool], judge: bool, counterpart: str) -> None:
    popped = pop_call(c, ins, stack)
    if popped is None:
        return
    m, newobj, args, receiver, instance = popped
    family = _value(c, m.declaring)
    valued = [i for i, p in enumerate(m.params) if _value(c, p)]
    args_own = all(args[i] for i in valued)
    own = ((receiver and args_own) if instance else m.name == "GetTypeFromHandle" or (bool(valued) and args_own)) \
        if family else args_own
    if judge and not own and m.name not in NAMING and not (m.name.startswith("get_") and not args):
        a = c.asm
        job.where = f"{a.render(c.method_def(index).declaring)}::{c.method_def(index).name}"
        job.deny("reflection_scope", f"{display(a.render(c.element(m.declaring)).replace('/', '.') + '::' + m.name)}"
                                     f" on a reflection value not from typeof({counterpart})")
    if newobj or m.ret != ("prim", "System.Void"):
        stack.append(own and family and m.name in LOOKUPS
                     and not (m.name == "GetTypeFromHandle" and len(args) == 1 and not args[0]))


def _value(c: Any, t: tuple) -> bool:
    """A reflection value: System.Type, System.Activator, a class of System.Reflection (enums are data)."""
    t = c.element(t)
    if t[0] != "named":
        return False
    if (t[1], t[2]) in c.asm.value_types:
        return False
    full = c.asm.render(t)
    ns = c.asm.outer_namespace(t[1], t[2])
    return full in ("System.Type", "System.Activator") or ns == "System.Reflection" or ns.startswith("System.Reflection.")


def _counterpart(c: Any, token: int, counterpart: str) -> bool:
    t = c.member(token) if (token >> 24) in TOKEN_TABLES else None
    if not isinstance(t, tuple):
        return False
    t = c.element(t)
    if t[0] != "named" or t[1] != "TypeDef":
        return False
    name = c.asm.plain_name(t[2])
    return name == counterpart or name.startswith(counterpart + ".")


def has_this(c: Any, token: int) -> bool:
    """Whether the method a call token names takes `this` (its signature's HASTHIS bit)."""
    table, row = TOKEN_TABLES.get(token >> 24), token & 0xFFFFFF
    if table == "MethodSpec":
        method = c.asm.row("MethodSpec", row).Method
        table, row = method.table.name, method.row_index
    if table not in ("MethodDef", "MemberRef"):
        return False
    blob = blob_bytes(c.asm.row(table, row).Signature)
    return bool(blob[:1]) and bool(blob[0] & 0x20)
