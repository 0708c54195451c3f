"""The capability policy checked in Python: the candidate assembly's metadata and IL read with dnfile
and dncil, no mono and no process of the candidate's toolchain (the dotnet path has no Mono.Cecil).

It applies the rules of `policy_rules.tsv`, the file il_policy.cs reads, the same way: the candidate
member (one overload by its parameter types' simple names), every method new or changed against the
baseline assembly, and the compiler-generated code they reach (lambda methods, closure and iterator
classes); each reference to a type, member or instruction the rules name is a Denial. Nothing in the
assembly is loaded or run: only bytes are read.
"""
from __future__ import annotations

import re
import struct
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from repotrans.execution.policy import RULES, Denial, MemberRef, PolicyVerdict

# ECMA-335 II.23.1.16 element types with a fixed name
PRIMITIVES = {0x01: "System.Void", 0x02: "System.Boolean", 0x03: "System.Char", 0x04: "System.SByte",
              0x05: "System.Byte", 0x06: "System.Int16", 0x07: "System.UInt16", 0x08: "System.Int32",
              0x09: "System.UInt32", 0x0A: "System.Int64", 0x0B: "System.UInt64", 0x0C: "System.Single",
              0x0D: "System.Double", 0x0E: "System.String", 0x16: "System.TypedReference", 0x18: "System.IntPtr",
              0x19: "System.UIntPtr", 0x1C: "System.Object"}
TYPEDEF_OR_REF = ("TypeDef", "TypeRef", "TypeSpec")
TOKEN_TABLES = {0x01: "TypeRef", 0x02: "TypeDef", 0x04: "Field", 0x06: "MethodDef", 0x0A: "MemberRef",
                0x1B: "TypeSpec", 0x2B: "MethodSpec"}
UNSAFE_OPS = {"calli": "calli (a call through a function pointer)", "localloc": "stackalloc",
              "cpblk": "raw memory block copy", "initblk": "raw memory block copy",
              "mkrefany": "__makeref / __arglist", "refanyval": "__makeref / __arglist",
              "refanytype": "__makeref / __arglist", "arglist": "__makeref / __arglist"}
NUMBERING = re.compile(r"(m__|c__AnonStorey|c__Iterator|c__async|am\$cache|DisplayClass|<>__|\$)(\w*)")


def _unnumbered(text: str) -> str:
    """Compiler numbering (closure and lambda counters) left out: equal in two builds of one source."""
    return NUMBERING.sub(lambda m: m.group(1) + re.sub(r"\d+", "#", m.group(2)), text)


@dataclass(frozen=True)
class Rules:
    namespaces: tuple[tuple[str, str], ...]
    types: dict
    members: dict
    path_members: dict
    allowed: frozenset
    harmless: frozenset
    restricted: dict
    guarded: dict


@lru_cache(maxsize=4)
def load_rules(path: Path = RULES) -> Rules:
    """policy_rules.tsv -> Rules (the format is described at the top of the file)."""
    kinds: dict[str, list[list[str]]] = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            f = line.split("\t")
            kinds.setdefault(f[0], []).append(f)
    unknown = set(kinds) - {"namespace", "type", "member", "path_member", "allowed", "harmless", "restricted", "guarded"}
    if unknown:
        raise ValueError(f"{path}: unknown rule kind(s) {sorted(unknown)}")
    return Rules(tuple((f[1], f[2]) for f in kinds.get("namespace", [])),
                 {f[2]: f[1] for f in kinds.get("type", [])}, {f[2]: f[1] for f in kinds.get("member", [])},
                 {f[2]: f[1] for f in kinds.get("path_member", [])}, frozenset(f[2] for f in kinds.get("allowed", [])),
                 frozenset(f[2] for f in kinds.get("harmless", [])),
                 {f[2]: frozenset(f[3].split(",")) for f in kinds.get("restricted", [])},
                 {f[2]: f[1] for f in kinds.get("guarded", [])})


