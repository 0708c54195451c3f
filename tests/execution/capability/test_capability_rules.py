"""Every rule of rules.tsv tested on its own, generated from the data (issue 32): for each deny,
hard-deny, grant, core (allowlist) and allowance entry, a candidate method referencing exactly the type or
member the entry names (IL assembled by ilasm against mscorlib: nothing resolves names, as neither
checker does) is judged by both checkers as the entry says. A rule that never matches what it names
fails its own test (as `namespace process System.Diagnostics.Process` did: the type of that full name
escaped it). Beside them: a type on no list is `unlisted`, a framework member the port's other code uses
is allowed, the candidate member's own baseline body grants nothing, and no use by the port lifts a
hard-denied or category member."""
from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from repotrans.execution.capability import checks as policy
from repotrans.execution.capability.il_job import check_assembly
from repotrans.execution.capability.checks import ALLOWABLE, MemberRef

pytestmark = pytest.mark.skipif(not shutil.which("ilasm"), reason="ilasm (mono-devel) is required")
CECIL_OK = bool(shutil.which("mono") and shutil.which("mcs") and Path(policy.CECIL).is_file())


@dataclass(frozen=True)
class Case:
    id: str
    il: str                     # the probe method's body
    allowed: frozenset[str]
    expect: str | None          # the capability denied, or None: accepted
    refs: str = "-"             # "port": the port assembly's references may be used
    member: str = "M"           # the probe method's name (its group in the port assembly)


def _type(name: str) -> str:
    """An IL type reference into mscorlib: `[mscorlib]'Ns.Name`1'` (ilasm splits the namespace at the last dot)."""
    return f"[mscorlib]'{name}'"


def _uses_type(name: str) -> str:
    return f"ldtoken class {_type(name)}\n    pop"


def _calls(key: str, path: bool = False) -> str:
    """A call of TYPE::MEMBER (a string argument: the path members' and Type.GetType(string)'s shape)."""
    type_name, member = key.split("::", 1)
    if member == ".ctor":
        return f"ldnull\n    newobj instance void class {_type(type_name)}::.ctor(string)\n    pop"
    return f"ldnull\n    call void class {_type(type_name)}::'{member}'(string)"


def _klass(name: str) -> str:
    return "string" if name == "System.String" else "int32" if name == "System.Int32" else f"class {_type(name)}"


def _calls_with(key: str, params: list[str], value: str = "") -> str:
    """A call of TYPE::MEMBER with parameters of these full names, each argument null (`value`: instructions
    after the last null, so the last argument is no literal null)."""
    type_name, member = key.split("::", 1)
    args = "".join("ldc.i4.0\n    " if p == "System.Int32" else "ldnull\n    " for p in params)
    args += f"{value}\n    " if value else ""
    sig = ", ".join(_klass(p) for p in params)
    if member == ".ctor":
        return f"{args}newobj instance void class {_type(type_name)}::.ctor({sig})\n    pop"
    return f"{args}call void class {_type(type_name)}::'{member}'({sig})"


def _attributed(name: str) -> str:
    """The probe method carrying a custom attribute of the type `name` (its parameterless constructor)."""
    return f".custom instance void {_type(name)}::.ctor() = (01 00 00 00)"


def _reflection_value(type_name: str) -> bool:
    """A type whose members the narrowed reflection allowance checks (il_reflect: Type, Activator, System.Reflection)."""
    return type_name in ("System.Type", "System.Activator") or type_name.startswith("System.Reflection.")


def _rows() -> list[list[str]]:
    return [line.split("\t") for line in policy.RULES.read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]


# members giving a Type value's assembly: allowed by their rows, and denied by the assembly-of rule (test_content)
# unless the Type is typeof(a type of the candidate's assembly), which a probe's bare call is not (issue 32)
ASSEMBLY_OF = {"System.Type::get_Assembly", "System.Reflection.TypeInfo::get_Assembly",
               "System.Reflection.Assembly::GetAssembly"}


