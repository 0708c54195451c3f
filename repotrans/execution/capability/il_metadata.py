"""One .NET assembly's metadata read from its bytes (dnfile tables, signatures decoded per ECMA-335
II.23.2, method bodies by our own IL scanner): names as Mono.Cecil writes them (nested types joined by '/'), for
the pure-Python capability checker (il_check). Nothing in the assembly is loaded or run.

A type read from a signature is a tuple: ("named", table, row) | ("prim", full name) | ("spec", row)
| ("ptr" | "byref" | "array" | "pinned", inner) | ("generic", base, args) | ("var" | "mvar", n) | ("fnptr",).
"""
from __future__ import annotations

import re
import struct
from functools import cached_property
from pathlib import Path
from typing import NamedTuple

# ECMA-335 II.23.1.16 element types with a fixed name
PRIMITIVES = {0x01: "System.Void", 0x02: "System.Boolean", 0x03: "System.Char", 0x04: "System.SByte",
              0x05: "System.Byte", 0x06: "System.Int16", 0x07: "System.UInt16", 0x08: "System.Int32",
              0x09: "System.UInt32", 0x0A: "System.Int64", 0x0B: "System.UInt64", 0x0C: "System.Single",
              0x0D: "System.Double", 0x0E: "System.String", 0x16: "System.TypedReference", 0x18: "System.IntPtr",
              0x19: "System.UIntPtr", 0x1C: "System.Object"}
TYPEDEF_OR_REF = ("TypeDef", "TypeRef", "TypeSpec")
LDTOKEN = 0xD0          # ECMA-335 III.4.17's opcode
# ECMA-335 II.22: the tables a metadata token's high byte names
TOKEN_TABLES = {0x01: "TypeRef", 0x02: "TypeDef", 0x04: "Field", 0x06: "MethodDef", 0x0A: "MemberRef",
                0x1B: "TypeSpec", 0x2B: "MethodSpec"}


def compiler_generated(name: str) -> bool:
    """Whether a type or method name is one the C# compiler makes (lambdas, closures, iterators)."""
    return name.startswith("<") or "$" in name


def compiler_named(a: "Assembly", t: int) -> bool:
    """Whether TypeDef `t` or a type it is nested in has a compiler's name ([CompilerGenerated] aside: a
    candidate can write that attribute, and generated code the port compiles carries it)."""
    while t:
        if compiler_generated(str(a.row("TypeDef", t).TypeName)):
            return True
        t = a.enclosing.get(t, 0)
    return False


