"""The allowlist's rules on one reference, for the Python checker (il_check; cecil_checker.cs's
MemberRule, Granted and Under do the same): which deny rule a framework member meets, what a Java
original's grant lets in, and what a rule's NAME covers."""
from __future__ import annotations

from typing import Protocol

from repotrans.execution.capability.il_rules import Rules

STRING = ("prim", "System.String")


class Job(Protocol):
    """What these functions read and write of il_check's job."""
    allowed: frozenset[str]

    def deny(self, capability: str, api: str) -> None: ...


def display(key: str) -> str:
    """"System.IO.File::.ctor" -> "System.IO.File constructor"."""
    return key.replace("::", ".").replace("..ctor", " constructor")


def under(full: str, ns: str, name: str) -> bool:
    """A rule's NAME covers a type: the type itself, its nested types, the types in that namespace or below."""
    return full == name or full.startswith(name + ".") or ns == name or ns.startswith(name + ".")


def granted(rules: Rules, allowed: frozenset[str], full: str, ns: str) -> bool:
    """Whether a grant entry of a capability the Java original reaches covers the type, or a family entry of a
    Java API family its file uses (the types directly in that namespace: `ns` is the outermost type's)."""
    return (any(cap in allowed and under(full, ns, name) for cap, name in rules.grants)
            or any(cap in allowed and ns == name for cap, name in rules.families))


def admitted(rules: Rules, full: str, ns: str) -> bool:
    """Whether the signature closure (il_refs) may admit a framework type (cecil_framework.cs Admitted): it lies
    directly in a family's namespace (System.Xml, System.Xml.Linq, System.Xml.XPath: the in-memory C# API families
    rules.tsv audits whole, what reaches files, the network or run-time code in them denied by its own rule), and
    no rule names it, an enclosing type or its namespace (deny, hard, grant, guarded, restricted, null_only), a
    member of it or of an enclosing type (member, path, overload, allowed, harmless and hard member rules, core
    members), nor keeps it to signatures (core typeref). Outside the families the rules name capabilities one by
    one and miss some (System.Drawing's files, AppDomainManager, Configuration.SaveAs), so no type enters there;
    inside, XmlDocument, XmlReader and the resolvers, which rules open member by member, stay out."""
    r = rules
    return (any(ns == name for _, name in r.families)
            and not (full in r.types or full in r.restricted or full in r.guarded or full in r.null_only
                     or any(under(full, ns, name) for _, name in (*r.namespaces, *r.hard, *r.grants))
                     or any(full == name or full.startswith(name + ".") for name in r.ruled)))


def overload(spec: str, params: list[str]) -> bool:
    """Whether an overload rule's parameter list (full names, comma-separated; `*`: any with parameters) is `params`."""
    return bool(params) if spec == "*" else params == spec.split(",")


def member_rule(rules: Rules, job: Job, key: str, type_name: str, params: list[tuple] | None, name: str,
                param_names: list[str] = ()) -> bool:
    """The deny rules on one framework member (`params` None: a field; `param_names` their full names): True
    when one matched (the member is denied, or allowed by its capability or a restricted type's list), False
    when the allowlist decides."""
    shown = display(key)
    if key in rules.hard_members:
        job.deny(rules.hard_members[key], shown)
        return True
    for capability, spec in rules.overloads.get(key, ()) if params is not None else ():
        if overload(spec, list(param_names)):
            job.deny(capability, f"{shown}({spec})")
            return True
    if params is not None and key in rules.members:
        if key != "System.Type::GetType" or params:       # obj.GetType() is Object's
            job.deny(rules.members[key], shown)
            return True
    elif params is not None and type_name in rules.restricted:
        if name not in rules.restricted[type_name]:
            job.deny("reflection", shown)
        return True                         # the members a restricted type keeps are allowed
    elif params is not None and key in rules.path_members and params and params[0] == STRING:
        job.deny(rules.path_members[key], shown + "(string path)")
        return True
    if type_name in rules.guarded and key not in rules.allowed:
        job.deny(rules.guarded[type_name], shown)
        return True
    return False
