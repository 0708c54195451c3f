"""MSBuild's expression language, as far as real project files use it: `$(Prop)` expansion with the
common property functions, and `Condition` expressions (==, !=, <, >, <=, >=, and, or, !, parentheses,
Exists, HasTrailingSlash). Anything else is a ConfigError naming the construct."""
from __future__ import annotations

import os
import platform
import re
from pathlib import Path

from repotrans.errors import ConfigError

NAME_RE = re.compile(r"[A-Za-z_][\w-]*")
# a property body: `Name`, or `[Class]::` then a call, each followed by any chain of `.Method(args)`
HEAD_RE = re.compile(r"\s*(?:\[(?P<cls>[\w.]+)\]::|(?P<name>[A-Za-z_][\w-]*))")
CALL_RE = re.compile(r"\s*(\w+)\s*")
# $(MSBuildToolsPath) and friends: the toolset is not on disk here; Exists() holds for its files
TOOLSET = "/msbuild-toolset"
TOKEN_RE = re.compile(r"\s*(==|!=|<=|>=|<|>|\(|\)|!|,|'[^']*'|[^\s=!<>(),']+)")


def slashes(spec: str) -> str:
    return spec.replace("\\", "/")


def expand(text: str, props: dict[str, str]) -> str:
    """Replace every `$(...)` in text; item (@()) and metadata (%()) references are left as they are."""
    out, i = [], 0
    while True:
        j = text.find("$(", i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:j])
        end = _matching(text, j + 1)
        if end < 0:
            raise ConfigError(f"unbalanced $( in MSBuild expression: {text}")
        out.append(_property(text[j + 2:end].strip(), props))
        i = end + 1


def _matching(text: str, open_at: int) -> int:
    depth, quote = 0, None
    for k in range(open_at, len(text)):
        ch = text[k]
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'`\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return k
    return -1


def _args(text: str | None, props: dict[str, str]) -> list[str]:
    if not text or not text.strip():
        return []
    parts, depth, quote, cur = [], 0, None, []
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'`\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    parts.append("".join(cur))
    values = []
    for part in parts:
        part = part.strip()
        if len(part) >= 2 and part[0] == part[-1] and part[0] in "'`\"":
            part = part[1:-1]
        values.append(expand(part, props))
    return values


def _property(body: str, props: dict[str, str]) -> str:
    if NAME_RE.fullmatch(body):
        return props.get(body, "")
    if body.lower().startswith("registry:"):
        return ""
    head = HEAD_RE.match(body)
    if not head:
        raise ConfigError(f"unsupported MSBuild property expression: $({body})")
    pos = head.end()
    if head.group("cls"):                        # [Class]::Method(args)
        name, args, pos = _call(body, pos, props)
        value = _static(head.group("cls"), name, args, props, body)
    else:
        value = props.get(head.group("name"), "")
    while pos < len(body):                       # .Method(args) chained on the value so far
        if body[pos] != ".":
            raise ConfigError(f"unsupported MSBuild property expression: $({body})")
        name, args, pos = _call(body, pos + 1, props)
        value = _string_method(value, name, args, body)
    return value


def _call(body: str, pos: int, props: dict[str, str]) -> tuple[str, list[str], int]:
    """`Name(args)` or `Name` at pos in a property body: (name, expanded args, position after it)."""
    m = CALL_RE.match(body, pos)
    if not m:
        raise ConfigError(f"unsupported MSBuild property expression: $({body})")
    pos = m.end()
    if pos < len(body) and body[pos] == "(":
        end = _matching(body, pos)
        if end < 0:
            raise ConfigError(f"unbalanced ( in MSBuild expression: $({body})")
        return m.group(1), _args(body[pos + 1:end], props), _skip_spaces(body, end + 1)
    return m.group(1), [], pos


