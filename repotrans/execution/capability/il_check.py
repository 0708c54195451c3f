"""The capability policy checked in Python: the candidate assembly's metadata and IL read with dnfile
and our own IL scanner (il_metadata), no mono and no process of the candidate's toolchain (the dotnet
path has no Mono.Cecil).

It applies the rules of `rules.tsv` (il_rules), the file cecil_checker.cs reads, the same way: the
candidate member (one overload by its parameter types' simple names), every method new or changed
against the baseline assembly (il_baseline), and the compiler-generated code they reach (lambda
methods, closure and iterator classes); each reference to a type, member or instruction the rules
name is a Denial; type safety, the precondition of those rules, is il_typesafe's model. Nothing in
the assembly is loaded or run (only mono's verifier reads it, when it is a mono build). The judging paths
run it out of process, in the sandbox (il_check_process); il_job.check_assembly is the job itself.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from repotrans.execution.capability.il_baseline import Baseline, changed, method_key, type_key
from repotrans.execution.capability.il_metadata import (LDTOKEN, NAME, OP, TOKEN, TOKEN_TABLES, Assembly, Body,
                                                       blob_bytes, compiler_generated, compiler_named, compressed,
                                                       read_body)
from repotrans.execution.capability.il_allow import display, granted, member_rule, under
from repotrans.execution.capability import il_path, il_reflect, il_typesafe
from repotrans.execution.capability.il_refs import PortRefs, own, scope_name
from repotrans.execution.capability.il_rules import Rules, load_rules
from repotrans.execution.capability.checks import CAPABILITIES, Denial, MemberRef, PolicyVerdict

LDNULL, STORES = 0x14, (0x7D, 0x80)            # ldnull; stfld, stsfld
UNSAFE_OPS = {"calli": "calli (a call through a function pointer)", "localloc": "stackalloc", "cpblk": "raw memory block copy",
              "initblk": "raw memory block copy", "mkrefany": "__makeref / __arglist", "refanyval": "__makeref / __arglist",
              "refanytype": "__makeref / __arglist", "arglist": "__makeref / __arglist"}


@dataclass
class _Job:
    allowed: frozenset[str]
    denials: dict[tuple[str, str], str] = field(default_factory=dict)
    where: str = ""
    refs: PortRefs = field(default_factory=PortRefs)
    excluded: frozenset[str] = frozenset()       # the candidate member's own group: its baseline body grants nothing
    counterpart: str = "-"                       # the member's type: the one class a reflection allowance reaches

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


class Checker:
    """Reads one assembly; `check` answers one job as cecil_checker.cs does."""

    def __init__(self, path: Path, rules: Rules | None = None):
        self.path, self.asm = Path(path), Assembly(path)
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
        self._bodies: dict[int, Body | None] = {}
        self._texts: dict[int, str] = {}
        self._defs: dict[int, _Member] = {}

    # -- what a token names ---------------------------------------------------------------------------
    def method_def(self, index: int) -> _Member:
        if index in self._defs:
            return self._defs[index]
        row = self.asm.row("MethodDef", index)
        ret, params = self.asm.method_sig(blob_bytes(row.Signature))[0]
        owner = self.asm.method_owner.get(index, 1)
        self._defs[index] = _Member(("named", "TypeDef", owner), str(row.Name), False, ret, tuple(params), (),
                                    ("MethodDef", index))
        return self._defs[index]

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
            ftype = a.sig_type(blob_bytes(row.Signature), 1)[0]
            return _Member(("named", "TypeDef", a.field_owner.get(index, 1)), str(row.Name), True, ftype, (), (),
                           ("Field", index))
        if table == "MemberRef":
            row = a.row("MemberRef", index)
            parent, blob = row.Class, blob_bytes(row.Signature)
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
            blob = blob_bytes(row.Instantiation)
            count, pos = compressed(blob, 1)
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

    def token_text(self, token: int) -> str:
        """A token operand by name (row numbers differ between two builds; names do not)."""
        if token not in self._texts:
            a = self.asm
            target = self.member(token) if (token >> 24) in TOKEN_TABLES else None
            self._texts[token] = (f"{token >> 24:x}" if target is None else a.render(target) if isinstance(target, tuple)
                                  else f"{a.render(target.declaring)}::{target.name}"
                                       f"({','.join(a.render(p) for p in target.params)})"
                                       f"<{','.join(a.render(g) for g in target.generic_args)}>")
        return self._texts[token]

    # -- the rules ------------------------------------------------------------------------------------
    def check_type(self, job: _Job, t: tuple | None, declaring: bool = False) -> bool:
        """Names a denied type; True when the type is allowed. `declaring`: the type of a member the code uses
        (a value type the port holds is allowed as data, never its members' owner)."""
        if t is None:
            return True
        t = self.asm.resolve(t)
        kind = t[0]
        if kind in ("ptr", "fnptr"):
            job.deny("unsafe", f"pointer type {self.asm.render(t)} (unsafe code)")
            return False
        if kind == "generic":
            ok = all([self.check_type(job, arg) for arg in t[2]])
            return self.check_type(job, t[1], declaring) and ok
        if kind in ("byref", "array", "pinned"):
            return self.check_type(job, t[1], declaring)
        if kind in ("var", "mvar") or (kind == "prim" and t[1] == "<Module>"):
            return True
        full = self.asm.render(t).replace("/", ".")
        ns = "System" if kind == "prim" else self.asm.outer_namespace(t[1], t[2])
        r = self.rules
        for capability, name in r.hard:     # even a type of its own assembly (a forged NUnit.Framework.SuccessException)
            if under(full, ns, name):
                job.deny(capability, full)
                return False
        if own(t):
            return True
        if full in r.restricted:
            return True
        if not declaring and job.refs.allows(job.refs.value_types, full, job.excluded):
            return True                     # held as data by the port's code
        if full in r.types:
            job.deny(r.types[full], full)
            return False
        for capability, prefix in r.namespaces:
            if under(full, ns, prefix):
                job.deny(capability, full)
                return False
        outer = self._outer_name(t)
        if (granted(self.rules, job.allowed, full, ns) or ns in r.core_namespaces or full in r.core_types or outer in r.core_types or full in r.core_typerefs
                or scope_name(self.asm, t) in job.refs.assemblies or job.refs.allows(job.refs.types, full, job.excluded)
                or job.refs.allows(job.refs.closure, full, job.excluded)):
            return True
        job.deny("unlisted", full)
        return False

    def _outer_name(self, t: tuple) -> str:
        """The outermost declaring type's full name of a named type."""
        return self.asm.render(t) if t[0] != "named" else self.asm.render(t).split("/", 1)[0]

    def check_member(self, job: _Job, m: _Member) -> None:
        r = self.rules
        elem = self.element(m.declaring)
        type_name = self.asm.render(elem) if elem[0] != "prim" or elem[1] != "<Module>" else ""
        if f"{type_name}::{m.name}" in r.harmless:
            return
        framework = bool(type_name) and elem[0] not in ("var", "mvar") and not own(elem)
        type_name = type_name.replace("/", ".")
        key = f"{type_name}::{m.name}"
        if framework and member_rule(self.rules, job, key, type_name, None if m.is_field else
                                     [self.asm.resolve(p) for p in m.params], m.name,
                                     [self.asm.render(p).replace("/", ".") for p in m.params]):
            return                          # denied, or allowed by the Java original
        type_ok = self.check_type(job, m.declaring, declaring=True)
        self.check_type(job, m.ret)
        for p in m.params:
            self.check_type(job, p)
        for g in m.generic_args:
            self.check_type(job, g)
        if not framework or not type_ok:
            return
        outer = self._outer_name(elem).replace("/", ".")
        ns = "System" if elem[0] == "prim" else self.asm.outer_namespace(elem[1], elem[2])
        if not (granted(self.rules, job.allowed, type_name, ns) or type_name in r.core_types or outer in r.core_types or ns in r.core_namespaces or key in r.core_members
                or key in r.allowed or scope_name(self.asm, elem) in job.refs.assemblies
                or job.refs.allows(job.refs.members, key, job.excluded)
                or job.refs.allows(job.refs.closure, type_name, job.excluded)):
            job.deny("unlisted", display(key))

    def body(self, index: int):
        if index not in self._bodies:
            rva = self.asm.row("MethodDef", index).Rva
            self._bodies[index] = read_body(self.asm.data, self.asm.pe.get_offset_from_rva(rva)) if rva else None
        return self._bodies[index]

    def inspect(self, job: _Job, index: int) -> list[tuple[str, int]]:
        """Names every denied reference of one method; returns the definitions of this module it reaches."""
        a, row = self.asm, self.asm.row("MethodDef", index)
        m = self.method_def(index)
        job.where = f"{a.render(m.declaring)}::{m.name}"
        reached: list[tuple[str, int]] = []
        if row.Flags & 0x2000 or row.ImplFlags & (0x1000 | 0x0004) or index in a.pinvoke:   # PinvokeImpl, InternalCall, Unmanaged
            job.deny("interop", f"extern method {m.name} (DllImport / extern)")
        self.check_type(job, m.ret)
        for p in m.params:
            self.check_type(job, p)
        body = self.body(index)
        if body is None:
            return reached
        if "reflection" in job.allowed:
            il_reflect.check(self, job, index, body.instructions, job.counterpart)
        for t in a.locals(body.locals_token):
            if t[0] == "pinned":
                job.deny("unsafe", "fixed (a pinned pointer: unsafe code)")
            self.check_type(job, t)
        code = body.instructions
        for i, ins in enumerate(code):
            op = ins[NAME]
            if op in UNSAFE_OPS:
                job.deny("unsafe", UNSAFE_OPS[op])
            elif op in ("ldftn", "ldvirtftn") and not self._makes_delegate(code, i):
                job.deny("unsafe", "a function pointer (ldftn not made into a delegate)")
            if not ins[TOKEN] or op in ("calli", "ldstr"):
                continue
            target = self.member(ins[TOKEN])
            if isinstance(target, tuple):
                self.check_type(job, target)
            elif target is not None:
                if self._assembly_of(target) and not self._of_own_type(code, i):
                    job.deny("test_content", f"{self._type_name(target)}::{target.name} of a type that is not "
                                             "typeof(one of this assembly's types)")
                self.check_member(job, target)
                self._null_only(job, code, i, target)
                local = self._local(target)
                if local:
                    reached.append(local)
        return reached

    def _null_only(self, job: _Job, code, i: int, m: _Member) -> None:
        """A value of a null_only type (rules.tsv) handed on: a call's argument (only the last parameter, right
        after ldnull) or a field store (right after ldnull); anything else is denied (cecil_checker.cs NullOnly)."""
        rules, after_null = self.rules.null_only, i > 0 and code[i - 1][OP] == LDNULL
        if m.is_field:
            kinds = [m.ret] if code[i][OP] in STORES else []
        else:
            kinds = list(m.params)
        for n, t in enumerate(kinds):
            name = self.asm.render(t).replace("/", ".") if t is not None else ""
            if name in rules and not (after_null and n == len(kinds) - 1):
                job.deny(rules[name], f"{name} other than null handed to {self._type_name(m)}::{m.name}")

    def _type_name(self, m: _Member) -> str:
        return self.asm.render(self.element(m.declaring)).replace("/", ".")

    def _assembly_of(self, m: _Member) -> bool:
        """Type.Assembly, TypeInfo.Assembly, Assembly.GetAssembly: of a type the test passed in (a lambda's
        closure, a test's subclass) it is the test assembly, whose embedded resources may hold the expected
        values (cecil_checker.cs AssemblyOf)."""
        if m.is_field:
            return False
        t = self._type_name(m)
        return (m.name == "get_Assembly" and t in ("System.Type", "System.Reflection.TypeInfo")) or (
            m.name == "GetAssembly" and t == "System.Reflection.Assembly")

    def _of_own_type(self, code, i: int) -> bool:
        """The Type value before code[i] is typeof(T), T of this assembly: ldtoken T; call
        Type.GetTypeFromHandle [; call IntrospectionExtensions.GetTypeInfo]."""
        def call(at: int):
            m = self.member(code[at][TOKEN]) if at >= 0 and code[at][TOKEN] else None
            return m if isinstance(m, _Member) else None
        at = i - 1
        m = call(at)
        if m is not None and m.name == "GetTypeInfo":
            at, m = at - 1, call(at - 1)
        if m is None or m.name != "GetTypeFromHandle" or at < 1 or code[at - 1][OP] != LDTOKEN:
            return False
        t = self.member(code[at - 1][TOKEN])
        return isinstance(t, tuple) and own(self.element(t))

    def _makes_delegate(self, code, i: int) -> bool:
        if i + 1 >= len(code) or code[i + 1][NAME] != "newobj":
            return False
        ctor = self.member(code[i + 1][TOKEN])
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
        while index:
            if compiler_generated(str(self.asm.row("TypeDef", index).TypeName)) or index in self.asm.generated_attr:
                return True
            index = self.asm.enclosing.get(index, 0)
        return False

    def changed_type(self, index: int, base, members: set[int]) -> bool:
        """Whether a compiler-generated type is the candidate's: a method of it or of its nested types, other than
        the member's own (`members`, which differ from the baseline's placeholders and are inspected anyway), is
        new or changed against `base`. A generated class the port compiles unchanged (ProtoGen's messages carry
        [CompilerGenerated], a member of its Builder the candidate) is the port's; what the candidate reaches of
        it is inspected as any port member is. Without a baseline (a ground truth in the port's own build) only a
        type with a compiler's name, or nested in one, is the member's (cecil_checker.cs: Changed)."""
        if base is None:
            return compiler_named(self.asm, index)
        return any(m not in members and method_key(self, m) not in base.keys.get(type_key(self, t), ())
                   for t in self.nested(index) for m in self.methods_of.get(t, []))

    def nested(self, index: int) -> list[int]:
        out = [index]
        for child in self.children.get(index, []):
            out += self.nested(child)
        return out

    def check(self, member: MemberRef | None, allowed: frozenset[str], base: Baseline | None,
              refs: PortRefs | None = None) -> PolicyVerdict:
        """One job: `refs`, the port's framework references the candidate may use (default: the baseline's)."""
        started = time.perf_counter()
        a = self.asm
        refs = refs if refs is not None else base.refs if base is not None else PortRefs()
        job = _Job(allowed, refs=refs, counterpart=member.type_name if member else "-",
                   excluded=frozenset(f"{member.type_name}::{n}" for n in member.names) if member else frozenset())
        order = [i for top in range(1, len(a.rows("TypeDef")) + 1) if top not in a.enclosing for i in self.nested(top)]
        roots, added = [], []               # added: the types the candidate declared (none known without a baseline)
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
        members = set(roots)                # the member's own methods: the tests call them
        if base is not None:
            roots += changed(self, base, member)
            added = [t for t in range(1, len(a.rows("TypeDef")) + 1) if type_key(self, t) not in base.keys]
            # a type of its own declared outside the port's namespaces (cecil_checker.cs: the same rule)
            spaces = {name.rpartition(".")[0] for name in base.keys if "/" not in name}
            for top in range(1, len(a.rows("TypeDef")) + 1):
                name = a.plain_name(top)
                if top in a.enclosing or compiler_generated(name.rpartition(".")[2]):
                    continue
                ns = str(a.row("TypeDef", top).TypeNamespace)
                if ns not in spaces:
                    job.where = name
                    job.deny("declaration", f"a type declared in namespace {ns}, where this port declares none")
        seen: set[int] = set()
        seen_types: set[int] = set()
        work = list(roots)                  # a stack, as cecil_checker.cs's: the last root first
        while work:
            index = work.pop()
            if index in seen:
                continue
            seen.add(index)
            for table, reached in self.inspect(job, index):
                type_index = reached if table == "TypeDef" else a.method_owner.get(reached, 0)
                if table == "MethodDef" and compiler_generated(str(a.row("MethodDef", reached).Name)):
                    work.append(reached)
                elif type_index and self.generated_type(type_index) and type_index not in seen_types \
                        and self.changed_type(type_index, base, members):
                    seen_types.add(type_index)
                    for t in self.nested(type_index):
                        for f in self.fields_of.get(t, []):
                            row = a.row("Field", f)
                            job.where = f"{a.type_name('TypeDef', t)}::{row.Name}"
                            self.check_type(job, a.sig_type(blob_bytes(row.Signature), 1)[0])
                        work.extend(self.methods_of.get(t, []))
        if "file_system" in job.allowed:
            il_path.check(self, job, sorted(seen), members, job.allowed)
        il_typesafe.check(self, job, self.path, list(seen), added, self.rules.attributes)
        verdict = PolicyVerdict(denials=[Denial(c, api, where) for (c, api), where in sorted(job.denials.items())],
                                inspected=len(seen))
        verdict.denials.sort(key=lambda d: (CAPABILITIES.index(d.capability) if d.capability in CAPABILITIES else 99,
                                            d.api))
        verdict.seconds = time.perf_counter() - started
        return verdict

    def _generic_owner(self, method: int, t: tuple) -> tuple[str, int]:
        t = self.asm.resolve(t)
        while t[0] in ("byref", "array", "pinned", "generic"):
            t = self.asm.resolve(t[1])
        if t[0] == "mvar":
            return ("MethodDef", method)
        return ("TypeDef", self.asm.method_owner.get(method, 1))
