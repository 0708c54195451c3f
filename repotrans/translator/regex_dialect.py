"""Java regex syntax .NET reads otherwise, in a Java string literal (its source text, backslashes doubled):
character-class intersection. .NET has no `&&`; it has subtraction (`[a-z-[aeiou]]`). An intersection of
complements is the complement of the union (`[\\P{N}&&\\P{L}&&[^#]]` -> `[^\\p{N}\\p{L}#]`), and a class
intersected with complements is the class minus their union (`[a-z&&[^aeiou]]` -> `[a-z-[aeiou]]`). A class
with `&&` in another shape (two positive operands) is left as written.
Where the literal is a regex (regex_literal: the regex argument of compile, matches, replaceAll, replaceFirst,
split, or a variable's initializer whose name reaches one), the forms .NET lacks: `\\Q..\\E` quoting (each
character escaped), Java's own classes (`\\p{javaLowerCase}` -> `\\p{Ll}`, POSIX `\\p{Alpha}` -> `a-zA-Z`),
possessive quantifiers (`X*+` -> the atomic group `(?>X*)`)."""
from __future__ import annotations

import re

def _operand(body: str) -> tuple[bool, str] | None:
    """A class operand's (negated, .NET body): `\\\\P{N}` -> (True, `\\\\p{N}`), `[^#]` -> (True, `#`), `a-z` ->
    (False, `a-z`); None for a shape this module does not convert."""
    if body.startswith("[") and body.endswith("]"):
        inner = body[1:-1]
        if "[" in inner or "&&" in inner:
            folded = _fold(inner)
            return None if folded is None else folded
        return (True, inner[1:]) if inner.startswith("^") else (False, inner)
    escape = re.fullmatch(r"\\\\([pP])\{(\w+)\}", body)
    if escape:
        return escape.group(1) == "P", f"\\\\p{{{escape.group(2)}}}"
    return None if "[" in body else (False, body)