def _skip_spaces(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _file_above(start: str, name: str) -> Path | None:
    d = Path(slashes(start)).resolve()
    for folder in (d, *d.parents):
        if (folder / name).exists():
            return folder / name
    return None


def _static(cls: str, method: str, args: list[str], props: dict[str, str], body: str) -> str:
    cls, low = cls.lower(), method.lower()
    here = props.get("MSBuildThisFileDirectory", "")
    if cls == "msbuild":
        if low == "getdirectorynameoffileabove":
            found = _file_above(args[0], args[1])
            return str(found.parent) if found else ""
        if low == "getpathoffileabove":
            start = args[1] if len(args) > 1 else here
            found = _file_above(start, args[0])
            return str(found) if found else ""
        if low == "isosplatform":
            return _bool(args[0].lower() == {"Darwin": "osx"}.get(platform.system(), platform.system()).lower())
        if low in ("ensuretrailingslash",):
            return args[0] if args[0].endswith(("/", "\\")) else args[0] + "/"
        if low in ("normalizedirectory", "normalizepath"):
            path = os.path.normpath(os.path.join(*[slashes(a) for a in args])) if args else ""
            return path + ("/" if low == "normalizedirectory" else "")
        if low.startswith("version"):
            a, b = _version(args[0]), _version(args[1])
            return _bool({"versionequals": a == b, "versionnotequals": a != b, "versiongreaterthan": a > b,
                          "versiongreaterthanorequals": a >= b, "versionlessthan": a < b,
                          "versionlessthanorequals": a <= b}[low])
        if low in ("add", "subtract", "multiply"):
            x, y = float(args[0]), float(args[1])
            r = x + y if low == "add" else x - y if low == "subtract" else x * y
            return str(int(r)) if r == int(r) else str(r)
        if low == "gettargetframeworkidentifier" or low == "gettargetframeworkversion":
            from repotrans.execution.toolchains.frameworks import parse_tfm
            fw = parse_tfm(args[0])
            return fw.identifier if low.endswith("identifier") else ".".join(map(str, fw.version))
        if low == "istargetframeworkcompatible":
            from repotrans.execution.toolchains.frameworks import compatible
            return _bool(compatible(args[0], args[1]))
        if low == "valueorDefault".lower():
            return args[0] if args[0] else args[1]
    if cls in ("system.io.path",):
        if low == "combine":
            return os.path.join(*[slashes(a) for a in args])
        if low == "getfullpath":
            return os.path.normpath(os.path.join(props.get("MSBuildProjectDirectory", ""), slashes(args[0])))
        if low == "getfilename":
            return os.path.basename(slashes(args[0]))
        if low == "getdirectoryname":
            return os.path.dirname(slashes(args[0]))
        if low == "getfilenamewithoutextension":
            return os.path.splitext(os.path.basename(slashes(args[0])))[0]
    if cls == "system.io.file" and low == "exists":
        return _bool(Path(slashes(args[0])).is_file())
    if cls == "system.io.directory" and low == "exists":
        return _bool(Path(slashes(args[0])).is_dir())
    if cls == "system.string":
        if low == "isnullorempty":
            return _bool(not args[0])
        if low == "isnullorwhitespace":
            return _bool(not args[0].strip())
        if low == "copy":
            return args[0]
        if low == "concat":
            return "".join(args)
    if cls == "system.environment" and low == "getenvironmentvariable":
        return ""      # evaluation does not depend on this machine's environment (as on a clean CI agent)
    raise ConfigError(f"unsupported MSBuild property function: $({body})")


def _string_method(value: str, method: str, args: list[str], body: str) -> str:
    low = method.lower()
    if low == "replace":
        return value.replace(args[0], args[1])
    if low == "trim":
        return value.strip()
    if low in ("trimend", "trimstart"):
        chars = args[0] if args else None
        return value.rstrip(chars) if low == "trimend" else value.lstrip(chars)
    if low == "tolower" or low == "tolowerinvariant":
        return value.lower()
    if low == "toupper" or low == "toupperinvariant":
        return value.upper()
    if low == "startswith":
        return _bool(value.startswith(args[0]))
    if low == "endswith":
        return _bool(value.endswith(args[0]))
    if low == "contains":
        return _bool(args[0] in value)
    if low == "substring":
        start = int(args[0])
        return value[start:start + int(args[1])] if len(args) > 1 else value[start:]
    if low == "split":
        return value.split(args[0])[0] if args else value
    if low == "length":
        return str(len(value))
    if low == "indexof":
        return str(value.find(args[0]))
    raise ConfigError(f"unsupported MSBuild property function: $({body})")


def _version(text: str) -> tuple[int, ...]:
    nums = re.findall(r"\d+", text)
    return tuple(int(n) for n in nums) + (0,) * (4 - len(nums))


# -- conditions -----------------------------------------------------------------------------------
def evaluate_condition(cond: str | None, props: dict[str, str], file_dir: Path) -> bool:
    """True when an MSBuild Condition holds; a missing or empty condition holds."""
    if not cond or not cond.strip():
        return True
    tokens = _tokens(cond)
    parser = _CondParser(tokens, props, file_dir, cond)
    value = parser.disjunction()
    if parser.pos != len(tokens):
        raise ConfigError(f"unsupported MSBuild condition: {cond}")
    return _truth(value, cond)


def _tokens(cond: str) -> list[str]:
    tokens, i = [], 0
    while i < len(cond):
        if cond[i].isspace():
            i += 1
            continue
        if cond.startswith("$(", i) or cond.startswith("@(", i) or cond.startswith("%(", i):
            end = _matching(cond, i + 1)
            if end < 0:
                raise ConfigError(f"unsupported MSBuild condition: {cond}")
            # a word may continue after the reference, e.g. $(A)|$(B)
            j = end + 1
            while j < len(cond) and not cond[j].isspace() and cond[j] not in "=!<>()',":
                j = _matching(cond, j + 1) + 1 if cond.startswith("$(", j) else j + 1
            tokens.append(cond[i:j])
            i = j
            continue
        m = TOKEN_RE.match(cond, i)
        if not m:
            raise ConfigError(f"unsupported MSBuild condition: {cond}")
        tokens.append(m.group(1))
        i = m.end()
    return tokens


class _CondParser:
    def __init__(self, tokens: list[str], props: dict[str, str], file_dir: Path, text: str):
        self.tokens, self.props, self.file_dir, self.text, self.pos = tokens, props, file_dir, text, 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        if self.pos >= len(self.tokens):
            raise ConfigError(f"unsupported MSBuild condition: {self.text}")
        self.pos += 1
        return self.tokens[self.pos - 1]

    def disjunction(self):
        value = self.conjunction()
        while (self.peek() or "").lower() == "or":
            self.take()
            right = self.conjunction()
            value = _truth(value, self.text) or _truth(right, self.text)
        return value

    def conjunction(self):
        value = self.unary()
        while (self.peek() or "").lower() == "and":
            self.take()
            right = self.unary()
            value = _truth(value, self.text) and _truth(right, self.text)
        return value

    def unary(self):
        if self.peek() == "!":
            self.take()
            return not _truth(self.unary(), self.text)
        return self.comparison()

    def comparison(self):
        left = self.operand()
        op = self.peek()
        if op not in ("==", "!=", "<", ">", "<=", ">="):
            return left
        self.take()
        right = self.operand()
        if isinstance(left, bool) or isinstance(right, bool):
            left, right = str(left).lower(), str(right).lower()
        if op in ("==", "!="):
            equal = left.strip().lower() == right.strip().lower()
            return equal if op == "==" else not equal
        a, b = _number(left, self.text), _number(right, self.text)
        return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]

    def operand(self):
        tok = self.take()
        if tok == "(":
            value = self.disjunction()
            if self.take() != ")":
                raise ConfigError(f"unsupported MSBuild condition: {self.text}")
            return value
        if self.peek() == "(" and NAME_RE.fullmatch(tok):
            self.take()
            args = []
            while self.peek() != ")":
                arg = self.take()
                if arg != ",":
                    args.append(self._value(arg))
            self.take()
            return self._function(tok, args)
        return self._value(tok)

    def _value(self, tok: str) -> str:
        if len(tok) >= 2 and tok[0] == tok[-1] == "'":
            tok = tok[1:-1]
        return expand(tok, self.props)

    def _function(self, name: str, args: list[str]) -> bool:
        low = name.lower()
        if low == "exists" and len(args) == 1:
            spec = slashes(args[0].strip())
            return bool(spec) and (spec.startswith(TOOLSET) or (self.file_dir / spec).exists())
        if low == "hastrailingslash" and len(args) == 1:
            return args[0].endswith(("/", "\\"))
        raise ConfigError(f"unsupported MSBuild condition function {name}(): {self.text}")


def _truth(value, text: str) -> bool:
    if isinstance(value, bool):
        return value
    low = value.strip().lower()
    if low in ("true", "on", "yes", "!false", "!off", "!no"):
        return True
    if low in ("false", "off", "no", "!true", "!on", "!yes"):
        return False
    raise ConfigError(f"unsupported MSBuild condition: {text} ({value!r} is not a boolean)")


def _number(value: str, text: str) -> float | tuple[int, ...]:
    value = value.strip()
    try:
        return float(int(value, 16)) if value.lower().startswith("0x") else float(value)
    except ValueError:
        if re.fullmatch(r"v?\d+(\.\d+)*", value):
            return float(".".join(value.lstrip("v").split(".")[:2]))
        raise ConfigError(f"unsupported MSBuild condition: {text} ({value!r} is not a number)") from None
