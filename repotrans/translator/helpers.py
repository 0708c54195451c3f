"""Java helpers the port removed: a private method of the Java class that the candidate calls
but that has no C# counterpart. When the learned API map knows how the port replaced it, the translator
already wrote that (learned_calls.py); otherwise the helper is inlined when its body is one `return`
expression, else translated and added after the candidate as a private member, marked as added."""
from __future__ import annotations

import re

from repotrans.errors import InputError
from repotrans.index.model import Method
from repotrans.translator.cs_line import argument_commas
from repotrans.translator.cs_types import pascal
from repotrans.translator.resolver import NameResolver

ADDED_MARK = "// added by repotrans: the Java helper {name}, which the port does not have"
_RETURN_ONLY = re.compile(r"^\s*\{\s*return\s+(.*?);\s*\}\s*$", re.S)
_STRING = re.compile(r'@"(?:[^"]|"")*"|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'')
_STRING_OR_COMMENT = re.compile(_STRING.pattern + r"|//[^\n]*|/\*.*?\*/", re.S)
_SIMPLE = re.compile(r"[\w.]+|\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'")
MAX_ROUNDS = 3


def removed_helpers(own: list[Method], matched: set[str], cs_names: set[str],
                    cs_overloads: set[tuple[str, int]] | None = None) -> list[Method]:
    """Java methods of the class (`own`) the mapping pairs with nothing (`matched`: paired Java ids) and
    whose name the C# class does not declare in any case (`cs_names`), or declares only with other
    parameter counts (`cs_overloads`: (name, count) of its methods; BCrypt.Net folded jBCrypt's
    gensalt(int, SecureRandom) into gensalt(int))."""
    def gone(m: Method) -> bool:
        if m.name not in cs_names and pascal(m.name) not in cs_names:
            return True
        return cs_overloads is not None and not {(m.name, len(m.params)), (pascal(m.name), len(m.params))} & cs_overloads
    return [m for m in own if m.kind == "method" and m.body and m.id not in matched and gone(m)]


def add_helpers(code: str, helpers: list[Method], resolver: NameResolver, translate) -> str:
    """The candidate with each removed helper it calls inlined (one `return` expression) or added after
    it; `translate(java_method, resolver)` renders a helper (java2cs.translate_method without a target)."""
    done: set[str] = set()
    for _ in range(MAX_ROUNDS):
        body = code[code.find("{"):]         # the candidate's own declaration calls nothing
        called = [h for h in helpers if h.id not in done and _calls(body, resolver.method_name(None, h.name, len(h.params)))]
        if not called:
            break
        for helper in called:
            done.add(helper.id)
            name = resolver.method_name(None, helper.name, len(helper.params))
            try:
                text = translate(helper, resolver)
            except InputError:
                continue
            inlined = _inline(code, name, helper, text)
            if inlined is not None:
                code = inlined
                continue
            header, _, rest = text.partition("\n")
            # a candidate may add private members only: the helper is the candidate's, whatever Java declared
            header = "private " + re.sub(r"\b(private|protected|public|internal)\s+", "", header, count=1)
            if name in resolver.members(None):      # an overload of a member the class keeps: a name of its own
                own_name = f"{name}{len(helper.params)}"
                code = _rename_calls(code, name, len(helper.params), own_name)
                header = re.sub(rf"\b{re.escape(name)}\s*\(", f"{own_name}(", header, count=1)
                rest = _rename_calls(rest, name, len(helper.params), own_name)
            code = f"{code}\n\n{ADDED_MARK.format(name=helper.name)}\n{header}\n{rest}"
    return code


def _rename_calls(code: str, name: str, argc: int, new: str) -> str:
    """`name(...)` calls with `argc` arguments renamed `new` (calls of the other overloads kept)."""
    out, pos = [], 0
    for match in re.finditer(rf"(?<![\w.]){re.escape(name)}\s*\(", code):
        if match.start() < pos:
            continue
        line_end = code.find("\n", match.end())
        line = code[match.start():line_end if line_end >= 0 else len(code)]
        close, commas = argument_commas(line, line.index("("))
        args = line[line.index("(") + 1:close].strip() if close is not None else None
        if args is not None and (len(commas) + 1 if args else 0) == argc:
            out.append(code[pos:match.start()] + new + "(")
            pos = match.end()
    return "".join(out) + code[pos:]


def code_only(code: str) -> str:
    """The code with comments blanked and string and char literals emptied: what names it really uses."""
    return _STRING_OR_COMMENT.sub(lambda m: " " if m.group(0)[:1] == "/" else '""', code)


def _calls(code: str, name: str) -> bool:
    """Whether the code calls `name` (outside strings and comments: a comment that names a method calls
    nothing)."""
    bare = code_only(code)
    return re.search(rf"(?<![\w.]){re.escape(name)}\s*\(", bare) is not None


def _inline(code: str, name: str, helper: Method, text: str) -> str | None:
    """Every `name(args)` call in `code` replaced by the helper's return expression over the arguments,
    when the helper is one `return` statement that does not call itself."""
    _, _, body = text.partition("\n")
    match = _RETURN_ONLY.match(body)
    if match is None or _calls(match.group(1), name):
        return None
    expr = match.group(1).strip()
    params = [p.name for p in helper.params]
    out, i = [], 0
    pattern = re.compile(rf"(?<![\w.]){re.escape(name)}\s*\(")
    while True:
        found = pattern.search(code, i)
        if found is None:
            out.append(code[i:])
            break
        args, end = call_args(code, found.end())
        if args is None or len(args) != len(params):
            return None
        values = {p: argument_value(a) for p, a in zip(params, args)}
        body_expr = substitute(expr, values)
        out.append(code[i:found.start()] + f"({body_expr})")
        i = end
    return "".join(out)


def call_args(code: str, start: int) -> tuple[list[str] | None, int]:
    """The top-level arguments of a call whose `(` ends at `start`, and the index after its `)`."""
    depth, args, current, i = 0, [], [], start
    while i < len(code):
        ch = code[i]
        if ch in "\"'":
            literal = _STRING.match(code, i)
            if literal is None:
                return None, i
            current.append(literal.group(0))
            i = literal.end()
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                if "".join(current).strip():
                    args.append("".join(current).strip())
                return args, i + 1
            depth -= 1
        elif ch == "," and depth == 0:
            args.append("".join(current).strip())
            current = []
            i += 1
            continue
        current.append(ch)
        i += 1
    return None, i


def argument_value(arg: str) -> str:
    """An argument as it may stand for a parameter inside other code: a name, member access or literal
    as it is, anything else in parentheses."""
    return arg if _SIMPLE.fullmatch(arg) else f"({arg})"


def substitute(expr: str, values: dict[str, str]) -> str:
    """`expr` with each whole word of `values` replaced by its value, string literals untouched."""
    pieces, last = [], 0
    pattern = re.compile(r"(?<![\w.@])(" + "|".join(map(re.escape, values)) + r")\b") if values else None
    for literal in _STRING.finditer(expr):
        pieces.append(pattern.sub(lambda m: values[m.group(1)], expr[last:literal.start()]) if pattern
                      else expr[last:literal.start()])
        pieces.append(literal.group(0))
        last = literal.end()
    tail = expr[last:]
    pieces.append(pattern.sub(lambda m: values[m.group(1)], tail) if pattern else tail)
    return "".join(pieces)
