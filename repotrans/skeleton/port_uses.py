"""Skeleton members reshaped by how the port's own code uses them, read from the compiler's errors on the
port's lines: a getter property the port calls as a method (or the reverse), the casing it writes, an extension
method, a nested enum of constants, a placeholder for a member only the port has, a member's type from the
conversion the port makes or the port's subtype it calls members of, a nested type the port names bare.
Each rule changes the skeleton's lines and says whether it did; skeleton.check builds again after them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from repotrans.skeleton.generate import SkeletonFile
from repotrans.skeleton.lines import PLACEHOLDER, Line


@dataclass
class MemberError:
    file: str
    line: int
    code: str
    message: str
    origin: str | None                  # Java declaration, None outside skeleton files

    def render(self) -> str:
        where = f"from Java {self.origin}" if self.origin else "in the port's own code"
        return f"{self.file}:{self.line}: {self.code} {self.message} ({where})"


MISSING_MEMBER = re.compile(r"`(?P<type>[\w.]+)' does not contain a definition for `(?P<member>\w+)'")
WANTED = re.compile(r"(?:cannot convert `object' expression to type|convert type `object' to) `(?P<type>[^']+)'")
PORT_ONLY = "(the port's, no Java counterpart)"


_ALIASES = {"String": "string", "Object": "object", "Int32": "int", "Int64": "long", "Boolean": "bool",
            "Char": "char", "Double": "double"}


def as_extension(files: list[SkeletonFile], receiver: str, member: str) -> bool:
    """The port calls `x.member(...)` on a `receiver` (NSoup: `text.IsBlank()`, StringUtil.IsBlank(this string
    s)): a static method `member` whose first parameter is of that type, in a class whose members are all
    static, takes `this` on that parameter and the class becomes static; True if changed."""
    wanted = _ALIASES.get(receiver.rsplit(".", 1)[-1], receiver.rsplit(".", 1)[-1])
    head = re.compile(r"^(\s*(?:public|internal)\s+static\s+[\w<>\[\],.? ]+?\s+" + re.escape(member) +
                      r"\s*\()(\s*)([\w<>\[\],.?]+)(\s+@?\w+)")
    for f in files:
        for i, line in enumerate(f.lines):
            m = head.match(line.text)
            if m is None or _ALIASES.get(m.group(3), m.group(3)) != wanted:
                continue
            top = max((j for j in range(i) if f.lines[j].kind == "type"), default=None)
            if top is None or not _all_static(f, top):
                return False
            line.text = f"{m.group(1)}this {m.group(3)}{m.group(4)}{line.text[m.end():]}"
            if not re.search(r"\bstatic\s+class\b", f.lines[top].text):     # a second extension: static already
                f.lines[top].text = re.sub(r"\b(?:sealed\s+)?class\b", "static class", f.lines[top].text, count=1)
            return True
    return False


def _all_static(f: SkeletonFile, top: int) -> bool:
    """Every member declared directly in the type whose header is line `top` is static (or const), so the
    type may be a static class (which extension methods need); a private constructor is dropped."""
    indent = len(f.lines[top].text) - len(f.lines[top].text.lstrip()) + 4
    members = [(j, ln) for j, ln in enumerate(f.lines[top + 2:], top + 2)
               if len(ln.text) - len(ln.text.lstrip()) == indent and ln.text.strip() not in ("{", "}")
               and not ln.text.lstrip().startswith(("//", "["))]
    name = re.search(r"\bclass\s+(\w+)", f.lines[top].text)
    ctors = [j for j, ln in members if name and re.match(r"\s*(?:private\s+)?" + name.group(1) + r"\s*\(", ln.text)]
    if any(re.search(r"\b(static|const)\b", ln.text) is None for j, ln in members if j not in ctors) \
            or any("private" not in f.lines[j].text for j in ctors):
        return False
    for j in sorted(ctors, reverse=True):          # `private X() { ... }` goes (a static class has none)
        close = next((k for k in range(j + 1, len(f.lines)) if f.lines[k].text.strip() == "}" and
                      len(f.lines[k].text) - len(f.lines[k].text.lstrip()) == indent), None)
        if close is None:
            return False
        del f.lines[j:close + 1]
    return True


def port_member(f: SkeletonFile, type_name: str, member: str, error: MemberError, target: Path) -> bool:
    """A member the port's own code uses that no Java member gives (NSoup's DataUtil.DefaultEncoding, jsoup's
    defaultCharset retyped): a placeholder of type object, static where the port reaches it on the type, a
    method where it calls it (`retype` then gives it the type a use converts it to); True if added."""
    if any(re.search(r"\s" + re.escape(member) + r"\s*(\(|\{|$)", ln.text) for ln in f.lines
           if not ln.text.lstrip().startswith("//")):
        return False
    head = next((i for i, ln in enumerate(f.lines) if ln.kind == "type" and
                 re.search(r"\b(class|struct)\s+" + re.escape(type_name) + r"\b", ln.text)), None)
    path = target / error.file
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines() if path.is_file() else []
    use = re.search(r"\." + re.escape(member) + r"\b\s*(\()?", lines[error.line - 1]) if 0 < error.line <= len(lines) else None
    if head is None or use is None or f.lines[head + 1].text.strip() != "{":
        return False
    indent = re.match(r"\s*", f.lines[head].text).group(0) + "    "
    static = "static " if error.code == "CS0117" else ""
    origin = f"{type_name}.{member} {PORT_ONLY}"
    text = f"public {static}object {member}(params object[] args) {{ {PLACEHOLDER} }}" if use.group(1) \
        else f"public {static}object {member} {{ get {{ {PLACEHOLDER} }} }}"
    f.lines.insert(head + 2, Line(indent + text, origin))
    return True


def retype(files: list[SkeletonFile], error: MemberError, cs_type: str, target: Path) -> bool:
    """The one placeholder of `port_member` the port's line of `error` uses, typed `cs_type`; True if changed."""
    path = target / error.file
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines() if path.is_file() else []
    text = lines[error.line - 1] if 0 < error.line <= len(lines) else ""
    hits = [(ln, m) for f in files for ln in f.lines if ln.origin and ln.origin.endswith(PORT_ONLY)
            for m in [re.search(r"\bobject (\w+)", ln.text)] if m and re.search(r"\." + m.group(1) + r"\b", text)]
    if len(hits) != 1:
        return False
    ln, m = hits[0]
    ln.text = ln.text[:m.start()] + f"{cs_type} {m.group(1)}" + ln.text[m.end():]
    return True