def cases() -> list[Case]:
    out: list[Case] = []
    everything = frozenset(ALLOWABLE)
    kept = {f[2]: "reflection" for f in _rows() if f[0] == "restricted"} | {f[2]: f[1] for f in _rows() if f[0] == "guarded"}
    for n, f in enumerate(_rows()):
        kind, cap, name = f[0], f[1], f[2]
        rid = f"{n:03d}-{kind}-{name}"
        if kind in ("namespace", "type"):
            probes = [name + ".Probe", name] if kind == "namespace" else [name]
            for probe in probes:
                out.append(Case(f"{rid}:{probe}", _uses_type(probe), frozenset(), cap))
                if cap in ALLOWABLE:        # (d) the Java original's capability lifts it, and only it
                    out.append(Case(f"{rid}:{probe}:java", _uses_type(probe), frozenset({cap}), None))
        elif kind in ("member", "path_member"):
            out.append(Case(rid, _calls(name), frozenset(), cap))
            if cap in ALLOWABLE:            # a reflection member's probe takes no Type from typeof(its class)
                out.append(Case(f"{rid}:java", _calls(name), frozenset({cap}), "reflection_scope"
                                if _reflection_value(name.split("::")[0]) else None))
        elif kind in ("allowed", "harmless"):
            out.append(Case(rid, _calls(name), frozenset(), None))
        elif kind == "restricted":
            for member in f[3].split(","):
                call = f"{name}::{member}"
                out.append(Case(f"{rid}::{member}", _calls(call), frozenset(), "test_content" if call in ASSEMBLY_OF else None))
            out.append(Case(f"{rid}::Probe", _calls(f"{name}::Probe"), frozenset(), cap))
        elif kind == "guarded":
            out.append(Case(rid, _calls(f"{name}::Probe"), frozenset(), cap))
        elif kind == "core":
            if cap == "namespace":
                out.append(Case(rid, _uses_type(name + ".Probe"), frozenset(), None))
                out.append(Case(f"{rid}:member", _calls(f"{name}.Probe::Probe"), frozenset(), None))
            elif cap == "type":
                out.append(Case(rid, _calls(f"{name}::Probe"), frozenset(), None))
            elif cap == "member":
                out.append(Case(rid, _calls(name), frozenset(), "test_content" if name in ASSEMBLY_OF else None))
                owner = name.split("::")[0]         # member level: the type's other members stay out
                out.append(Case(f"{rid}:sibling", _calls(owner + "::ProbeSibling"), frozenset(), kept.get(owner, "unlisted")))
            elif cap == "typeref":
                out.append(Case(rid, _uses_type(name), frozenset(), None))
                out.append(Case(f"{rid}:member", _calls(f"{name}::Probe"), frozenset(), "unlisted"))
        elif kind == "hard":
            use = _calls(name) if "::" in name else _uses_type(name)
            out.append(Case(rid, use, everything - {cap}, cap))      # no other allowance lifts it
            out.append(Case(f"{rid}:port", use, frozenset(), cap, refs="port"))   # nor the port's own use
            if "::" not in name:
                out.append(Case(f"{rid}:inner", _uses_type(name + ".Probe"), frozenset(), cap))
            if cap in ALLOWABLE:
                out.append(Case(f"{rid}:java", use, frozenset({cap}), None))
        elif kind == "attribute":             # on the candidate's own method: allowed; type safety denies the rest
            out.append(Case(rid, _attributed(name), frozenset(), None))
        elif kind == "grant":
            out.append(Case(rid, _calls(f"{name}.Probe::Probe"), frozenset({cap}), None))
            out.append(Case(f"{rid}:without", _calls(f"{name}.Probe::Probe"), frozenset(), "unlisted"))
        elif kind == "family":              # the types directly in the namespace, for the family's Java original only
            out.append(Case(rid, _calls(f"{name}.Probe::Probe"), frozenset({cap}), None))
            out.append(Case(f"{rid}:without", _calls(f"{name}.Probe::Probe"), frozenset(ALLOWABLE) - {cap}, "unlisted"))
            out.append(Case(f"{rid}:below", _calls(f"{name}.Below.Probe::Probe"), frozenset({cap}), "unlisted"))
        elif kind == "overload":            # the named overloads denied, whatever the Java original; the others not
            params = ["System.String"] if f[3] == "*" else f[3].split(",")
            out.append(Case(rid, _calls_with(name, params), everything - {cap}, cap))
            other = [] if f[3] == "*" else ["System.Int32"]
            out.append(Case(f"{rid}:other", _calls_with(name, other), frozenset(ALLOWABLE), None))
        elif kind == "null_only":           # a literal null as the last argument or a field's value; nothing else
            sink = f"System.Xml.XmlDocument::set_XmlResolver"
            out.append(Case(rid, _calls_with(sink, [name]), frozenset({"xml_dom"}), None))
            out.append(Case(f"{rid}:value", _calls_with(sink, [name], value=f"castclass {_klass(name)}"),
                            everything - {cap}, cap))
            out.append(Case(f"{rid}:not-last", _calls_with(sink, [name, "System.String"]), everything - {cap}, cap))
            out.append(Case(f"{rid}:field-null", f"ldnull\n    stsfld {_klass(name)} Probes.Holder::resolver",
                            frozenset(), None))
            out.append(Case(f"{rid}:field-value", f"ldnull\n    castclass {_klass(name)}\n    stsfld {_klass(name)} "
                            "Probes.Holder::resolver", everything - {cap}, cap))
        else:
            raise AssertionError(f"a rule kind without a self-test: {kind}")
    # the allowlist's other two sources: the port's own references, less the candidate member's own
    out += [Case("unlisted-type", _uses_type("System.Xml.XmlNode"), frozenset(), "unlisted"),
            Case("unlisted-member", _calls("System.Xml.XmlNode::get_InnerText"), frozenset(), "unlisted"),
            Case("port-uses-member", _calls("System.Xml.XmlNode::get_InnerText"), frozenset(), None, refs="port"),
            Case("port-uses-type", _uses_type("System.Xml.XmlNode"), frozenset(), None, refs="port"),
            Case("port-other-member", _calls("System.Xml.XmlNode::RemoveAll"), frozenset(), "unlisted", refs="port"),
            Case("own-body-grants-nothing", _calls("System.Xml.XmlNode::get_OuterXml"), frozenset(), "unlisted",
                 refs="port", member="Mine"),
            Case("port-use-lifts-no-category", _calls("System.IO.File::ReadAllText"), frozenset(), "file_system",
                 refs="port"),
            # a type of the candidate's own assembly named as the test framework's (NUnit decides success by name)
            Case("own-type-in-a-hard-namespace", "newobj instance void NUnit.Framework.SuccessException::.ctor()\n    throw",
                 frozenset(ALLOWABLE), "test_framework"),
            Case("own-type-elsewhere", "newobj instance void Probes.Own::.ctor()\n    pop", frozenset(), None),
            # a value type the port's code holds (an enum in a capability's namespace) is data: allowed as a type,
            # its members still denied; without the port's use it stays denied
            Case("port-holds-value-type", _uses_type("System.Net.HttpStatusCode"), frozenset(), None, refs="port"),
            Case("port-value-type-members", _calls("System.Net.HttpStatusCode::Probe"), frozenset(), "network",
                 refs="port"),
            Case("value-type-not-held", _uses_type("System.Net.HttpStatusCode"), frozenset(), "network"),
            Case("attribute-not-listed", _attributed("System.Security.SecurityCriticalAttribute"), frozenset(ALLOWABLE),
                 "type_safety")]
    return out