class Assembly:
    """One assembly's metadata, with names and signatures decoded on demand."""

    def __init__(self, path: Path):
        import dnfile
        import pefile
        self.pe = dnfile.dnPE(str(path), fast_load=True, clr_lazy_load=True)   # rows parsed when read
        self.pe.parse_data_directories(directories=[pefile.DIRECTORY_ENTRY["IMAGE_DIRECTORY_ENTRY_COM_DESCRIPTOR"]])
        if getattr(self.pe, "net", None) is None or self.pe.net.mdtables is None:
            raise ValueError(f"{path} is not a .NET assembly")
        self.t = self.pe.net.mdtables
        self.data = self.pe.__data__
        self._names: dict[tuple[str, int], str] = {}
        self.value_types: set[tuple[str, int]] = set()     # named types some signature encodes as value types
        self.enclosing = {r.struct.NestedClass_Index: r.struct.EnclosingClass_Index for r in self.rows("NestedClass")}
        for start in self.enclosing:            # every walk up the nesting ends (no compiler writes a cycle)
            seen, index = set(), start
            while index in self.enclosing:
                if index in seen:
                    raise ValueError(f"type {index} is nested in itself (a cycle in the NestedClass table)")
                seen.add(index)
                index = self.enclosing[index]
        self.method_owner: dict[int, int] = {}
        self.field_owner: dict[int, int] = {}
        # a type owns the methods (fields) from its MethodList (FieldList) row to the next type's
        defs = self.rows("TypeDef")
        for table, attr, owner in (("MethodDef", "MethodList_Index", self.method_owner),
                                   ("Field", "FieldList_Index", self.field_owner)):
            starts = [getattr(row.struct, attr) for row in defs] + [len(self.rows(table)) + 1]
            for i in range(len(defs)):
                for index in range(starts[i], max(starts[i], starts[i + 1])):
                    owner[index] = i + 1

    # read on first use: a framework assembly read for its declarations (il_framework) never needs them
    @cached_property
    def generated_attr(self) -> set[int]:
        """The TypeDef rows carrying [CompilerGenerated]."""
        attrs = [self.row("CustomAttribute", i) for i in range(1, len(self.rows("CustomAttribute")) + 1)]
        return {r.Parent.row_index for r in attrs if r.Parent.table is not None
                and r.Parent.table.name == "TypeDef" and self._attr_name(r) == "CompilerGeneratedAttribute"}

    @cached_property
    def pinvoke(self) -> set[int]:
        """The MethodDef rows an ImplMap forwards (DllImport)."""
        maps = [self.row("ImplMap", i) for i in range(1, len(self.rows("ImplMap")) + 1)]
        return {r.MemberForwarded.row_index for r in maps
                if r.MemberForwarded.table is not None and r.MemberForwarded.table.name == "MethodDef"}

    @cached_property
    def generic_names(self) -> dict[tuple[str, int], list[str]]:
        """(owner table, row) -> its generic parameters' names by number."""
        out: dict[tuple[str, int], list[str]] = {}
        for r in (self.row("GenericParam", i) for i in range(1, len(self.rows("GenericParam")) + 1)):
            key = (r.Owner.table.name if r.Owner.table is not None else "", r.Owner.row_index)
            names = out.setdefault(key, [])
            names.extend([""] * (r.Number + 1 - len(names)))
            names[r.Number] = str(r.Name)
        return out

    def rows(self, table: str) -> list:
        tab = self.t.__dict__.get(table)        # as attributes: a coded field would load every table
        return tab.rows if tab is not None else []

    def row(self, table: str, index: int) -> "Row":
        return Row(self, table, self.rows(table)[index - 1].struct)

    def user_string(self, token: int) -> str:
        """The #US heap string an ldstr names."""
        heap = self.pe.net.user_strings
        item = heap.get(token & 0xFFFFFF) if heap is not None else None
        return str(getattr(item, "value", item) or "")

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
        key = (table, index)
        if key not in self._names:
            self._names[key] = self._type_name(table, index)
        return self._names[key]

    def _type_name(self, table: str, index: int) -> str:
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
        for _ in range(len(self.rows(table)) + 1):      # a scope chain longer than the table is a cycle
            row = self.row(table, index)
            if table == "TypeDef" and self.enclosing.get(index):
                index = self.enclosing[index]
            elif table == "TypeRef" and row.ResolutionScope.table is not None and row.ResolutionScope.table.name == "TypeRef":
                index = row.ResolutionScope.row_index
            else:
                return str(row.TypeNamespace or "")
        raise ValueError(f"{table} {index} is its own outer type (a cycle)")

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
            (table, index), pos = typedef_or_ref(blob, pos)
            if code == 0x11 and table != "TypeSpec":
                self.value_types.add((table, index))
            return (("spec", index) if table == "TypeSpec" else ("named", table, index)), pos
        if code in (0x0F, 0x10, 0x1D, 0x45):
            inner, pos = self.sig_type(blob, pos)
            return ({0x0F: "ptr", 0x10: "byref", 0x1D: "array", 0x45: "pinned"}[code], inner), pos
        if code == 0x14:                                  # ARRAY type rank sizes lobounds
            inner, pos = self.sig_type(blob, pos)
            _, pos = compressed(blob, pos)
            for _ in range(2):
                count, pos = compressed(blob, pos)
                for _ in range(count):
                    _, pos = compressed(blob, pos)
            return ("array", inner), pos
        if code == 0x15:                                  # GENERICINST (CLASS|VALUETYPE) type n args
            base, pos = self.sig_type(blob, pos)
            count, pos = compressed(blob, pos)
            args = []
            for _ in range(count):
                arg, pos = self.sig_type(blob, pos)
                args.append(arg)
            return ("generic", base, tuple(args)), pos
        if code in (0x13, 0x1E):
            number, pos = compressed(blob, pos)
            return ("var" if code == 0x13 else "mvar", number), pos
        if code == 0x1B:
            _, pos = self.method_sig(blob, pos)
            return ("fnptr",), pos
        if code in (0x1F, 0x20):                          # custom modifier, then the type itself
            _, pos = typedef_or_ref(blob, pos)
            return self.sig_type(blob, pos)
        if code == 0x41:                                  # sentinel (varargs)
            return self.sig_type(blob, pos)
        raise ValueError(f"unknown element type 0x{code:02x} in a signature")

    def method_sig(self, blob: bytes, pos: int = 0) -> tuple[tuple[tuple, list[tuple]], int]:
        conv = blob[pos]
        pos += 1
        if conv & 0x10:
            _, pos = compressed(blob, pos)
        count, pos = compressed(blob, pos)
        ret, pos = self.sig_type(blob, pos)
        params = []
        for _ in range(count):
            p, pos = self.sig_type(blob, pos)
            params.append(p)
        return (ret, params), pos

    def spec(self, index: int) -> tuple:
        return self.sig_type(blob_bytes(self.row("TypeSpec", index).Signature), 0)[0]

    def resolve(self, t: tuple) -> tuple:
        return self.spec(t[1]) if t[0] == "spec" else t

    def locals(self, token: int) -> list[tuple]:
        if not token:
            return []
        blob = blob_bytes(self.row("StandAloneSig", token & 0xFFFFFF).Signature)
        if blob[0] != 0x07:
            return []
        count, pos = compressed(blob, 1)
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