# -- types as read from signatures: ("named", table, row) | ("prim", name) | ("ptr"|"byref"|"array"|"pinned", t)
#    | ("generic", t, args) | ("var", n) | ("mvar", n) | ("fnptr",)
class Assembly:
    """One assembly's metadata, with names and signatures decoded on demand."""

    def __init__(self, path: Path):
        import dnfile
        self.pe = dnfile.dnPE(str(path), fast_load=False)
        if self.pe.net is None or self.pe.net.mdtables is None:
            raise ValueError(f"{path} is not a .NET assembly")
        self.t = self.pe.net.mdtables
        self.enclosing = {r.NestedClass.row_index: r.EnclosingClass.row_index for r in self._rows("NestedClass")}
        self.method_owner: dict[int, int] = {}
        self.field_owner: dict[int, int] = {}
        defs = self._rows("TypeDef")
        n_methods, n_fields = len(self._rows("MethodDef")), len(self._rows("Field"))
        for i, row in enumerate(defs, 1):
            for idx in row.MethodList or []:
                self.method_owner[idx.row_index] = i
            for idx in row.FieldList or []:
                self.field_owner[idx.row_index] = i
        del n_methods, n_fields
        self.generated_attr = {r.Parent.row_index for r in self._rows("CustomAttribute")
                               if r.Parent.table is not None and r.Parent.table.name == "TypeDef"
                               and self._attr_name(r) == "CompilerGeneratedAttribute"}
        self.pinvoke = {r.MemberForwarded.row_index for r in self._rows("ImplMap")
                        if r.MemberForwarded.table is not None and r.MemberForwarded.table.name == "MethodDef"}
        self.generic_names: dict[tuple[str, int], list[str]] = {}
        for r in self._rows("GenericParam"):
            key = (r.Owner.table.name if r.Owner.table is not None else "", r.Owner.row_index)
            names = self.generic_names.setdefault(key, [])
            names.extend([""] * (r.Number + 1 - len(names)))
            names[r.Number] = str(r.Name)

    def _rows(self, table: str) -> list:
        tab = getattr(self.t, table, None)
        return tab.rows if tab is not None else []

    def row(self, table: str, index: int):
        return self._rows(table)[index - 1]

    def _attr_name(self, attr) -> str:
        ctor = attr.Type
        if ctor.table is None:
            return ""
        if ctor.table.name == "MemberRef":
            parent = self.row("MemberRef", ctor.row_index).Class
            return str(self.row(parent.table.name, parent.row_index).TypeName) if parent.table.name in ("TypeRef", "TypeDef") else ""
        return str(self.row("TypeDef", self.method_owner.get(ctor.row_index, 1)).TypeName)

    # -- names (as Cecil's FullName: nested types joined by '/') ---------------------------------------
    def type_name(self, table: str, index: int) -> str:
        row = self.row(table, index)
        if table == "TypeDef":
            outer = self.enclosing.get(index)
            if outer:
                return self.type_name("TypeDef", outer) + "/" + str(row.TypeName)
        elif table == "TypeRef":
            scope = row.ResolutionScope
            if scope.table is not None and scope.table.name == "TypeRef":
                return self.type_name("TypeRef", scope.row_index) + "/" + str(row.TypeName)
        ns = str(row.TypeNamespace or "")
        return f"{ns}.{row.TypeName}" if ns else str(row.TypeName)

    def outer_namespace(self, table: str, index: int) -> str:
        while True:
            row = self.row(table, index)
            if table == "TypeDef" and self.enclosing.get(index):
                index = self.enclosing[index]
            elif table == "TypeRef" and row.ResolutionScope.table is not None and row.ResolutionScope.table.name == "TypeRef":
                index = row.ResolutionScope.row_index
            else:
                return str(row.TypeNamespace or "")

    def plain_name(self, index: int) -> str:
        """"Ns.Outer.Inner" without generic arity, as repotrans's index names types."""
        row = self.row("TypeDef", index)
        name = re.sub(r"`\d+$", "", str(row.TypeName))
        outer = self.enclosing.get(index)
        if outer:
            return self.plain_name(outer) + "." + name
        ns = str(row.TypeNamespace or "")
        return f"{ns}.{name}" if ns else name

    # -- signatures (ECMA-335 II.23.2) -------------------------------------------------------------------
    def sig_type(self, blob: bytes, pos: int) -> tuple[tuple, int]:
        code = blob[pos]
        pos += 1
        if code in PRIMITIVES:
            return ("prim", PRIMITIVES[code]), pos
        if code in (0x11, 0x12):
            (table, index), pos = _typedef_or_ref(blob, pos)
            return (("spec", index) if table == "TypeSpec" else ("named", table, index)), pos
        if code in (0x0F, 0x10, 0x1D, 0x45):
            inner, pos = self.sig_type(blob, pos)
            return ({0x0F: "ptr", 0x10: "byref", 0x1D: "array", 0x45: "pinned"}[code], inner), pos
        if code == 0x14:                                  # ARRAY type rank sizes lobounds
            inner, pos = self.sig_type(blob, pos)
            _, pos = _compressed(blob, pos)
            for _ in range(2):
                count, pos = _compressed(blob, pos)
                for _ in range(count):
                    _, pos = _compressed(blob, pos)
            return ("array", inner), pos
        if code == 0x15:                                  # GENERICINST (CLASS|VALUETYPE) type n args
            base, pos = self.sig_type(blob, pos)
            count, pos = _compressed(blob, pos)
            args = []
            for _ in range(count):
                arg, pos = self.sig_type(blob, pos)
                args.append(arg)
            return ("generic", base, tuple(args)), pos
        if code in (0x13, 0x1E):
            number, pos = _compressed(blob, pos)
            return ("var" if code == 0x13 else "mvar", number), pos
        if code == 0x1B:
            _, pos = self.method_sig(blob, pos)
            return ("fnptr",), pos
        if code in (0x1F, 0x20):                          # custom modifier, then the type itself
            _, pos = _typedef_or_ref(blob, pos)
            return self.sig_type(blob, pos)
        if code == 0x41:                                  # sentinel (varargs)
            return self.sig_type(blob, pos)
        raise ValueError(f"unknown element type 0x{code:02x} in a signature")

    def method_sig(self, blob: bytes, pos: int = 0) -> tuple[tuple[tuple, list[tuple]], int]:
        conv = blob[pos]
        pos += 1
        if conv & 0x10:
            _, pos = _compressed(blob, pos)
        count, pos = _compressed(blob, pos)
        ret, pos = self.sig_type(blob, pos)
        params = []
        for _ in range(count):
            p, pos = self.sig_type(blob, pos)
            params.append(p)
        return (ret, params), pos

    def spec(self, index: int) -> tuple:
        return self.sig_type(_blob(self.row("TypeSpec", index).Signature), 0)[0]

    def resolve(self, t: tuple) -> tuple:
        return self.spec(t[1]) if t[0] == "spec" else t

    def locals(self, token: int) -> list[tuple]:
        if not token:
            return []
        blob = _blob(self.row("StandAloneSig", token & 0xFFFFFF).Signature)
        if blob[0] != 0x07:
            return []
        count, pos = _compressed(blob, 1)
        out = []
        for _ in range(count):
            t, pos = self.sig_type(blob, pos)
            out.append(t)
        return out

    def render(self, t: tuple) -> str:
        """A type as text, for keys and messages."""
        t = self.resolve(t)
        kind = t[0]
        if kind == "prim":
            return t[1]
        if kind == "named":
            return self.type_name(t[1], t[2])
        if kind in ("ptr", "byref", "array", "pinned"):
            return self.render(t[1]) + {"ptr": "*", "byref": "&", "array": "[]", "pinned": " pinned"}[kind]
        if kind == "generic":
            return self.render(t[1]) + "<" + ",".join(self.render(a) for a in t[2]) + ">"
        if kind in ("var", "mvar"):
            return ("!" if kind == "var" else "!!") + str(t[1])
        return "method pointer"

    def simple(self, t: tuple, owner: tuple[str, int] | None = None) -> str:
        """Cecil's simple name of a parameter type: "ISet", "Int32[]", "T" (policy.MemberRef.param_types)."""
        t = self.resolve(t)
        kind = t[0]
        if kind in ("byref", "pinned"):
            return self.simple(t[1], owner)
        if kind == "array":
            return self.simple(t[1], owner) + "[]"
        if kind == "generic":
            return self.simple(t[1], owner)
        if kind in ("var", "mvar") and owner:
            names = self.generic_names.get(owner, [])
            return names[t[1]] if t[1] < len(names) else ""
        name = self.render(t).rsplit("/", 1)[-1].rsplit(".", 1)[-1]
        return re.sub(r"`\d+$", "", name)