def _split(inner: str) -> list[str] | None:
    """The `&&` operands of a class body at its own nesting level, each a nested class or a run of items."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(inner):
        if inner.startswith("\\\\", i):
            i += 3 if inner[i + 2:i + 3] else 2
            continue
        if inner[i] == "[":
            depth += 1
        elif inner[i] == "]":
            depth -= 1
            if depth < 0:
                return None
        elif depth == 0 and inner.startswith("&&", i):
            parts.append(inner[start:i])
            start = i + 2
            i += 2
            continue
        i += 1
    return parts + [inner[start:]] if depth == 0 else None


def _fold(inner: str) -> tuple[bool, str] | None:
    """The class body `inner` (with `&&`) as one (negated, body), or None."""
    parts = _split(inner)
    if parts is None or any(not p for p in parts):
        return None
    operands = [_operand(p) for p in parts]
    if any(o is None for o in operands):
        return None
    positive = [body for negated, body in operands if not negated]
    excluded = "".join(body for negated, body in operands if negated)
    if len(positive) > 1:
        return None
    if not positive:
        return True, excluded
    return False, f"{positive[0]}-[{excluded}]" if excluded else positive[0]


def net_regex(literal: str) -> str:
    """The Java string literal's text with each outermost character class holding `&&` in .NET's syntax."""
    if "&&" not in literal:
        return literal
    out, i = [], 0
    while i < len(literal):
        if literal.startswith("\\\\", i):
            out.append(literal[i:i + 3])
            i += 3
            continue
        if literal[i] == "[":
            end, depth, j = None, 0, i
            while j < len(literal):
                if literal.startswith("\\\\", j):
                    j += 3
                    continue
                depth += literal[j] == "["
                depth -= literal[j] == "]"
                if depth == 0:
                    end = j
                    break
                j += 1
            if end is None:
                return literal
            inner = literal[i + 1:end]
            folded = _fold(inner) if "&&" in inner else None
            out.append(literal[i:end + 1] if folded is None else f"[{'^' if folded[0] else ''}{folded[1]}]")
            i = end + 1
            continue
        out.append(literal[i])
        i += 1
    return "".join(out)


# ---- forms only a regex uses, converted where the literal is a regex (regex_literal) ----------------------------
# Java's own \p{..} classes .NET lacks -> a class body (the literal's text: backslashes doubled)
JAVA_CLASSES = {"javaLowerCase": "\\\\p{Ll}", "javaUpperCase": "\\\\p{Lu}", "javaTitleCase": "\\\\p{Lt}",
                "javaDigit": "\\\\p{Nd}", "javaLetter": "\\\\p{L}", "javaLetterOrDigit": "\\\\p{L}\\\\p{Nd}",
                "javaAlphabetic": "\\\\p{L}\\\\p{Nl}", "javaDefined": "\\\\P{Cn}",
                "Lower": "a-z", "Upper": "A-Z", "ASCII": "\\\\x00-\\\\x7F", "Alpha": "a-zA-Z", "Digit": "0-9",
                "Alnum": "a-zA-Z0-9", "XDigit": "0-9a-fA-F", "Blank": " \\\\t", "Cntrl": "\\\\x00-\\\\x1F\\\\x7F",
                "Space": " \\\\t\\\\n\\\\x0B\\\\f\\\\r",
                "Punct": "!-/:-@\\\\[-`{-~", "Graph": "!-~", "Print": " -~"}
_META = set("\\.[]{}()*+?^$|#")
# the calls whose first argument is a regex: name -> argument counts (Matcher's replaceAll(r) takes a replacement)
REGEX_CALLS = {"compile": (1, 2), "matches": (1, 2), "replaceAll": (2,), "replaceFirst": (2,), "split": (1, 2)}
_QUANTIFIER = re.compile(r"[*+?]|\{\d+(?:,\d*)?\}")


def _unit(s: str, i: int) -> int:
    """The end of the source unit at `i`: a regex escape (`\\\\d`, `\\\\\\\\`, `\\\\p{L}`), a Java escape (`\\n`,
    `\\u00e9`), or one character."""
    if s.startswith("\\\\", i):
        if s.startswith("\\\\", i + 2):
            return i + 4
        if s[i + 2:i + 3] in ("p", "P") and s[i + 3:i + 4] == "{" and "}" in s[i:]:
            return s.index("}", i) + 1
        return i + 3 if s[i + 2:i + 3] != "\\" else i + 4
    if s[i] == "\\":
        return i + 6 if s[i + 1:i + 2] == "u" else i + 2
    return i + 1


def _class_end(s: str, i: int) -> int | None:
    """The index of the `]` closing the class opened at `i` (nested classes and escapes skipped)."""
    j, depth = i + 1, 1
    if s[j:j + 1] == "^":
        j += 1
    if s[j:j + 1] == "]":
        j += 1
    while j < len(s):
        if s[j] == "\\":
            j = _unit(s, j)
            continue
        if s[j] == "[":
            depth += 1
        elif s[j] == "]":
            depth -= 1
            if depth == 0:
                return j
        j += 1
    return None


def _quoted(s: str) -> str:
    """`\\\\Q..\\\\E` as the same characters escaped one by one (.NET has no quoting)."""
    out, i = [], 0
    while i < len(s):
        if not s.startswith("\\\\Q", i):
            end = _unit(s, i)
            out.append(s[i:end])
            i = end
            continue
        i += 3
        while i < len(s) and not s.startswith("\\\\E", i):
            end = _unit(s, i)
            unit = s[i:end]
            out.append("\\\\\\\\" if unit == "\\\\" else ("\\\\" + unit if unit in _META else unit))
            i = end
        i += 3
    return "".join(out)


def _classes(s: str) -> str:
    """Java's own `\\\\p{..}` classes (JAVA_CLASSES) in .NET's terms, inside a class or out of one."""
    out, i, depth = [], 0, 0
    while i < len(s):
        end = _unit(s, i)
        unit = s[i:end]
        found = re.fullmatch(r"\\\\([pP])\{(?:Is)?(\w+)\}", unit)
        body = JAVA_CLASSES.get(found.group(2)) if found else None
        if body is None:
            depth += (unit == "[") - (unit == "]" and depth > 0)
            out.append(unit)
        elif found.group(1) == "p":
            out.append(body if depth else f"[{body}]")
        elif re.fullmatch(r"\\\\p\{\w+\}", body):
            out.append(body.replace("\\\\p", "\\\\P"))
        else:
            out.append(unit if depth else f"[^{body}]")
        i = end
    return "".join(out)


def _possessive(s: str) -> str:
    """Possessive quantifiers (`X*+`, `X++`, `X?+`, `X{n,m}+`) as atomic groups (`(?>X*)`): .NET has none."""
    opens: dict[int, int] = {}
    closes: set[int] = set()
    groups: list[int] = []
    atom, i = None, 0
    while i < len(s):
        c = s[i]
        if c == "\\":
            atom, i = i, _unit(s, i)
        elif c == "[":
            end = _class_end(s, i)
            if end is None:
                return s
            atom, i = i, end + 1
        elif c == "(":
            groups.append(i)
            atom, i = None, i + 1
        elif c == ")":
            atom, i = (groups.pop() if groups else None), i + 1
        elif (q := _QUANTIFIER.match(s, i)) is not None:
            end = q.end()
            if s[end:end + 1] == "+" and atom is not None:
                opens[atom] = opens.get(atom, 0) + 1
                closes.add(end)
                end += 1
            elif s[end:end + 1] == "?":
                end += 1
            atom, i = None, end
        else:
            atom, i = (None if c == "|" else i), i + 1
    return "".join("(?>" * opens.get(k, 0) + (")" if k in closes else ch) for k, ch in enumerate(s))


def java_regex(literal: str) -> str:
    """A Java string literal's text that is a regex, with the forms .NET reads otherwise or not at all in
    .NET's: `\\\\Q..\\\\E` quoting, Java's own `\\\\p{javaLowerCase}` and POSIX `\\\\p{Alpha}` classes,
    possessive quantifiers."""
    if "\\\\" not in literal and not re.search(r"[*+?}]\+", literal):
        return literal
    return _possessive(_classes(_quoted(literal)))


def regex_literal(node) -> bool:
    """Whether a Java string literal node is (part of) a regex: the first argument of a call that takes one
    (REGEX_CALLS), directly or through `+` and parentheses, or the initializer of a variable or field
    whose name is so used in the same file."""
    while node.parent is not None and node.parent.type in ("binary_expression", "parenthesized_expression"):
        node = node.parent
    parent = node.parent
    if parent is not None and parent.type == "argument_list":
        return _regex_argument(parent, node)
    if parent is not None and parent.type == "variable_declarator":
        name = parent.child_by_field_name("name")
        root = parent
        while root.parent is not None:
            root = root.parent
        return name is not None and name.text.decode() in _regex_names(root)
    return False


def _regex_argument(args, node) -> bool:
    call = args.parent
    if call is None or call.type != "method_invocation":
        return False
    name = call.child_by_field_name("name")
    given = [c for c in args.named_children if "comment" not in c.type]
    return name is not None and len(given) in REGEX_CALLS.get(name.text.decode(), ()) and given[0] == node


def _regex_names(root) -> set[str]:
    """The identifiers that reach the regex argument of a call in the file (through `+` and parentheses)."""
    out: set[str] = set()
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.children)
        if n.type != "argument_list" or not n.named_children:
            continue
        first = n.named_children[0]
        if not _regex_argument(n, first):
            continue
        todo = [first]
        while todo:
            part = todo.pop()
            if part.type == "identifier":
                out.add(part.text.decode())
            elif part.type in ("binary_expression", "parenthesized_expression"):
                todo.extend(part.named_children)
    return out