# coded indexes (II.24.2.6): tag bits and the tables they name
CODED = {"TypeDefOrRef": (2, ("TypeDef", "TypeRef", "TypeSpec")),
         "HasCustomAttribute": (5, ("MethodDef", "Field", "TypeRef", "TypeDef", "Param", "InterfaceImpl", "MemberRef",
                                    "Module", "DeclSecurity", "Property", "Event", "StandAloneSig", "ModuleRef",
                                    "TypeSpec", "Assembly", "AssemblyRef", "File", "ExportedType", "ManifestResource",
                                    "GenericParam", "GenericParamConstraint", "MethodSpec")),
         "MemberRefParent": (3, ("TypeDef", "TypeRef", "ModuleRef", "MethodDef", "TypeSpec")),
         "MemberForwarded": (1, ("Field", "MethodDef")), "MethodDefOrRef": (1, ("MethodDef", "MemberRef")),
         "ResolutionScope": (2, ("Module", "ModuleRef", "AssemblyRef", "TypeRef")),
         "TypeOrMethodDef": (1, ("TypeDef", "MethodDef")), "Implementation": (2, ("File", "AssemblyRef", "ExportedType")), "CustomAttributeType": (3, ("", "", "MethodDef", "MemberRef", ""))}
FIELD_CODES = {("MemberRef", "Class"): "MemberRefParent", ("CustomAttribute", "Parent"): "HasCustomAttribute",
               ("CustomAttribute", "Type"): "CustomAttributeType", ("ImplMap", "MemberForwarded"): "MemberForwarded",
               ("GenericParam", "Owner"): "TypeOrMethodDef", ("MethodSpec", "Method"): "MethodDefOrRef",
               ("TypeRef", "ResolutionScope"): "ResolutionScope", ("TypeDef", "Extends"): "TypeDefOrRef",
               ("InterfaceImpl", "Interface"): "TypeDefOrRef", ("ExportedType", "Implementation"): "Implementation"}


class _Table(NamedTuple):
    name: str


class Ref(NamedTuple):
    """A coded index decoded: its table (None for a null reference) and row."""
    table: _Table | None
    row_index: int


class Row:
    """One metadata row read from its raw struct (heap strings and blobs looked up, coded indexes
    decoded): dnfile resolves a coded field by parsing every table of the assembly first."""

    def __init__(self, asm: Assembly, table: str, raw):
        self._asm, self._table, self._raw = asm, table, raw

    def __getattr__(self, name: str):
        raw, net = self._raw, self._asm.pe.net
        if hasattr(raw, name + "_StringIndex"):
            item = net.strings.get(getattr(raw, name + "_StringIndex")) if net.strings is not None else None
            return str(getattr(item, "value", item) or "")
        if hasattr(raw, name + "_BlobIndex"):
            item = net.blobs.get(getattr(raw, name + "_BlobIndex")) if net.blobs is not None else None
            return bytes(getattr(item, "value", item) or b"")
        if hasattr(raw, name + "_CodedIndex"):
            bits, tables = CODED[FIELD_CODES[(self._table, name)]]
            value = getattr(raw, name + "_CodedIndex")
            tag, index = value & ((1 << bits) - 1), value >> bits
            table = tables[tag] if tag < len(tables) and tables[tag] else None
            return Ref(_Table(table) if table and index else None, index)
        if hasattr(raw, name + "_Index"):
            return getattr(raw, name + "_Index")
        return getattr(raw, name)


