"""Type safety, the precondition every in-process rule of the allowlist assumes, checked as a positive
model of its own for the Python checker (il_check; cecil_typesafe.cs does the same for the Cecil one):

- the candidate's code (the methods the checker inspects: its member, what it added or changed, the
  compiler-generated code they reach) must be verifiable IL: mono's own verifier (`pedump --verify code`,
  Debian's mono-utils) reads the candidate assembly, and a finding in one of those methods is denied; the
  port's own unverifiable code elsewhere is not the candidate's. An assembly built against the .NET SDK's
  reference assemblies (no mscorlib) cannot be verified by mono: the metadata model below still applies;
- its metadata comes from a short allowed set: the types it declares have auto or sequential layout (no
  StructLayout(Explicit), FieldOffset, packing or size, RVA data or marshalling on their fields), its methods
  are IL (managed, no PInvokeImpl, InternalCall, unmanaged export, forwarded or security-checked bodies;
  runtime-implemented only in a delegate), its types derive from no proxy base the runtime treats specially,
  and its custom attributes are the port's own or on rules.tsv's `attribute` list;
- it declares no override of what the tests read of a value (equality, hashing, ordering, formatting,
  enumeration) unless its Java original's class does the same (checks.DECLARES, granted by allowances).
"""
from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any, Protocol

from repotrans.execution.capability.il_metadata import Assembly, compiler_named

VERIFIER = "/usr/bin/pedump"
VERIFY_TIMEOUT = 120.0
UNREAD = "*"            # the key of a verifier run that verified no code (cecil_typesafe.cs Unread)
# what the verifier says of a ?: whose branches are different classes converted to an interface (mcs emits no
# cast; the stack merge is object), and what to do instead (cecil_typesafe.cs MergeHint)
MERGED_TO_OBJECT = "'object (Complex)'"
MERGE_HINT = " (a ?: whose branches are different classes: cast each branch to the interface, or use if/else)"
PROXY_BASES = frozenset({"System.MarshalByRefObject", "System.ContextBoundObject"})
EQUALITY_OPS = ("op_Equality", "op_Inequality")
ORDERING_OPS = ("op_LessThan", "op_GreaterThan", "op_LessThanOrEqual", "op_GreaterThanOrEqual")
# ECMA-335 II.23.1: the flags the model reads
LAYOUT_MASK, EXPLICIT = 0x18, 0x10
FIELD_RVA, FIELD_MARSHAL = 0x100, 0x1000
STATIC, UNMANAGED_EXPORT, PINVOKE, HAS_SECURITY, REQUIRE_SEC_OBJECT = 0x10, 0x8, 0x2000, 0x4000, 0x8000
CODE_TYPE, RUNTIME, UNMANAGED, FORWARD_REF, INTERNAL_CALL = 0x3, 0x3, 0x4, 0x10, 0x1000


class Job(Protocol):
    allowed: frozenset[str]
    where: str

    def deny(self, capability: str, api: str) -> None: ...


class Checker(Protocol):
    """What the model reads of il_check.Checker."""
    asm: Assembly
    methods_of: dict[int, list[int]]
    fields_of: dict[int, list[int]]

    def method_def(self, index: int) -> Any: ...


def declares(name: str, params: int, static: bool) -> str | None:
    """The override class a declared method changes of a value the tests inspect (checks.DECLARES), by name
    and parameter count (an explicit interface implementation ends in ".Name"), else None."""
    if not name.startswith("."):
        name = name.rpartition(".")[2]
    if (name in ("Equals", "GetHashCode") and params == (name == "Equals") and not static) or (
            name in EQUALITY_OPS and params == 2):
        return "equality"
    if (name == "CompareTo" and params == 1) or (name == "Compare" and params == 2 and not static) or (
            name in ORDERING_OPS and params == 2):
        return "ordering"
    if name == "ToString" and params == 0 and not static:
        return "formatting"
    if name == "GetEnumerator" and params == 0 and not static:
        return "enumeration"
    return None