_CONVERT = re.compile(r"cannot convert `(?P<have>[^']+)' expression to type `(?P<want>[^']+)'"
                      r"|[Cc]annot implicitly convert type `(?P<have2>[^']+)' to `(?P<want2>[^']+)'")
_DECL = re.compile(r"^(?P<indent>\s*)(?:(?:public|internal|protected|private|static|virtual|override|abstract|sealed"
                   r"|readonly|new)\s+)*(?P<type>[\w.<>\[\],? ]+?)\s+(?P<name>\w+)\s*(?=\(|\{|=|;|$)")
UNKNOWN_NAME = re.compile(r"The (?:type or namespace )?name `(?P<name>\w+)' (?:does not exist|could not be found)")
CLASH = re.compile(r"already contains a definition for `(?P<name>\w+)'")
_MODIFIERS = {"public", "internal", "protected", "private", "static", "virtual", "override", "abstract", "sealed",
              "readonly", "new", "return", "throw", "class", "struct", "interface", "enum"}


def _bare(cs_type: str) -> str:
    """A C# type as mcs messages and skeleton text both compare: no namespaces, no spaces."""
    return re.sub(r"\b(?:\w+\.)+(?=\w)", "", cs_type).replace(" ", "")


def _port_line(target: Path, error: MemberError) -> str:
    path = target / error.file
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines() if path.is_file() else []
    return lines[error.line - 1] if 0 < error.line <= len(lines) else ""