def blob_bytes(item) -> bytes:
    value = getattr(item, "value", item)
    return bytes(value or b"")


def compressed(blob: bytes, pos: int) -> tuple[int, int]:
    b = blob[pos]
    if b & 0x80 == 0:
        return b, pos + 1
    if b & 0xC0 == 0x80:
        return ((b & 0x3F) << 8) | blob[pos + 1], pos + 2
    return ((b & 0x1F) << 24) | (blob[pos + 1] << 16) | (blob[pos + 2] << 8) | blob[pos + 3], pos + 4


def typedef_or_ref(blob: bytes, pos: int) -> tuple[tuple[str, int], int]:
    coded, pos = compressed(blob, pos)
    return (TYPEDEF_OR_REF[coded & 3], coded >> 2), pos


# ECMA-335 III: operand sizes by opcode (one-byte opcodes, then those after the 0xFE prefix); a token
# operand (4 bytes naming a metadata row) is marked "tok", a switch "switch"
_ONE = {**{op: 1 for op in (0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x1F, 0xDE, *range(0x2B, 0x38))},
        **{op: 4 for op in (0x20, 0x22, 0xDD, *range(0x38, 0x45))}, 0x21: 8, 0x23: 8, 0x45: "switch",
        **{op: "tok" for op in (0x27, 0x28, 0x29, 0x6F, 0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x79, 0x7B, 0x7C, 0x7D,
                                0x7E, 0x7F, 0x80, 0x81, 0x8C, 0x8D, 0x8F, 0xA3, 0xA4, 0xA5, 0xC2, 0xC6, 0xD0)}}
_TWO = {0x06: "tok", 0x07: "tok", 0x15: "tok", 0x16: "tok", 0x1C: "tok", 0x12: 1, 0x19: 1,
        **{op: 2 for op in range(0x09, 0x0F)}}
# the opcodes the policy names, by (prefix, byte)
OPCODES = {(0, 0x29): "calli", (0, 0x72): "ldstr", (0, 0x73): "newobj", (0, 0xC2): "refanyval",
           (0, 0xC6): "mkrefany", (0xFE, 0x00): "arglist", (0xFE, 0x06): "ldftn", (0xFE, 0x07): "ldvirtftn",
           (0xFE, 0x0F): "localloc", (0xFE, 0x17): "cpblk", (0xFE, 0x18): "initblk", (0xFE, 0x1D): "refanytype"}


# an instruction: (opcode (0xFE00 | byte for two-byte ones), name for those in OPCODES else "", the
# metadata token of a token operand else 0, the operand's bytes); plain tuples, a body has thousands
Instruction = tuple[int, str, int, bytes]
OP, NAME, TOKEN, OPERAND = range(4)


class Body(NamedTuple):
    locals_token: int        # the StandAloneSig of its locals (0: none)
    instructions: list[Instruction]


def read_body(data: bytes, offset: int) -> Body:
    """A method body at a file offset: its header (tiny or fat) and instructions (II.25.4)."""
    first = data[offset]
    if first & 3 == 2:                                 # tiny: code size in the high 6 bits, no locals
        start, size, local = offset + 1, first >> 2, 0
    else:
        header = (struct.unpack_from("<H", data, offset)[0] >> 12) * 4
        size, local = struct.unpack_from("<II", data, offset + 4)
        start = offset + header
    code, pos, end, out = data, start, start + size, []
    while pos < end:
        op = code[pos]
        pos += 1
        kind = _ONE.get(op, 0)
        if op == 0xFE:
            op = 0xFE00 | code[pos]
            pos += 1
            kind = _TWO.get(op & 0xFF, 0)
        if kind == "switch":
            width = 4 + 4 * struct.unpack_from("<I", code, pos)[0]
        else:
            width = 4 if kind == "tok" else kind
        operand = code[pos:pos + width]
        pos += width
        token = struct.unpack("<I", operand)[0] if kind == "tok" else 0
        out.append((op, OPCODES.get((op >> 8, op & 0xFF), ""), token, operand))
    return Body(local, out)
