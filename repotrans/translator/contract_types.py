"""The C# declaration is the contract for locals too: a Java local that feeds or is fed by the
port's own members takes the C# type those members declare, where the two differ only in signedness or
width (BCrypt.Net made jBCrypt's `int[]` S-boxes `uint[]`: `int lr[] = {0, 0}; encipher(lr, 0);` needs
`uint[] lr`; its `char64` returns `int` where Java's returns `byte`)."""
from __future__ import annotations

from tree_sitter import Node

from repotrans.translator.tool_outputs import TargetType, signature_head, split_top

# Java's C# type -> the C# types a port may have written for the same bits (sign or width, never a meaning)
_VARIANTS = {"int": {"uint"}, "long": {"ulong"}, "short": {"ushort", "int"}, "sbyte": {"byte", "int"},
             "byte": {"sbyte", "int"}, "char": {"int"}}
_PARAM_MODIFIERS = ("ref ", "out ", "in ", "params ", "this ")


def compatible(java_cs: str, port_cs: str) -> bool:
    """Whether `port_cs` is `java_cs` with another signedness or width (arrays of them alike)."""
    java_base, port_base = java_cs.rstrip("[]"), port_cs.rstrip("[]")
    return java_cs[len(java_base):] == port_cs[len(port_base):] and port_base in _VARIANTS.get(java_base, set())


REF = "ref "


def ref_params(signature: str) -> list[bool]:
    """Which parameters of the signature are `ref` or `out`."""
    inner = signature.split("(", 1)[1].rsplit(")", 1)[0] if "(" in signature else ""
    return [p.strip().startswith(("ref ", "out ")) for p in split_top(inner.strip())] if inner.strip() else []


def param_types(signature: str) -> list[str]:
    """`private void encipher(uint[] lr, int off)` -> ["uint[]", "int"] (ref/out/params dropped)."""
    inner = signature.split("(", 1)[1].rsplit(")", 1)[0] if "(" in signature else ""
    out = []
    for part in split_top(inner.strip()) if inner.strip() else []:
        part = part.split("=", 1)[0].strip()
        for mod in _PARAM_MODIFIERS:
            part = part[len(mod):] if part.startswith(mod) else part
        out.append(part.rsplit(None, 1)[0] if " " in part else part)
    return out


def contract_locals(body: Node, text, own: TargetType | None, cs_name, cs_type) -> dict[str, str]:
    """Local name -> the port's C# type for it, for locals passed to the class's own methods, assigned
    from its fields or its methods' results, where that type is the Java one's sign/width variant.
    `text(node)` gives Java text, `cs_name(name, argc)` the port's name of an own method, `cs_type` maps
    a Java type to C#."""
    if own is None:
        return {}
    wanted: dict[str, str] = {}
    locals_java: dict[str, str] = {}
    for node in _walk(body):
        if node.type == "local_variable_declaration":
            for decl in node.children_by_field_name("declarator"):
                dims = decl.child_by_field_name("dimensions")
                locals_java[text(decl.child_by_field_name("name"))] = \
                    text(node.child_by_field_name("type")) + (text(dims) if dims is not None else "")

    def want(local: str, port_type: str | None) -> None:
        java = locals_java.get(local)
        if port_type and java and compatible(cs_type(java), port_type) and wanted.get(local, port_type) == port_type:
            wanted[local] = port_type

    def only_passed(local: str, callee: str) -> bool:
        """The local is declared with one element and otherwise only passed to `callee`."""
        for node in _walk(body):
            if node.type != "identifier" or text(node) != local or node.parent is None \
                    or node.parent.type == "variable_declarator":
                pass
            elif node.parent.type != "argument_list" or node.parent.parent is None \
                    or text(node.parent.parent.child_by_field_name("name")) != callee:
                return False
            if node.type == "variable_declarator" and text(node.child_by_field_name("name")) == local:
                value = node.child_by_field_name("value")
                if value is None or value.type != "array_initializer" or len(value.named_children) != 1:
                    return False
        return True

    def source_type(node: Node) -> str | None:
        """The port's type of an own field, an own field's clone, or an own method's result."""
        if node.type == "identifier" and text(node) not in locals_java:
            return own.fields.get(text(node))
        if node.type == "method_invocation" and node.child_by_field_name("object") is None:
            args = node.child_by_field_name("arguments")
            sig = _own_signature(own, cs_name(text(node.child_by_field_name("name")), len(args.named_children)),
                                 len(args.named_children))
            head = signature_head(sig) if sig else None
            return head[1] if head else None
        if node.type == "method_invocation" and text(node.child_by_field_name("name")) == "clone":
            obj = node.child_by_field_name("object")
            return source_type(obj) if obj is not None else None
        return None

    for node in _walk(body):
        if node.type == "method_invocation" and node.child_by_field_name("object") is None:
            args = node.child_by_field_name("arguments").named_children
            sig = _own_signature(own, cs_name(text(node.child_by_field_name("name")), len(args)), len(args))
            for arg, port_type, by_ref in zip(args, param_types(sig) if sig else [], ref_params(sig) if sig else []):
                if arg.type != "identifier":
                    continue
                java = locals_java.get(text(arg), "")
                callee = text(node.child_by_field_name("name"))
                if by_ref and java.endswith("[]") and cs_type(java[:-2]) == port_type and only_passed(text(arg), callee):
                    wanted[text(arg)] = REF + port_type     # Java's one-element array as a pointer: `ref int`
                else:
                    want(text(arg), port_type)
        elif node.type == "variable_declarator" and node.child_by_field_name("value") is not None:
            want(text(node.child_by_field_name("name")), source_type(node.child_by_field_name("value")))
        elif node.type == "assignment_expression" and text(node.child_by_field_name("left")) in locals_java \
                and node.child_by_field_name("left").type == "identifier":
            want(text(node.child_by_field_name("left")), source_type(node.child_by_field_name("right")))
    return wanted


def _own_signature(own: TargetType, name: str, argc: int) -> str | None:
    sigs = [s for s in own.method_names().get(name, []) if (signature_head(s) or ("", "", -1))[2] == argc]
    return sigs[0] if len(sigs) == 1 else None


def _walk(node: Node):
    yield node
    for child in node.named_children:
        yield from _walk(child)


def retyped(initializer: str, java_cs: str, port_cs: str) -> str:
    """The initializer's own mentions of the Java type (`new int[] {...}`, `(int[])x.Clone()`) as the port's;
    a one-element array passed by reference (`koffp = new int[] { 0 }`) is its element (`koffp = 0`)."""
    if port_cs.startswith(REF):
        name, _, value = initializer.partition(" = ")
        inner = value.strip()
        inner = inner[inner.index("{") + 1:inner.rindex("}")].strip() if "{" in inner and "}" in inner else inner
        return f"{name} = {inner}"
    return initializer.replace(f"new {java_cs.rstrip('[]')}[", f"new {port_cs.rstrip('[]')}[") \
        .replace(f"({java_cs})", f"({port_cs})")