def _declarations(files: list[SkeletonFile]):
    """(file, line, match of _DECL) of every member declaration in the skeleton files."""
    for f in files:
        for ln in f.lines:
            d = _DECL.match(ln.text) if ln.kind != "type" and not ln.text.lstrip().startswith("//") else None
            if d is not None and d["type"].strip() and d["type"].split()[-1] not in _MODIFIERS:
                yield f, ln, d


def retype_to_use(files: list[SkeletonFile], error: MemberError, target: Path) -> bool:
    """The one skeleton member the port's line of `error` uses whose declared type is the one the compiler
    could not convert takes the type that use wants (libphonenumber's RegexCache returns the port's
    PhoneRegex where Java returns Pattern; its Map<Integer, List<String>> is the port's Dictionary<int,
    List<string>>); True if changed."""
    m = _CONVERT.search(error.message)
    if m is None:
        return False
    have, want = m["have"] or m["have2"], m["want"] or m["want2"]
    if _bare(have) in ("object", "Object"):
        return False                     # a port-only placeholder's: retype
    text = _port_line(target, error)
    hits = [(f, ln, d) for f, ln, d in _declarations(files) if _bare(d["type"]) == _bare(have)
            and re.search(r"\b" + re.escape(d["name"]) + r"\b", text)]
    if len(hits) != 1:
        return False
    f, ln, d = hits[0]
    written = want
    for ns in sorted((u[len("using "):].rstrip(";").strip() for u in f.header if u.startswith("using ")), key=len,
                     reverse=True) + [f.namespace]:
        written = re.sub(r"(?<![\w.])" + re.escape(ns) + r"\.(?=\w+(?:[<>,\[\]]|$))", "", written)
    written = re.sub(r",(?=\S)", ", ", written)
    ln.text = ln.text[:d.start("type")] + written + ln.text[d.end("type"):]
    return True


_NO_MEMBER = re.compile(r"Type `(?P<type>[\w.]+)' does not contain a definition for `(?P<member>\w+)'")
_OPERANDS = re.compile(r"operands of type `(?P<a>[^']+)' and `(?P<b>[^']+)'")


def retype_to_subtype(files: list[SkeletonFile], error: MemberError, target: Path) -> bool:
    """The port's line calls `M` on what a skeleton member returns (`cache.GetPatternForRegex(p).MatchAll(s)`)
    and the member's declared type lacks `M`: the one type of the port's own that derives from it and
    declares `M` (libphonenumber's PhoneRegex : Regex) becomes the member's type; True if changed."""
    m = _NO_MEMBER.search(error.message)
    if m is None:
        return False
    text = _port_line(target, error)
    hits = [(f, ln, d) for f, ln, d in _declarations(files) if _bare(d["type"]) == _bare(m["type"])
            and re.search(r"\b" + re.escape(d["name"]) + r"\b(?:\([^()]*(?:\([^()]*\)[^()]*)*\))?\s*\.\s*"
                          + re.escape(m["member"]) + r"\b", text)]
    if len(hits) != 1:
        return False
    base = re.escape(_bare(m["type"]))
    generated = {f.path for f in files}
    subtypes = set()
    for path in target.rglob("*.cs"):
        rel = path.relative_to(target).as_posix()
        if rel in generated or "/obj/" in f"/{rel}" or "/bin/" in f"/{rel}":
            continue
        source = path.read_text(encoding="utf-8", errors="replace")
        for c in re.finditer(r"\bclass\s+(\w+)\s*:\s*(?:[\w.]+\.)?" + base + r"\b", source):
            if re.search(r"\b" + re.escape(m["member"]) + r"\s*[(<]", source[c.end():]):
                subtypes.add(c.group(1))
    if len(subtypes) != 1:
        return False
    _, ln, d = hits[0]
    ln.text = ln.text[:d.start("type")] + subtypes.pop() + ln.text[d.end("type"):]
    return True


