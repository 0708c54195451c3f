"""One .NET assembly's metadata read from its bytes (dnfile tables, signatures decoded per ECMA-335
II.23.2, method bodies by dncil): names as Mono.Cecil writes them (nested types joined by '/'), for
the pure-Python capability checker (il_check). Nothing in the assembly is loaded or run.

A type read from a signature is a tuple: ("named", table, row) | ("prim", full name) | ("spec", row)
| ("ptr" | "byref" | "array" | "pinned", inner) | ("generic", base, args) | ("var" | "mvar", n) | ("fnptr",).
"""
from __future__ import annotations

import re
from pathlib import Path

# ECMA-335 II.23.1.16 element types with a fixed name
PRIMITIVES = {0x01: "System.Void", 0x02: "System.Boolean", 0x03: "System.Char", 0x04: "System.SByte",
              0x05: "System.Byte", 0x06: "System.Int16", 0x07: "System.UInt16", 0x08: "System.Int32",
              0x09: "System.UInt32", 0x0A: "System.Int64", 0x0B: "System.UInt64", 0x0C: "System.Single",
              0x0D: "System.Double", 0x0E: "System.String", 0x16: "System.TypedReference", 0x18: "System.IntPtr",
              0x19: "System.UIntPtr", 0x1C: "System.Object"}
TYPEDEF_OR_REF = ("TypeDef", "TypeRef", "TypeSpec")


class Assembly:
    """One assembly's metadata, with names and signatures decoded on demand."""

    def __init__(self, path: Path):
        import dnfile
        import pefile
        self.pe = dnfile.dnPE(str(path), fast_load=True)         # only the CLR header's directory is read
        self.pe.parse_data_directories(directories=[pefile.DIRECTORY_ENTRY["IMAGE_DIRECTORY_ENTRY_COM_DESCRIPTOR"]])
        if getattr(self.pe, "net", None) is None or self.pe.net.mdtables is None:
            raise ValueError(f"{path} is not a .NET assembly")
        self.t = self.pe.net.mdtables
        self.enclosing = {r.NestedClass.row_index: r.EnclosingClass.row_index for r in self.rows("NestedClass")}
        self.method_owner: dict[int, int] = {}
        self.field_owner: dict[int, int] = {}
        for i, row in enumerate(self.rows("TypeDef"), 1):
            for idx in row.MethodList or []:
                self.method_owner[idx.row_index] = i
            for idx in row.FieldList or []:
                self.field_owner[idx.row_index] = i
        self.generated_attr = {r.Parent.row_index for r in self.rows("CustomAttribute")
                               if r.Parent.table is not None and r.Parent.table.name == "TypeDef"
                               and self._attr_name(r) == "CompilerGeneratedAttribute"}
        self.pinvoke = {r.MemberForwarded.row_index for r in self.rows("ImplMap")
                        if r.MemberForwarded.table is not None and r.MemberForwarded.table.name == "MethodDef"}
        self.generic_names: dict[tuple[str, int], list[str]] = {}
        for r in self.rows("GenericParam"):
            key = (r.Owner.table.name if r.Owner.table is not None else "", r.Owner.row_index)
            names = self.generic_names.setdefault(key, [])
            names.extend([""] * (r.Number + 1 - len(names)))
            names[r.Number] = str(r.Name)

    def rows(self, table: str) -> list:
        tab = getattr(self.t, table, None)
        return tab.rows if tab is not None else []

    def row(self, table: str, index: int):
        return self.rows(table)[index - 1]

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
            (table, index), pos = typedef_or_ref(blob, pos)
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


class Body:
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