def check(c: Checker, job: Job, path: Path, seen: list[int], added: list[int], attributes: frozenset[str]) -> None:
    """The model over the candidate's methods (`seen`, MethodDef rows) and the types it declared (`added`,
    TypeDef rows); `attributes`: rules.tsv's allowed framework attributes."""
    a = c.asm
    meta = _Meta(a)
    methods = list(seen)
    for t in added:
        if meta.generated_name(t):
            continue
        name = a.type_name("TypeDef", t)
        job.where = name
        flags = a.row("TypeDef", t).Flags
        if flags & LAYOUT_MASK == EXPLICIT:
            job.deny("type_safety", f"explicit layout on {name} (StructLayout(LayoutKind.Explicit))")
        if t in meta.class_layout:
            job.deny("type_safety", f"packing or size on {name} (StructLayout Pack/Size)")
        base = meta.base(t)
        if base in PROXY_BASES:
            job.deny("type_safety", f"{name} derives from {base} (a proxy the runtime treats specially)")
        meta.attributed(job, attributes, ("TypeDef", t), f"type {name}")
        for f in c.fields_of.get(t, []):
            row = a.row("Field", f)
            job.where = f"{name}::{row.Name}"
            if f in meta.field_layout:
                job.deny("type_safety", f"a field offset on {row.Name} (FieldOffset)")
            if row.Flags & FIELD_RVA:
                job.deny("type_safety", f"RVA data on field {row.Name}")
            if row.Flags & FIELD_MARSHAL:
                job.deny("type_safety", f"marshalling on field {row.Name} (MarshalAs)")
            meta.attributed(job, attributes, ("Field", f), f"field {row.Name}")
        for table, what in (("Property", "property"), ("Event", "event")):
            for row_index in meta.members(table, t):
                member = a.row(table, row_index).Name
                job.where = f"{name}::{member}"
                meta.attributed(job, attributes, (table, row_index), f"{what} {member}")
        methods += [m for m in c.methods_of.get(t, []) if m not in seen]
    for m in methods:
        row, owner = a.row("MethodDef", m), a.method_owner.get(m, 1)
        d = c.method_def(m)
        where = f"{a.type_name('TypeDef', owner)}::{d.name}"
        job.where = where
        flags, impl = row.Flags, row.ImplFlags
        delegate = meta.base(owner) == "System.MulticastDelegate"
        if (flags & (PINVOKE | UNMANAGED_EXPORT | HAS_SECURITY | REQUIRE_SEC_OBJECT) or m in a.pinvoke
                or impl & (UNMANAGED | FORWARD_REF | INTERNAL_CALL) or impl & CODE_TYPE not in (0, RUNTIME)
                or (impl & CODE_TYPE == RUNTIME and not delegate)):
            job.deny("type_safety", f"method {d.name} is not managed IL ({flags:x}/{impl:x}: extern, InternalCall, "
                                    "unmanaged or runtime-implemented)")
        meta.attributed(job, attributes, ("MethodDef", m), f"method {where}")
        for p in meta.params(m):
            prow = a.row("Param", p)
            what = f"parameter {prow.Name} of {d.name}" if prow.Sequence else f"the return value of {d.name}"
            meta.attributed(job, attributes, ("Param", p), what)
        kind = None if meta.generated_name(owner) else declares(d.name, len(d.params), bool(flags & STATIC))
        if kind is not None:
            job.deny(kind, f"{where} ({kind} of a value the tests may inspect, which the Java original's class "
                           "does not define)")
    if not meta.mono_profile():
        return                              # the .NET SDK's reference assemblies: mono cannot verify it
    found = verify(path)
    if found is None:
        job.where = str(path)
        job.deny("type_safety", f"the IL verifier {VERIFIER} did not run (Debian package mono-utils)")
        return
    if UNREAD in found:
        job.where = str(path)
        job.deny("type_safety", f"the IL verifier could not verify the assembly: {found[UNREAD][0]}")
    for m in seen:
        d = c.method_def(m)
        errors = found.get(verifier_key(a.type_name("TypeDef", a.method_owner.get(m, 1)), d.name, len(d.params)))
        if errors:
            job.where = f"{a.type_name('TypeDef', a.method_owner.get(m, 1))}::{d.name}"
            hint = MERGE_HINT if MERGED_TO_OBJECT in errors[0] else ""
            job.deny("type_safety", f"unverifiable IL: {errors[0]}{hint}")


def verifier_key(type_name: str, name: str, arity: int) -> str:
    """"Ns.Outer`1/Inner::M/2": a method as pedump names it, by arity (cecil_typesafe.cs VerifierKey)."""
    return f"{type_name}::{name}/{arity}"


def method_key(text: str) -> str:
    """"Ns.T`1/In::M(int,Dictionary`2<int, U>)" -> verifier_key (top-level commas count parameters)."""
    open_at = text.find("(")
    sep = text.rfind("::", 0, open_at) if open_at >= 0 else -1
    if open_at < 0 or sep < 0:
        return text
    args = text[open_at + 1:text.rfind(")")].strip() if text.rfind(")") > open_at else ""
    depth, arity = 0, (1 if args else 0)
    for ch in args:
        depth += ch in "<[" and 1 or (-1 if ch in ">]" else 0)
        arity += ch == "," and depth == 0
    return verifier_key(text[:sep], text[sep + 2:open_at], arity)