def retype_operand(files: list[SkeletonFile], error: MemberError, target: Path) -> bool:
    """`m.Start + m.Length` where the port-only placeholder `Length` is an object: it takes the other
    operand's type (CS0019); True if changed."""
    m = _OPERANDS.search(error.message)
    if m is None or (m["a"] == "object") == (m["b"] == "object") or " " in m["a"] + m["b"]:
        return False                     # one operand a placeholder's object, the other a type (no method group)
    return retype(files, error, m["b"] if m["a"] == "object" else m["a"], target)


def as_property(files: list[SkeletonFile], error: MemberError, target: Path) -> bool:
    """A parameterless skeleton method the port's line of `error` reads without calling it (`m.Start + 1`:
    CS0019/CS0428 on a method group; libphonenumber's PhoneNumberMatch.Start for Java's start()) becomes a
    get-only property, and so do the other parameterless readers of the type named as one of its fields
    (number(), rawString() beside the fields number, rawString: the port's accessor convention for the
    type); True if changed."""
    text = _port_line(target, error)
    for f in files:
        i = _reader(f, lambda name: re.search(r"\." + re.escape(name) + r"\b(?!\s*\()", text) is not None)
        if i is None:
            continue
        _to_property(f, i)
        fields = {d["name"] for _, ln, d in _declarations([f]) if not ln.text.rstrip().endswith(")")
                  and "{" not in ln.text}
        lowered = {n.lower() for n in fields}

        def reads_a_field(name: str, lowered: set[str] = lowered, fields: set[str] = fields) -> bool:
            return name.lower() in lowered and name not in fields

        while (j := _reader(f, reads_a_field)) is not None:     # the type's other field readers, alike
            _to_property(f, j)
        return True
    return False


def as_getter_property(f: SkeletonFile, member: str, error: MemberError, target: Path) -> bool:
    """The port's line of `error` reads `X.member` without calling it where the skeleton has the parameterless
    getter `GetMember()` (`IsMember()`, `HasMember()`: Pinyin4j's ChineseToPinyinResource.Instance for Java's
    static getInstance()): the getter becomes the get-only property `member`; True if changed."""
    if re.search(r"\." + re.escape(member) + r"\b(?!\s*[(<])", _port_line(target, error)) is None:
        return False
    names = {p + member.lower() for p in ("get", "is", "has")}
    i = _reader(f, lambda name: name.lower() in names)
    if i is None:
        return False
    _to_property(f, i, member)
    return True


def _reader(f: SkeletonFile, wanted) -> int | None:
    """The line of the first parameterless placeholder method of `f` whose name `wanted` accepts."""
    for i, ln in enumerate(f.lines[:-3]):
        head = re.fullmatch(r"(?P<indent>\s*)(?P<words>[\w<>\[\], .?]+?)\s+(?P<name>\w+)\(\)", ln.text)
        if head is None or not head["words"].strip() or head["words"].split()[-1] in _MODIFIERS \
                or head["words"].split()[-1] == "void" or f.lines[i + 1].text.strip() != "{" \
                or f.lines[i + 2].text.strip() != PLACEHOLDER or f.lines[i + 3].text.strip() != "}" \
                or not wanted(head["name"]):
            continue
        return i
    return None


def _to_property(f: SkeletonFile, i: int, name: str | None = None) -> None:
    """The parameterless placeholder method at line `i` as a get-only property (named `name` if given)."""
    head = re.fullmatch(r"(?P<indent>\s*)(?P<words>.+?)\s+(?P<name>\w+)\(\)", f.lines[i].text)
    f.lines[i:i + 4] = [Line(f"{head['indent']}{head['words']} {name or head['name']} {{ get {{ {PLACEHOLDER} }} }}",
                             f.lines[i].origin)]


_INHERITED = re.compile(r"(?:override|overriding `(?P<access>[\w ]+)') inherited member `(?P<type>[\w.]+)\."
                        r"(?P<name>\w+)(?:\.(?:get|set))?(?:\([^)]*\))?'")


