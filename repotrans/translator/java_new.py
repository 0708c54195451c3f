"""Java object and array creation -> C#: constructors (the port's learned idiom first, then the JDK's boxed
types, strings and exceptions), anonymous classes of functional interfaces as lambdas, JDK classes .NET lacks
as their support classes (support_types.py), arrays (jagged for
Java's multi-dimensional ones) and array initializers. Mixed into ExprTranslator (java_expr.py)."""
from __future__ import annotations

from tree_sitter import Node

from repotrans.mapping.api_sites import simple_type
from repotrans.translator.cs_types import element_type, split_type
from repotrans.translator.raw_generics import ARITY, is_raw
from repotrans.translator.templates import BOXED, Typed, fill, prim


class CreationMixin:
    """Needs the ExprTranslator helpers (r, table, text, expr, ex, args, cs_type, coerce, learned, scopes,
    declare, ident, temp, lambda_block) and SupportMixin's supported_new."""

    def _new(self, node: Node, expected: str | None) -> Typed:
        type_node = node.child_by_field_name("type")
        java_type = self.text(type_node)
        base, targs, _ = split_type(java_type)
        arg_nodes = self.args(node.child_by_field_name("arguments"))
        typed = [self.expr(a) for a in arg_nodes]
        arg_texts = [t for t, _ in typed]
        body = next((c for c in node.named_children if c.type == "class_body"), None)
        if java_type.endswith("<>") or is_raw(java_type):     # a raw `new ArrayList()` as the diamond
            targs = split_type(expected)[1] if expected else []
            if not targs and typed and typed[0][1]:
                targs = split_type(typed[0][1])[1]      # new ArrayList<>(other) copies other's type
            if len(targs) != ARITY.get(base, len(targs)):
                targs = []
            java_type = base + ("<" + ", ".join(targs) + ">" if targs else
                                "<" + ", ".join(["Object"] * ARITY.get(base, 1)) + ">")
        supported = self.supported_new(base, targs, arg_texts, body)
        if supported is not None:
            return supported, java_type
        if body is not None:
            return self._anonymous(base, targs, body, java_type)
        learned = self.learned(f"new {simple_type(base)}/{len(arg_texts)}", simple_type(base), "", arg_texts, arg_nodes,
                               typed[0][1] if typed else None)
        if learned is not None:
            return learned, java_type
        if base in BOXED and len(arg_texts) == 1:
            return arg_texts[0], BOXED[base]
        if base == "String" and len(typed) in (2, 4) and typed[0][1] == "byte[]":
            # new String(bytes[, offset, length], charset): an Encoding decodes (ZXing's VCard, PDF417)
            enc = arg_texts[-1] if typed[-1][1] == "Charset" else f"Encoding.GetEncoding({arg_texts[-1]})"
            return f"{enc}.GetString({', '.join(arg_texts[:-1])})", "String"
        if base == "String":
            return f"new string({', '.join(arg_texts)})", "String"
        if len(typed) == 1 and (typed[0][1] or "").endswith(("Exception", "Error", "Throwable")) \
                and base.endswith(("Exception", "Error")):
            # new RuntimeException(cause): .NET's exceptions take a message with their inner exception
            return f"new {self.cs_type(java_type)}({arg_texts[0]}.Message, {arg_texts[0]})", java_type
        ported = self._ported_exception(base)
        if ported is not None:
            base = java_type = ported
        key = f"{len(arg_texts)}:{prim(typed[0][1]) if typed else ''}"
        for ctors in (self.table["exception_ctors"].get(base, {}), self.table["constructors"].get(base, {})):
            template = ctors.get(key, ctors.get(str(len(arg_texts))))
            if template is not None:
                return fill(template, {str(i + 1): t for i, t in enumerate(arg_texts)}), base
        created = self._as_declared(java_type, expected)
        return self.created_as_port(f"new {self.cs_type(created)}({', '.join(arg_texts)})", created), created

    def _ported_exception(self, base: str) -> str | None:
        """The exception type the port throws where Java throws `base`, learned over every arity of its
        construction (no template for this arity): its constructors then follow .NET's (a parameter
        name before the message for ArgumentOutOfRangeException)."""
        api = self.learned_api()
        if api is None or not base.endswith(("Exception", "Error")):
            return None
        ported = api.created_type(base)
        return ported if ported is not None and ported != self.cs_type(base) else None

    def _as_declared(self, java_type: str, expected: str | None) -> str:
        """A JDK collection created for a variable of another JDK collection type that .NET makes a
        different class (`Queue<T> q = new LinkedList<>()`: a C# List is no Queue) is created as the
        declared type (`new Queue<T>()`), the class C# code then calls."""
        if not expected:
            return java_type
        base, eb = split_type(java_type)[0], split_type(expected)[0]
        kinds, types = self.table["kinds"], self.table["types"]
        if base not in kinds or eb not in kinds or kinds[base] == kinds[eb] or types.get(eb, "I")[:1] == "I":
            return java_type
        return eb + java_type[len(base):] if java_type.startswith(base) else java_type

    def _anonymous(self, base: str, targs: list[str], body: Node, java_type: str) -> Typed:
        methods = [c for c in body.named_children if c.type == "method_declaration"]
        if base not in self.table["functional"] or len(methods) != 1:
            return f"/* anonymous {base} */ null", java_type
        method = methods[0]
        params = [p for p in method.child_by_field_name("parameters").named_children if p.type == "formal_parameter"]
        self.scopes.append({})
        parts = []
        for p in params:
            pname, ptype = self.text(p.child_by_field_name("name")), self.text(p.child_by_field_name("type"))
            self.declare(pname, ptype)
            parts.append(f"{self.cs_type(ptype)} {self.ident(pname)}")
        block = self.lambda_block(method.child_by_field_name("body"))
        self.scopes.pop()
        return f"({', '.join(parts)}) => {block}", java_type

    def _new_array(self, node: Node, expected: str | None) -> Typed:
        elem = self.text(node.child_by_field_name("type"))
        dim_exprs = [c.named_children[0] for c in node.children if c.type == "dimensions_expr"]
        extra = sum(self.text(c).count("[") for c in node.children if c.type == "dimensions")
        total = len(dim_exprs) + extra
        java_type = elem + "[]" * total
        value = node.child_by_field_name("value")
        if value is not None:
            return self._array_init(value, java_type)
        sizes = [self.ex(d) for d in dim_exprs]
        return self._jagged(self.cs_type(elem), sizes, extra), java_type

    def _jagged(self, cs_elem: str, sizes: list[str], extra: int) -> str:
        if len(sizes) == 1:
            return f"new {cs_elem}[{sizes[0]}]" + "[]" * extra
        inner = self._jagged(cs_elem, sizes[1:], extra)
        var = self.temp("i")
        return f"Enumerable.ToArray(Enumerable.Select(Enumerable.Range(0, {sizes[0]}), {var} => {inner}))"

    def _array_init(self, node: Node, expected: str | None) -> Typed:
        java_type = expected or "Object[]"
        elem = element_type(java_type) or "Object"
        items = [self.coerce(*self.expr(c, elem), elem) for c in node.named_children if "comment" not in c.type]
        return f"new {self.cs_type(java_type)} {{ {', '.join(items)} }}", java_type
