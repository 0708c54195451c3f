"""The file-system allowance, narrowed to the paths the Java original names, for the Python checker (il_check;
cecil_path.cs does the same for the Cecil one). A Java original that does file I/O lets its translation call
the file system only on paths built from what the Java method names: the member's own parameters, the string
and char literals of the Java method (allowances.path_literals, carried in the allowance as `path:<hex>`),
the fields of the port's own types, null, and what a short list of combinators makes of those (System.String's
and System.IO.Path's members, char formatting, reading an enumeration, and the file system's own answers on
such a path: Directory.GetFiles(dir), new FileInfo(path).Length); a path's parent or root only when the Java
original climbs too (getParent, getParentFile, getRoot: the allowance's `file_parent`). Every other source is foreign: the test
assembly's location, the current or base directory, the temporary folder, the environment, a char array, a
string builder, a delegate's or a framework object's answer, a lambda's parameter. A file-system call (a member
of rules.tsv's file_system types, or a path member with a string path) whose path argument is foreign is denied
`file_scope` (never allowable), as is one on a FileInfo, DirectoryInfo or DriveInfo built otherwise; its other
arguments (the text written, a search pattern) are data, and a stream already open is no path.

Provenance is followed through the stack, the locals and arguments of each method (il_reflect's walk), and
across the candidate's methods to a fixed point: a field of its own types stored a foreign value, a parameter a
call site passes one, a method that returns one are foreign everywhere (the parameters of compiler-generated
methods, of methods made into delegates and of overrides other than the member are foreign from the start).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from repotrans.execution.capability.checks import PARENT, PATH
from repotrans.execution.capability.il_allow import display, under
from repotrans.execution.capability.il_metadata import OP, OPERAND, TOKEN, TOKEN_TABLES, compiler_generated
from repotrans.execution.capability.il_reflect import CALLS, EFFECTS, LDLOC, STLOC, Job, has_this, pop, pop_call, walk

# what climbs from a path to its parent or root: own only when the Java original climbs too
CLIMBS = frozenset({"System.IO.Path::GetDirectoryName", "System.IO.Path::GetPathRoot", "System.IO.Directory::GetParent",
                    "System.IO.Directory::GetDirectoryRoot", "System.IO.DirectoryInfo::get_Parent",
                    "System.IO.DirectoryInfo::get_Root", "System.IO.FileInfo::get_Directory",
                    "System.IO.FileInfo::get_DirectoryName"})
SEPARATORS = frozenset({ord("/"), ord("\\")})
COMBINATORS = frozenset({"System.String", "System.IO.Path", "System.Char"})
READERS = frozenset({"System.Collections.Generic.IEnumerable`1::GetEnumerator",
                     "System.Collections.Generic.IEnumerator`1::get_Current",
                     "System.Collections.IEnumerable::GetEnumerator", "System.Collections.IEnumerator::get_Current"})
ARRAY_READERS = frozenset({"System.Array::Sort", "System.Array::Reverse", "System.Array::IndexOf",
                           "System.Array::BinarySearch", "System.Array::get_Length", "System.Array::Exists"})
CONSTANTS = frozenset({"System.String::Empty", "System.IO.Path::DirectorySeparatorChar",
                       "System.IO.Path::AltDirectorySeparatorChar", "System.IO.Path::PathSeparator",
                       "System.IO.Path::VolumeSeparatorChar"})
TWO_PATHS = frozenset({"Copy", "Move", "Replace", "CopyTo", "MoveTo", "CreateSymbolicLink"})
PATH_OBJECTS = frozenset({"System.IO.FileSystemInfo", "System.IO.FileInfo", "System.IO.DirectoryInfo",
                          "System.IO.DriveInfo"})     # a path as an object: its receiver is a path argument
TEXT = frozenset({"System.String", "System.Object", "System.Char"})
VIRTUAL = 0x40
LDARG = {0x02: 0, 0x03: 1, 0x04: 2, 0x05: 3}
STELEM = frozenset({*range(0x9B, 0xA3), 0xA4})
LDC = {0x15: -1, **{0x16 + k: k for k in range(9)}}


def literals(allowed: frozenset[str]) -> frozenset[str]:
    """The Java original's literals an allowance carries."""
    return frozenset(bytes.fromhex(a[len(PATH):]).decode("utf-8") for a in allowed if a.startswith(PATH))