def parse_verifier(output: str) -> dict[str, list[str]]:
    """pedump's findings per method (verifier_key): its "Error:" and "Not Verifiable:" lines after "In method:";
    a "FAIL:" line (it could not read the metadata, and verified no code) under UNREAD."""
    found: dict[str, list[str]] = {}
    current = None
    for line in output.splitlines():
        if line.startswith("FAIL: ") and UNREAD not in found:
            found[UNREAD] = [line.strip()]
        if line.startswith("In method: "):
            current = method_key(line[len("In method: "):])
        elif current is not None and (line.startswith("Error: ") or line.startswith("Not Verifiable: ")):
            found.setdefault(current, []).append(line.strip())
    return found


def verify(path: Path) -> dict[str, list[str]] | None:
    """mono's verifier over one assembly (one run per job: each candidate's assembly is its own), None when it
    cannot run."""
    if not Path(VERIFIER).is_file():
        return None
    try:
        done = subprocess.run([VERIFIER, "--verify", "code", str(path)], capture_output=True, timeout=VERIFY_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = parse_verifier(done.stdout.decode("utf-8", "replace"))
    # 0: nothing found, 2: unverifiable code, 3: errors; anything else (1: it could not read the metadata, so
    # verified no code; a crash) fails closed
    if done.returncode not in (0, 2, 3):
        found.setdefault(UNREAD, [f"exit {done.returncode}"])
    return found


class _Meta:
    """The tables the model reads, indexed once per assembly."""

    def __init__(self, a: Assembly):
        self.a = a
        self.class_layout = {r.struct.Parent_Index for r in a.rows("ClassLayout")     # mcs gives an empty struct size 1
                             if r.struct.PackingSize > 0 or r.struct.ClassSize > 1}
        self.field_layout = {r.struct.Field_CodedIndex for r in a.rows("FieldLayout")}
        self.attrs: dict[tuple[str, int], list[Any]] = {}
        for i in range(1, len(a.rows("CustomAttribute")) + 1):
            r = a.row("CustomAttribute", i)
            if r.Parent.table is not None:
                self.attrs.setdefault((r.Parent.table.name, r.Parent.row_index), []).append(r)

    def generated_name(self, t: int) -> bool:
        return compiler_named(self.a, t)

    def base(self, t: int) -> str:
        ext = self.a.row("TypeDef", t).Extends
        if ext.table is None:
            return ""
        return self.a.render(("spec", ext.row_index) if ext.table.name == "TypeSpec"
                             else ("named", ext.table.name, ext.row_index))

    def _range(self, table: str, start: int, following: int | None) -> range:
        end = following if following is not None else len(self.a.rows(table)) + 1
        return range(start, max(start, end))

    def params(self, m: int) -> range:
        rows = self.a.rows("MethodDef")
        nxt = rows[m].struct.ParamList_Index if m < len(rows) else None
        return self._range("Param", rows[m - 1].struct.ParamList_Index, nxt)

    def members(self, table: str, t: int) -> range:
        """The Property (Event) rows of a type, from its PropertyMap (EventMap) row."""
        maps = self.a.rows(table + "Map")
        for n, r in enumerate(maps):
            if r.struct.Parent_Index == t:
                nxt = getattr(maps[n + 1].struct, table + "List_Index") if n + 1 < len(maps) else None
                return self._range(table, getattr(r.struct, table + "List_Index"), nxt)
        return range(0)

    def attributed(self, job: Job, allowed: frozenset[str], owner: tuple[str, int], what: str) -> None:
        for r in self.attrs.get(owner, []):
            ctor = r.Type
            if ctor.table is None:
                continue
            if ctor.table.name == "MethodDef":
                continue                    # a constructor of this assembly: the port's own attribute
            parent = self.a.row("MemberRef", ctor.row_index).Class
            if parent.table is None or parent.table.name == "TypeDef":
                continue
            name = self.a.type_name(parent.table.name, parent.row_index).replace("/", ".")
            if name not in allowed:
                job.deny("type_safety", f"attribute {name} on {what}")

    def mono_profile(self) -> bool:
        """Whether the assembly references mscorlib (mono's verifier resolves it), not reference assemblies."""
        return any(str(self.a.row("AssemblyRef", i).Name) == "mscorlib"
                   for i in range(1, len(self.a.rows("AssemblyRef")) + 1))