CASES = cases()
# the port: its other member uses XmlNode.InnerText, File.ReadAllText and each hard-denied entry; its member
# Mine (the candidate's own, excluded) uses XmlNode.OuterXml
PORT_USES = [c.il for c in CASES if c.id.endswith(":port")] + [
    _calls("System.Xml.XmlNode::get_InnerText"), _calls("System.IO.File::ReadAllText"),
    "ldnull\n    callvirt instance valuetype " + _type("System.Net.HttpStatusCode") + " class "
    + _type("System.Net.HttpWebResponse") + "::get_StatusCode()\n    pop"]


def _assembly(name: str, methods: dict[str, str]) -> str:
    body = "\n".join(f".method public static void '{m}'() cil managed {{\n    .maxstack 8\n    {il}\n    ret\n}}"
                     for m, il in methods.items())
    return (".assembly extern mscorlib {}\n" f".assembly '{name}' {{}}\n" f".module '{name}.dll'\n"
            f".class public auto ansi abstract sealed Probes.Holder extends [mscorlib]System.Object {{\n{body}\n"
            f".field public static class {_type('System.Xml.XmlResolver')} resolver\n}}\n"
            + "".join(f".class public {n} extends [mscorlib]System.Exception {{\n.method public specialname rtspecialname "
                      "instance void .ctor() cil managed {\n ldarg.0\n call instance void [mscorlib]System.Exception::.ctor()\n"
                      " ret\n}\n}\n" for n in ("NUnit.Framework.SuccessException", "Probes.Own")))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict:
    """probes.dll (one method per case) and port.dll; the Cecil checker's answers, all jobs in one process."""
    tmp = tmp_path_factory.mktemp("rules")
    probes = {_name(i, c): c.il for i, c in enumerate(CASES)}
    port = {"Other": "\n    ".join(PORT_USES), "Mine": _calls("System.Xml.XmlNode::get_OuterXml")}
    for name, methods in (("probes", probes), ("port", port)):
        (tmp / f"{name}.il").write_text(_assembly(name, methods))
        done = subprocess.run(["ilasm", "/dll", f"/output:{tmp / name}.dll", str(tmp / f"{name}.il")],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stdout[-2000:]
    jobs = [_job(tmp, i, c) for i, c in enumerate(CASES)]
    cecil = None
    if CECIL_OK:
        exe = tmp / "il_policy.exe"
        subprocess.run(policy.build_argv(str(exe), str(policy.SOURCE)), check=True, capture_output=True)
        shutil.copyfile(policy.RULES, tmp / policy.RULES.name)

        def run(argv, stdin):
            proc = subprocess.run(argv, input=stdin, capture_output=True, timeout=300)
            return proc.returncode, proc.stdout.decode(), False

        cecil = policy.run_checker(run, str(exe), jobs)
    return {"tmp": tmp, "cecil": cecil}


def _name(i: int, case: Case) -> str:
    return f"P{i}" if case.member == "M" else case.member


def _member(i: int, case: Case) -> MemberRef:
    return MemberRef("Probes.Holder", (_name(i, case),), 0)


def _job(tmp: Path, i: int, case: Case) -> str:
    refs = str(tmp / "port.dll") if case.refs == "port" else None
    return policy.job_line(str(tmp / "probes.dll"), None, _member(i, case), case.allowed, refs)


def _judged(verdict: policy.PolicyVerdict, case: Case) -> None:
    assert not verdict.error, verdict.error
    # the probes name members nothing resolves (neither checker does; an attribute's constructor included, so mono's
    # verifier stops at the metadata): the verifier is tested on its own (test_typesafe)
    verdict = policy.PolicyVerdict([d for d in verdict.denials
                                    if not d.api.startswith(("unverifiable IL", "the IL verifier could not verify"))])
    caps = {d.capability for d in verdict.denials}
    if case.expect is None:
        assert verdict.ok, f"{case.id}: expected accepted, got {verdict.log()}"
    else:
        assert case.expect in caps, f"{case.id}: expected {case.expect}, got {verdict.log() or 'accepted'}"


@pytest.mark.parametrize("i", range(len(CASES)), ids=[c.id for c in CASES])
def test_each_rule_judges_exactly_what_it_names_in_both_checkers(built, i):
    case = CASES[i]
    tmp = built["tmp"]
    refs = tmp / "port.dll" if case.refs == "port" else None
    _judged(check_assembly(tmp / "probes.dll", None, _member(i, case), case.allowed, refs), case)
    if built["cecil"] is not None:
        _judged(built["cecil"][i], case)


def test_every_rule_kind_has_a_self_test():
    kinds = {f[0] for f in _rows()}
    assert kinds <= {"namespace", "type", "member", "path_member", "allowed", "harmless", "restricted", "guarded",
                     "core", "hard", "grant", "attribute", "family", "overload", "null_only"}
    assert len([c for c in CASES if "-hard-" in c.id]) >= 2 * len([f for f in _rows() if f[0] == "hard"])