def _blob(item) -> bytes:
    value = getattr(item, "value", item)
    return bytes(value or b"")


def _compressed(blob: bytes, pos: int) -> tuple[int, int]:
    b = blob[pos]
    if b & 0x80 == 0:
        return b, pos + 1
    if b & 0xC0 == 0x80:
        return ((b & 0x3F) << 8) | blob[pos + 1], pos + 2
    return ((b & 0x1F) << 24) | (blob[pos + 1] << 16) | (blob[pos + 2] << 8) | blob[pos + 3], pos + 4


def _typedef_or_ref(blob: bytes, pos: int) -> tuple[tuple[str, int], int]:
    coded, pos = _compressed(blob, pos)
    return (TYPEDEF_OR_REF[coded & 3], coded >> 2), pos


@dataclass
class _Job:
    asm: Assembly
    rules: Rules
    allowed: frozenset[str]
    denials: dict[tuple[str, str], str] = field(default_factory=dict)
    where: str = ""

    def deny(self, capability: str, api: str) -> None:
        if capability not in self.allowed:
            self.denials.setdefault((capability, api), self.where)


@dataclass(frozen=True)
class _Member:
    declaring: tuple                 # a type tuple (generic instances included)
    name: str
    is_field: bool
    ret: tuple | None
    params: tuple
    generic_args: tuple = ()
    local: tuple[str, int] | None = None     # ("MethodDef" | "Field", row) when defined in this module