def _base_member(files: list[SkeletonFile], error: MemberError) -> tuple[Line, re.Match] | None:
    """The skeleton's declaration of the inherited member an override's error names (line, _DECL match)."""
    m = _INHERITED.search(error.message)
    if m is None:
        return None
    owner = m["type"].rsplit(".", 1)[-1]
    for f in files:
        head = next((i for i, ln in enumerate(f.lines) if ln.kind == "type"
                     and re.search(r"\b(?:class|interface|struct)\s+" + re.escape(owner) + r"\b", ln.text)), None)
        if head is None:
            continue
        end = block_end(f.lines, head)
        for ln in f.lines[head + 1:end]:
            d = _DECL.match(ln.text) if ln.kind != "type" and not ln.text.lstrip().startswith("//") else None
            if d is not None and d["name"] == m["name"] and d["type"].split()[-1] not in _MODIFIERS:
                return ln, d
    return None


def virtual_base(files: list[SkeletonFile], error: MemberError) -> bool:
    """An override (the port's own, or a regenerated subclass's: HdrHistogram.NET's LinearIterator.hasNext())
    of a skeleton member that is not virtual (CS0506): the skeleton member becomes virtual, as Java's
    overridable method is; True if changed."""
    found = _base_member(files, error) if error.code == "CS0506" else None
    if found is None or re.search(r"\b(?:virtual|abstract|override|static|sealed)\s", found[0].text):
        return False
    ln, d = found
    ln.text = ln.text[:d.start("type")] + "virtual " + ln.text[d.start("type"):]
    return True


def override_access(files: list[SkeletonFile], error: MemberError, target: Path) -> bool:
    """The port's own override declares another access than the skeleton member it overrides (CS0507:
    HdrHistogram.NET's `protected override void incrementIterationLevel()` where Java's is package-private):
    the skeleton member takes the port's access, read from the port's line; True if changed."""
    found = _base_member(files, error) if error.code == "CS0507" and error.origin is None else None
    access = re.match(r"\s*(protected\s+internal|public|protected|internal|private)\b", _port_line(target, error))
    if found is None or access is None:
        return False
    ln, _ = found
    indent = re.match(r"\s*", ln.text).group(0)
    rest = ln.text[len(indent):]
    rest = _ACCESS_WORD.sub("", rest, count=1) if _ACCESS_WORD.match(rest) else rest
    text = f"{indent}{' '.join(access.group(1).split())} {rest}"
    changed, ln.text = text != ln.text, text
    return changed


_ACCESS_WORD = re.compile(r"(?:protected\s+internal|public|protected|internal|private)\s+")


def hoist(files: list[SkeletonFile], name: str) -> bool:
    """A nested type `name` (libphonenumber's NumberParseException.ErrorType, which the port declares beside
    the exception and names bare) moved out of its outer type to the namespace, after the outer type;
    True if moved."""
    for f in files:
        for i, ln in enumerate(f.lines):
            if ln.text.lstrip().startswith("//") or not TYPE_HEADER.search(ln.text) \
                    or not re.search(r"\b(?:class|struct|interface|enum)\s+" + re.escape(name) + r"\b", ln.text):
                continue
            depth = len(re.match(r"\s*", ln.text).group(0))
            if depth == 0:
                return False
            end = block_end(f.lines, i)
            block = [Line(b.text[depth:] if b.text[:depth].strip() == "" else b.text.lstrip(), b.origin, b.kind)
                     for b in f.lines[i:end + 1]]
            del f.lines[i:end + 1]
            top = max((j for j in range(i) if f.lines[j].kind == "type" and not f.lines[j].text[:1].isspace()),
                      default=None)
            after = block_end(f.lines, top) + 1 if top is not None else len(f.lines)
            f.lines[after:after] = block
            return True
    return False