def path_allowance(text: str) -> str:
    """The allowance entry naming one literal of the Java original."""
    return PATH + text.encode("utf-8").hex()


@dataclass
class _Taint:
    """What the candidate's methods make foreign for one another."""
    fields: set[str] = field(default_factory=set)
    params: dict[int, set[int]] = field(default_factory=dict)     # MethodDef row -> argument slots
    returns: set[str] = field(default_factory=set)                 # method names

    def size(self) -> int:
        return len(self.fields) + sum(map(len, self.params.values())) + len(self.returns)


def check(c: Any, job: Job, methods: list[int], members: set[int], allowed: frozenset[str]) -> None:
    """Denies each file-system call of the candidate's `methods` (MethodDef rows; `members`: the member's own)
    on a path not built from the member's parameters and the Java original's literals."""
    flow = _Flow(c, job, set(methods), members, literals(allowed))
    for _ in range(8):
        before = flow.taint.size()
        for index in sorted(methods):
            flow.method(index, judge=False)
        if flow.taint.size() == before:
            break
    for index in sorted(methods):
        flow.method(index, judge=True)


class _Flow:
    """Provenance (own: built from what the Java original names) through one candidate's methods."""

    def __init__(self, c: Any, job: Job, methods: set[int], members: set[int], texts: frozenset[str]):
        self.c, self.job, self.methods, self.texts = c, job, methods, texts
        self.climbs = PARENT in job.allowed
        self.chars = SEPARATORS | {ord(t) for t in texts if len(t) == 1}
        self.taint = _Taint()
        self.file_rules = [name for cap, name in c.rules.namespaces if cap == "file_system"] + [
            name for name, cap in c.rules.types.items() if cap == "file_system"]
        for index in methods:                   # called by code that is not the candidate's: foreign
            name = str(c.asm.row("MethodDef", index).Name)
            owner = c.asm.method_owner.get(index, 0)
            if index not in members and (compiler_generated(name) or c.generated_type(owner)
                                         or c.asm.row("MethodDef", index).Flags & VIRTUAL):
                self.taint.params[index] = set(range(len(c.method_def(index).params)))

    # -- one method ------------------------------------------------------------------------------------
    def method(self, index: int, judge: bool) -> None:
        m = self.c.method_def(index)
        self.where = f"{self.c.asm.render(m.declaring)}::{m.name}"
        code = self.c.body(index).instructions if self.c.body(index) else []
        instance = has_this(self.c, 0x06000000 | index)
        foreign = self.taint.params.get(index, set())
        args = {k: k < instance or k - instance not in foreign for k in range(len(m.params) + instance)}
        locals_: dict[int, bool] = {}
        walk(code, lambda ins, stack, last: self.step(index, ins, stack, locals_, args, judge and last))

    def step(self, index: int, ins, stack: list[bool], locals_: dict[int, bool], args: dict[int, bool],
             judge: bool) -> None:
        op, operand, c = ins[OP], ins[OPERAND], self.c
        if op == 0x72:                                           # ldstr
            stack.append(self.spelled(c.asm.user_string(ins[TOKEN])))
        elif op in LDC or op in (0x1F, 0x20):                   # ldc.i4
            value = LDC[op] if op in LDC else int.from_bytes(operand, "little", signed=True)
            stack.append(value in self.chars)
        elif op == 0x14:                                         # ldnull
            stack.append(True)
        elif op in LDARG or op in (0x0E, 0x0F, 0xFE09, 0xFE0A):
            slot = LDARG.get(op, int.from_bytes(operand, "little"))
            stack.append(args.get(slot, False))
        elif op in (0x10, 0xFE0B):                               # starg
            slot = int.from_bytes(operand, "little")
            args[slot] = pop(stack) and args.get(slot, False)
        elif op in LDLOC or op in (0x11, 0x12, 0xFE0C, 0xFE0D):   # ldloc, ldloca
            slot = LDLOC.get(op, int.from_bytes(operand, "little"))
            stack.append(locals_.get(slot, False))
        elif op in STLOC or op in (0x13, 0xFE0E):
            slot, value = STLOC.get(op, int.from_bytes(operand, "little")), pop(stack)
            locals_[slot] = value and locals_.get(slot, True)
        elif op == 0x25:                                         # dup
            top = pop(stack)
            stack += [top, top]
        elif op in (0x74, 0x75, 0x8C):                           # castclass, isinst, box
            value = pop(stack)
            stack.append(value or (op == 0x8C and self._boxed_number(ins[TOKEN])))
        elif op in (0x9A, 0xA3):                                 # ldelem.ref, ldelem
            pop(stack)
            stack.append(pop(stack))
        elif op == 0x8D:                                         # newarr: filled by the stores that follow
            pop(stack)
            t = c.member(ins[TOKEN])
            stack.append(isinstance(t, tuple) and c.asm.render(c.element(t)) in ("System.String", "System.Object"))
        elif op in STELEM:                                       # a foreign element makes its array foreign
            value, _, array = pop(stack), pop(stack), pop(stack)
            if array and not value:
                if stack:
                    stack[-1] = False            # the array an initializer keeps on the stack (newarr; dup)
                for slot in locals_:
                    locals_[slot] = False        # or a local holding it
        elif op in (0x7B, 0x7C, 0x7E, 0x7F):                     # ldfld, ldflda, ldsfld, ldsflda
            if op in (0x7B, 0x7C):
                pop(stack)
            stack.append(self._field_own(ins[TOKEN]))
        elif op in (0x7D, 0x80):                                 # stfld, stsfld
            value = pop(stack)
            if op == 0x7D:
                pop(stack)
            key = self._own_field(ins[TOKEN])
            if key and not value:
                self.taint.fields.add(key)
        elif op == 0x2A:                                         # ret
            m = c.method_def(index)
            if m.ret != ("prim", "System.Void") and not pop(stack):
                self.taint.returns.add(m.name)
        elif op in CALLS and (ins[TOKEN] >> 24) in TOKEN_TABLES:
            self.call(ins, stack, locals_, judge)
        elif op in (0xDD, 0xDE):
            stack.clear()                                        # leave
        else:
            if op in (0xFE06, 0xFE07):                           # ldftn: its parameters come from anywhere
                target = c.member(ins[TOKEN])
                if target is not None and not isinstance(target, tuple) and target.local \
                        and target.local[0] == "MethodDef":
                    self.taint.params[target.local[1]] = set(range(len(target.params)))
            pops, pushes = EFFECTS.get(op, (0, 1))
            for _ in range(pops):
                pop(stack)
            stack += [False] * pushes

    def call(self, ins, stack: list[bool], locals_: dict[int, bool], judge: bool) -> None:
        c = self.c
        popped = pop_call(c, ins, stack)
        if popped is None:
            return
        m, newobj, args, receiver, instance = popped
        elem = c.element(m.declaring)
        type_name = c.asm.render(elem).replace("/", ".") if elem[0] != "prim" or elem[1] != "<Module>" else ""
        key = f"{type_name}::{m.name}"
        kinds = [self._kind(p) for p in m.params]
        sink = self._sink(elem, type_name, key, kinds)
        if judge and sink:
            texts = [i for i, k in enumerate(kinds) if k]
            paths = texts if m.name in TWO_PATHS else texts[:1]
            if not ((receiver or type_name not in PATH_OBJECTS) and all(args[i] for i in paths)):
                self.job.where = self.where
                self.job.deny("file_scope", f"{display(key)} on a path not built from the member's parameters "
                                            "and the Java original's literals")
        if not (sink or type_name in COMBINATORS or key in READERS or key in ARRAY_READERS) and any(
                own and self._array(p) for own, p in zip(args, m.params)):
            for slot in locals_:                # code that may write into an array of own paths: foreign after
                locals_[slot] = False
            stack[:] = [False] * len(stack)
        if m.local and m.local[0] == "MethodDef" and m.local[1] in self.methods:
            foreign = {i for i, own in enumerate(args) if not own}
            if foreign:
                self.taint.params.setdefault(m.local[1], set()).update(foreign)
        if not newobj and m.ret == ("prim", "System.Void"):
            return
        inputs = [args[i] for i, k in enumerate(kinds) if k] + ([receiver] if instance else [])
        if sink or type_name in COMBINATORS or key in READERS:
            stack.append(bool(inputs) and all(inputs) and (key not in CLIMBS or self.climbs))
        else:                               # the port's own code answers for itself; the framework's is foreign
            stack.append((elem[0] == "named" and elem[1] == "TypeDef") and m.name not in self.taint.returns)

    def spelled(self, text: str) -> bool:
        """Whether a string constant is the Java original's literals one after another (the compiler folds
        "a" + "/" + CONSTANT into one)."""
        ends = [True] + [False] * len(text)
        for i in range(len(text)):
            if ends[i]:
                for t in self.texts:
                    if t and text.startswith(t, i):
                        ends[i + len(t)] = True
        return text in self.texts or (bool(text) and ends[-1])

    # -- what a value is -------------------------------------------------------------------------------
    def _kind(self, t: tuple) -> str:
        """"path" for a file-system type, "text" for a string, object, char or an array of them, else ""."""
        t = self.c.asm.resolve(t)
        while t[0] in ("array", "byref"):
            t = self.c.asm.resolve(t[1])
        if t[0] == "generic":
            t = self.c.asm.resolve(t[1])
        if t[0] not in ("prim", "named"):
            return ""
        full = self.c.asm.render(t).replace("/", ".")
        if full in TEXT:
            return "text"
        ns = "System" if t[0] == "prim" else self.c.asm.outer_namespace(t[1], t[2])
        return "path" if t[0] == "named" and self._file(full, ns) else ""

    def _array(self, t: tuple) -> bool:
        t = self.c.asm.resolve(t)
        return t[0] == "array" or (t[0] in ("prim", "named") and self.c.asm.render(t) == "System.Array")

    def _file(self, full: str, ns: str) -> bool:
        return any(under(full, ns, name) for name in self.file_rules)

    def _ns(self, elem: tuple) -> str:
        return self.c.asm.outer_namespace(elem[1], elem[2]) if elem[0] == "named" else "System"

    def _sink(self, elem: tuple, type_name: str, key: str, kinds: list[str]) -> bool:
        """A call the file_system rules name: a member of a file-system type, or a path member with a string path."""
        if not type_name or elem[0] != "named":
            return False
        return self._file(type_name, self._ns(elem)) or (key in self.c.rules.path_members and kinds[:1] == ["text"])

    def _boxed_number(self, token: int) -> bool:
        """A boxed value of a value type other than char (a number formats to digits: no path)."""
        t = self.c.member(token)
        return isinstance(t, tuple) and self.c.asm.render(self.c.element(t)) != "System.Char"

    def _own_field(self, token: int) -> str:
        """The key of a field of this module's types, else ""."""
        f = self.c.member(token)
        if f is None or isinstance(f, tuple) or not f.is_field:
            return ""
        elem = self.c.element(f.declaring)
        if elem[0] != "named" or elem[1] != "TypeDef":
            return ""
        return f"{self.c.asm.render(elem)}::{f.name}"

    def _field_own(self, token: int) -> bool:
        key = self._own_field(token)
        if key:
            return key not in self.taint.fields
        f = self.c.member(token)
        if f is None or isinstance(f, tuple):
            return False
        return f"{self.c.asm.render(self.c.element(f.declaring)).replace('/', '.')}::{f.name}" in CONSTANTS