class _Body:
    """dncil's reader over the assembly's bytes."""

    def __new__(cls, asm: Assembly, rva: int):
        from dncil.cil.body import CilMethodBody
        from dncil.cil.body.reader import CilMethodBodyReaderBase

        class Reader(CilMethodBodyReaderBase):
            def __init__(self, data: bytes, offset: int):
                self.data, self.offset = data, offset

            def read(self, n: int) -> bytes:
                out = self.data[self.offset:self.offset + n]
                self.offset += n
                return out

            def tell(self) -> int:
                return self.offset

            def seek(self, offset: int) -> int:
                self.offset = offset
                return offset

        return CilMethodBody(Reader(asm.pe.__data__, asm.pe.get_offset_from_rva(rva)))


class Checker:
    """Reads one assembly; `check` answers one job as il_policy.cs does."""

    def __init__(self, path: Path, rules: Rules | None = None):
        self.asm = Assembly(path)
        self.rules = rules or load_rules()
        a = self.asm
        self.children: dict[int, list[int]] = {}
        for nested, outer in sorted(a.enclosing.items()):
            self.children.setdefault(outer, []).append(nested)
        self.methods_of: dict[int, list[int]] = {}
        for m, owner in sorted(a.method_owner.items()):
            self.methods_of.setdefault(owner, []).append(m)
        self.fields_of: dict[int, list[int]] = {}
        for f, owner in sorted(a.field_owner.items()):
            self.fields_of.setdefault(owner, []).append(f)
        self._bodies: dict[int, object] = {}

    # -- what a token names ---------------------------------------------------------------------------
    def method_def(self, index: int) -> _Member:
        row = self.asm.row("MethodDef", index)
        ret, params = self.asm.method_sig(_blob(row.Signature))[0]
        owner = self.asm.method_owner.get(index, 1)
        return _Member(("named", "TypeDef", owner), str(row.Name), False, ret, tuple(params), (), ("MethodDef", index))

    def member(self, token: int) -> _Member | tuple | None:
        """A type tuple for a type token, a _Member for a method or field token, else None."""
        table, index = TOKEN_TABLES.get(token >> 24), token & 0xFFFFFF
        a = self.asm
        if table in ("TypeDef", "TypeRef"):
            return ("named", table, index)
        if table == "TypeSpec":
            return a.spec(index)
        if table == "MethodDef":
            return self.method_def(index)
        if table == "Field":
            row = a.row("Field", index)
            ftype = a.sig_type(_blob(row.Signature), 1)[0]
            return _Member(("named", "TypeDef", a.field_owner.get(index, 1)), str(row.Name), True, ftype, (), (),
                           ("Field", index))
        if table == "MemberRef":
            row = a.row("MemberRef", index)
            parent, blob = row.Class, _blob(row.Signature)
            ptable = parent.table.name if parent.table is not None else ""
            if ptable == "MethodDef":                       # a vararg call site of a local method
                return self.method_def(parent.row_index)
            declaring = (a.spec(parent.row_index) if ptable == "TypeSpec" else ("named", ptable, parent.row_index)
                         if ptable in ("TypeDef", "TypeRef") else ("prim", "<Module>"))
            if blob[:1] == b"\x06":
                return _Member(declaring, str(row.Name), True, a.sig_type(blob, 1)[0], ())
            ret, params = a.method_sig(blob)[0]
            return _Member(declaring, str(row.Name), False, ret, tuple(params))
        if table == "MethodSpec":
            row = a.row("MethodSpec", index)
            base = self.member((0x06 if row.Method.table.name == "MethodDef" else 0x0A) << 24 | row.Method.row_index)
            blob = _blob(row.Instantiation)
            count, pos = _compressed(blob, 1)
            args = []
            for _ in range(count):
                t, pos = a.sig_type(blob, pos)
                args.append(t)
            return _Member(base.declaring, base.name, False, base.ret, base.params, tuple(args), base.local)
        return None

    def element(self, t: tuple) -> tuple:
        t = self.asm.resolve(t)
        while t[0] in ("generic", "ptr", "byref", "array", "pinned"):
            t = self.asm.resolve(t[1])
        return t

    def full_name(self, t: tuple) -> str:
        t = self.asm.resolve(t)
        return self.asm.render(t)

    # -- the rules ------------------------------------------------------------------------------------
    def check_type(self, job: _Job, t: tuple | None) -> None:
        if t is None:
            return
        t = self.asm.resolve(t)
        kind = t[0]
        if kind in ("ptr", "fnptr"):
            job.deny("unsafe", f"pointer type {self.asm.render(t)} (unsafe code)")
            return
        if kind == "generic":
            for arg in t[2]:
                self.check_type(job, arg)
            self.check_type(job, t[1])
            return
        if kind in ("byref", "array", "pinned"):
            self.check_type(job, t[1])
            return
        if kind in ("var", "mvar") or (kind == "prim" and t[1] == "<Module>"):
            return
        full = self.asm.render(t).replace("/", ".")
        ns = "System" if kind == "prim" else self.asm.outer_namespace(t[1], t[2])
        r = self.rules
        if full in r.restricted:
            return
        if full in r.types:
            job.deny(r.types[full], full)
            return
        for capability, prefix in r.namespaces:
            if ns == prefix or ns.startswith(prefix + ".") or full.startswith(prefix + "."):
                job.deny(capability, full)
                return

    def check_member(self, job: _Job, m: _Member) -> None:
        r = self.rules
        elem = self.element(m.declaring)
        type_name = self.asm.render(elem) if elem[0] != "prim" or elem[1] != "<Module>" else ""
        key = f"{type_name}::{m.name}"
        if key in r.harmless:
            return
        self.check_type(job, m.declaring)
        if m.is_field:
            self.check_type(job, m.ret)
            return
        self.check_type(job, m.ret)
        for p in m.params:
            self.check_type(job, p)
        for g in m.generic_args:
            self.check_type(job, g)
        display = key.replace("::", ".").replace("..ctor", " constructor")
        if type_name in r.restricted:
            if m.name not in r.restricted[type_name]:
                job.deny("reflection", display)
        elif key in r.members:
            if key != "System.Type::GetType" or m.params:       # obj.GetType() is Object's
                job.deny(r.members[key], display)
        elif key in r.path_members and m.params and self.asm.resolve(m.params[0]) == ("prim", "System.String"):
            job.deny(r.path_members[key], display + "(string path)")
        elif type_name in r.guarded and key not in r.allowed:
            job.deny(r.guarded[type_name], display)

    def body(self, index: int):
        if index not in self._bodies:
            rva = self.asm.row("MethodDef", index).Rva
            self._bodies[index] = _Body(self.asm, rva) if rva else None
        return self._bodies[index]

    def inspect(self, job: _Job, index: int) -> list[tuple[str, int]]:
        """Names every denied reference of one method; returns the definitions of this module it reaches."""
        a, row = self.asm, self.asm.row("MethodDef", index)
        m = self.method_def(index)
        job.where = f"{a.render(m.declaring)}::{m.name}"
        reached: list[tuple[str, int]] = []
        if row.Flags.mdPinvokeImpl or row.ImplFlags.miInternalCall or row.ImplFlags.miUnmanaged or index in a.pinvoke:
            job.deny("interop", f"extern method {m.name} (DllImport / extern)")
        self.check_type(job, m.ret)
        for p in m.params:
            self.check_type(job, p)
        body = self.body(index)
        if body is None:
            return reached
        for t in a.locals(body.local_var_sig_tok.value if body.local_var_sig_tok else 0):
            if t[0] == "pinned":
                job.deny("unsafe", "fixed (a pinned pointer: unsafe code)")
            self.check_type(job, t)
        code = body.instructions
        for i, ins in enumerate(code):
            op = ins.opcode.name.lower()
            if op in UNSAFE_OPS:
                job.deny("unsafe", UNSAFE_OPS[op])
            elif op in ("ldftn", "ldvirtftn") and not self._makes_delegate(code, i):
                job.deny("unsafe", "a function pointer (ldftn not made into a delegate)")
            operand = getattr(ins.operand, "value", None) if type(ins.operand).__name__ == "Token" else None
            if operand is None or op == "calli":
                continue
            target = self.member(operand)
            if isinstance(target, tuple):
                self.check_type(job, target)
            elif target is not None:
                self.check_member(job, target)
                local = self._local(target)
                if local:
                    reached.append(local)
        return reached

    def _makes_delegate(self, code, i: int) -> bool:
        if i + 1 >= len(code) or code[i + 1].opcode.name.lower() != "newobj":
            return False
        ctor = self.member(code[i + 1].operand.value)
        return (isinstance(ctor, _Member) and len(ctor.params) == 2
                and self.asm.resolve(ctor.params[1]) == ("prim", "System.IntPtr"))

    def _local(self, m: _Member) -> tuple[str, int] | None:
        if m.local and m.local[0] == "MethodDef":
            return m.local
        decl = self.element(m.declaring)
        if decl[0] != "named" or decl[1] != "TypeDef":
            return None
        if not m.is_field:
            for idx in self.methods_of.get(decl[2], []):
                d = self.method_def(idx)
                if d.name == m.name and len(d.params) == len(m.params):
                    return ("MethodDef", idx)
        return ("TypeDef", decl[2])

    # -- a job ----------------------------------------------------------------------------------------
    def generated_type(self, index: int) -> bool:
        a = self.asm
        while index:
            name = str(a.row("TypeDef", index).TypeName)
            if _generated(name) or index in a.generated_attr:
                return True
            index = a.enclosing.get(index, 0)
        return False

    def nested(self, index: int) -> list[int]:
        out = [index]
        for child in self.children.get(index, []):
            out += self.nested(child)
        return out

    def key(self, index: int) -> str:
        """A method's identity and IL with tokens named and compiler numbering left out."""
        a, m = self.asm, self.method_def(index)
        parts = [f"{a.render(m.declaring)}::{m.name}({','.join(a.render(p) for p in m.params)}){a.render(m.ret)}"]
        body = self.body(index)
        for ins in body.instructions if body is not None else []:
            operand = ins.operand
            if type(operand).__name__ == "Token" and (operand.value >> 24) in TOKEN_TABLES:
                target = self.member(operand.value)
                text = (a.render(target) if isinstance(target, tuple) else
                        f"{a.render(target.declaring)}::{target.name}({','.join(a.render(p) for p in target.params)})"
                        f"<{','.join(a.render(g) for g in target.generic_args)}>")
            elif type(operand).__name__ == "StringToken":
                text = a.pe.net.user_strings.get(operand.value & 0xFFFFFF).value if a.pe.net.user_strings else ""
            else:
                text = ins.get_operand_bytes().hex()
            parts.append(f"{ins.opcode.name} {text}")
        return _unnumbered("\n".join(parts))

    def keys(self) -> set[str]:
        return {self.key(i) for i in range(1, len(self.asm._rows("MethodDef")) + 1)}

    def check(self, member: MemberRef | None, allowed: frozenset[str], baseline_keys: set[str] | None) -> PolicyVerdict:
        started = time.perf_counter()
        a = self.asm
        job = _Job(a, self.rules, allowed)
        order = [i for top in range(1, len(a._rows("TypeDef")) + 1) if top not in a.enclosing for i in self.nested(top)]
        roots: list[int] = []
        owner = next((i for i in order if member and a.plain_name(i) == member.type_name), None)
        if owner is not None:
            mine = self.methods_of.get(owner, [])
            roots = [i for i in mine if any(self.method_def(i).name == n or self.method_def(i).name.endswith("." + n)
                                            for n in member.names)
                     and (member.arity < 0 or len(self.method_def(i).params) == member.arity)]
            if not roots:
                roots = list(mine)
            if member.param_types:
                exact = [i for i in roots if tuple(a.simple(p, self._generic_owner(i, p)) for p in
                                                   self.method_def(i).params) == tuple(member.param_types)]
                if 0 < len(exact) < len(roots):
                    roots = exact
        if baseline_keys is not None:
            roots += [i for i in range(1, len(a._rows("MethodDef")) + 1) if self.key(i) not in baseline_keys]
        seen: set[int] = set()
        seen_types: set[int] = set()
        work = list(reversed(roots))
        while work:
            index = work.pop()
            if index in seen:
                continue
            seen.add(index)
            for table, reached in self.inspect(job, index):
                type_index = reached if table == "TypeDef" else a.method_owner.get(reached, 0)
                if table == "MethodDef" and _generated(str(a.row("MethodDef", reached).Name)):
                    work.append(reached)
                elif type_index and self.generated_type(type_index) and type_index not in seen_types:
                    seen_types.add(type_index)
                    for t in self.nested(type_index):
                        for f in self.fields_of.get(t, []):
                            row = a.row("Field", f)
                            job.where = f"{a.type_name('TypeDef', t)}::{row.Name}"
                            self.check_type(job, a.sig_type(_blob(row.Signature), 1)[0])
                        work.extend(self.methods_of.get(t, []))
        verdict = PolicyVerdict(denials=[Denial(c, api, where) for (c, api), where in sorted(job.denials.items())],
                                inspected=len(seen))
        verdict.denials.sort(key=lambda d: (_CAPS.index(d.capability) if d.capability in _CAPS else 99, d.api))
        verdict.seconds = time.perf_counter() - started
        return verdict

    def _generic_owner(self, method: int, t: tuple) -> tuple[str, int]:
        t = self.asm.resolve(t)
        while t[0] in ("byref", "array", "pinned", "generic"):
            t = self.asm.resolve(t[1])
        if t[0] == "mvar":
            return ("MethodDef", method)
        return ("TypeDef", self.asm.method_owner.get(method, 1))


def _generated(name: str) -> bool:
    return name.startswith("<") or "$" in name


_CAPS = ("reflection", "unsafe", "interop", "test_framework", "process", "console", "file_system")


@lru_cache(maxsize=8)
def _baseline_keys(path: str, mtime_ns: int, size: int) -> frozenset[str]:
    return frozenset(Checker(Path(path)).keys())


def check_assembly(candidate: Path, baseline: Path | None, member: MemberRef | None,
                   allowed: frozenset[str]) -> PolicyVerdict:
    """One job, as policy.job_line describes it for il_policy.cs; an unreadable assembly is an error
    verdict (the candidate is rejected, never passed unchecked). The baseline's keys are cached per
    file state, so a workspace pays for them once."""
    started = time.perf_counter()
    try:
        keys = None
        if baseline is not None:
            st = Path(baseline).stat()
            keys = set(_baseline_keys(str(baseline), st.st_mtime_ns, st.st_size))
        verdict = Checker(Path(candidate)).check(member, allowed, keys)
    except Exception as exc:  # a malformed assembly: reject with the reason
        verdict = PolicyVerdict(error=f"{type(exc).__name__}: {exc}")
    verdict.seconds = time.perf_counter() - started
    return verdict