def as_method(f: SkeletonFile, member: str) -> bool:
    """Turn the get-only placeholder property `X` into the method `member()` (`GetX`, `getX`, `IsX`)
    that the port's own code calls; True if changed."""
    for i, line in enumerate(f.lines[:-3]):
        head = re.fullmatch(r"(?P<indent>\s*)(?P<words>[\w<>\[\], .]+?)\s+(?P<name>\w+)", line.text)
        if head is None or line.kind == "type" or f.lines[i + 1].text.strip() != "{" \
                or member.lower() not in {p + head["name"].lower() for p in ("get", "is", "has", "")} \
                or not f.lines[i + 2].text.strip().startswith("get {") or "NotImplementedException" not in \
                f.lines[i + 2].text or f.lines[i + 3].text.strip() != "}":
            continue
        indent, origin = head["indent"], line.origin
        f.lines[i:i + 4] = [Line(f"{indent}{head['words']} {member}()", origin), Line(indent + "{", origin),
                            Line(f"{indent}    {PLACEHOLDER}", origin), Line(indent + "}", origin)]
        return True
    return False


def port_texts(target: Path, errors: list[MemberError]) -> str:
    """The text of the port's own files these errors point into."""
    return "\n".join((target / rel).read_text(encoding="utf-8", errors="replace")
                     for rel in sorted({e.file for e in errors}) if (target / rel).is_file())


def nested_enum(f: SkeletonFile, type_name: str, member: str, port_text: str) -> bool:
    """A Java enum written as a class (constants `.Named("C", i)`) whose port code names `Type.member.C`
    for its constants (a .NET enum of the constants nested in the class, as ZXing.Net's Mode.Names): add
    `public enum member { C0, C1, ... }` in ordinal order, and when the port switches on it (`case
    Type.member.C:`) the enum's name property returns it; True if changed."""
    used = set(re.findall(r"\b" + re.escape(type_name) + r"\." + re.escape(member) + r"\.(\w+)", port_text))
    constants = [m.group(1) for line in f.lines for m in [re.search(r'\.Named\("(\w+)", \d+\);$', line.text)] if m]
    if not used or not constants or not used <= set(constants) or \
            any(re.search(r"\b(class|struct|interface|enum)\s+" + re.escape(member) + r"\b", ln.text) for ln in f.lines):
        return False
    head = next((i for i, ln in enumerate(f.lines) if ln.kind == "type" and
                 re.search(r"\bclass\s+" + re.escape(type_name) + r"\b", ln.text)), None)
    if head is None or f.lines[head + 1].text.strip() != "{":
        return False
    indent = re.match(r"\s*", f.lines[head].text).group(0) + "    "
    f.lines.insert(head + 2, Line(f"{indent}public enum {member} {{ {', '.join(constants)} }}", f.lines[head].origin))
    if re.search(r"\bcase\s+" + re.escape(type_name) + r"\." + re.escape(member) + r"\.", port_text):
        for ln in f.lines:
            ln.text = re.sub(r"public string (\w+)( \{ get \{ | ?\(\) \{ )return enumName; \}",
                             lambda m: f"public {member} {m.group(1)}{m.group(2)}return ({member})enumOrdinal; }}",
                             ln.text)
    return True


def recase(f: SkeletonFile, member: str) -> bool:
    """A member declared with another casing of the name the port's code uses (isWhitespace/IsWhiteSpace)
    takes the port's casing; True if changed."""
    changed = False
    for line in f.lines:
        if line.kind == "type" or line.text.lstrip().startswith("//"):
            continue
        m = re.match(r"(\s*(?:\w+[\w<>\[\],.? ]*\s+)+)(\w+)(\s*(?:\(|$))", line.text)
        if m and m.group(2) != member and m.group(2).lower() == member.lower():
            line.text = m.group(1) + member + line.text[m.end(2):]
            changed = True
    return changed


TYPE_HEADER = re.compile(r"^\s*(?:(?:public|private|protected|internal|static|abstract|sealed|partial|new)\s+)*"
                          r"(?:class|struct|interface|enum)\s+\w")


def block_end(lines: list, header_end: int) -> int:
    """The index of the line closing the block that opens after `header_end` (itself when none opens)."""
    depth = 0
    for i in range(header_end + 1, len(lines)):
        text = lines[i].text.strip()
        if text.startswith("//"):
            continue
        depth += text.count("{") - text.count("}")
        if depth <= 0 and ("{" in text or "}" in text):
            return i
    return header_end
