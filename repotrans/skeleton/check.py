"""Compile a written skeleton with the rest of the port, before any body is translated.

Every library project the build plan chooses is compiled with mcs. An error inside a skeleton file
is reported against the Java declaration it came from; that member is then left out (commented, with
the reason) and the build tried again, so the skeleton that stays compiles. A type header that does
not compile loses its base list. Errors in the port's own files (code that uses the new types in a
way the skeleton does not offer) are reported as they are.
"""
from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from repotrans.execution.toolchains import Limits
from repotrans.execution.toolchains.api import (BuildSettings, HostCompiler, Project, compile_projects, parse_mcs,
                                                plan_build)
from repotrans.execution.workspace.scratch import Workspace
from repotrans.skeleton.generate import SkeletonFile
from repotrans.skeleton.lines import PLACEHOLDER, Line

MAX_ROUNDS = 6
BUILD_TIMEOUT = 600


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


@dataclass
class CheckReport:
    compiled: bool = False
    errors: list[MemberError] = field(default_factory=list)      # every error seen, first round first
    dropped: list[str] = field(default_factory=list)             # Java declarations left out
    port_errors: list[MemberError] = field(default_factory=list)  # errors left in the port's own files
    reshaped: list[str] = field(default_factory=list)            # members reshaped to the port's usage
    set_aside: dict[str, str] = field(default_factory=dict)      # projects not built: project -> why
    rounds: int = 0

    def render(self) -> str:
        lines = [f"skeleton compiles with the port: {'yes' if self.compiled else 'no'} ({self.rounds} build(s))"]
        lines += [f"  left out {d}" for d in self.dropped]
        lines += [f"  reshaped {r}" for r in self.reshaped]
        lines += [f"  not built, not the skeleton's concern (fails here with no error in its sources): {name}: {why}"
                  for name, why in self.set_aside.items()]
        lines += [f"  error {e.render()}" for e in self.errors if e.origin]
        lines += [f"  port error {e.render()}" for e in self.port_errors[:20]]
        if len(self.port_errors) > 20:
            lines.append(f"  ... {len(self.port_errors) - 20} more port errors")
        return "\n".join(lines)


@dataclass
class LibraryBuild:
    """One build of the port's projects that `changed` files concern: whether it built, mcs's output, the
    projects built, and those set aside (project -> why): a project whose build fails with no error in a
    source file (a reference assembly this machine lacks) cannot build whatever the changed files hold."""
    ok: bool
    output: str
    projects: list[Project]
    set_aside: dict[str, str] = field(default_factory=dict)


def concerned(projects: list[Project], own: set[Path]) -> list[Project]:
    """The projects (in build order) a change to the projects `own` (project files) concerns: these,
    the projects they depend on (built first) and those that depend on them (their code calls what
    changed); a project that references none of them is not the change's concern."""
    by_path = {p.path: p for p in projects}
    dependents, grew = set(own) & set(by_path), True
    while grew:
        more = {p.path for p in projects if p.path not in dependents and dependents & set(p.project_refs)}
        dependents |= more
        grew = bool(more)
    needed, todo = set(dependents), list(dependents)
    while todo:
        for ref in by_path[todo.pop()].project_refs:
            if ref in by_path and ref not in needed:
                needed.add(ref)
                todo.append(ref)
    return [p for p in projects if p.path in needed]


def build_libraries(target: Path, settings: BuildSettings = BuildSettings(), tests: bool = False,
                    extra: dict[Path, list[Path]] | None = None, changed: list[Path] | None = None) -> LibraryBuild:
    """Compile the non-test projects of the build plan (made with the user's build `settings`) in order,
    and with `tests` its test projects too; `extra`: project file -> more source files compiled with it
    (a file not written into the port yet); `changed`: the files the build is for (only the projects
    they concern are built, with the projects `extra` names; None, or no project holds them: every
    project). Another project that fails with no error in a source file is set aside with its
    dependents, and the rest built again."""
    target = target.resolve()
    plan = plan_build(target, "mono", settings)
    libs = [p for p in plan.chosen if tests or not p.is_test]
    hosts, files = {k.resolve() for k in (extra or {})}, {f.resolve() for f in changed or []}
    own = {p.path for p in libs if p.path.resolve() in hosts or files & {s.resolve() for s in p.sources}}
    if changed is not None and own:
        libs = concerned(libs, own)
    set_aside: dict[str, str] = {}
    while True:
        with tempfile.TemporaryDirectory(prefix="repotrans-skeleton-") as tmp:
            ws = Workspace(Path(tmp), target, "skeleton")
            limits = Limits(timeout=0, memory_mb=0, build_timeout=BUILD_TIMEOUT)
            build = compile_projects(ws, HostCompiler(), limits, libs, libs, Path(tmp) / "out", extra=extra)
            output = "\n".join(build.outputs.values())
            errors = [d for d in parse_mcs(build.outputs.get(build.failed.name, ""), ws, None)
                      if d.severity == "error"] if build.failed is not None else []
        if build.ok or build.timed_out or not errors or any(d.file for d in errors) or build.failed.path in own:
            return LibraryBuild(build.ok, output, libs, set_aside)
        gone = {build.failed.path}
        for p in libs:
            if gone & set(p.project_refs):
                gone.add(p.path)
        for p in libs:
            if p.path in gone:
                set_aside[p.name] = (f"{errors[0].code} {errors[0].message}" if p is build.failed
                                     else f"depends on {build.failed.name}, set aside")
        libs = [p for p in libs if p.path not in gone]


def check_skeleton(target: Path, files: list[SkeletonFile], rounds: int = MAX_ROUNDS,
                   settings: BuildSettings = BuildSettings()) -> CheckReport:
    """Build the port with the skeleton files (already written at their paths) and leave out what
    does not compile; files on disk are rewritten when members are left out."""
    target = target.resolve()
    report = CheckReport()
    by_path = {f.path: f for f in files}
    for _ in range(rounds):
        report.rounds += 1
        build = build_libraries(target, settings, changed=[target / f.path for f in files])
        ok, output = build.ok, build.output
        report.set_aside = build.set_aside
        if ok:
            report.compiled = True
            report.port_errors = []
            return report
        errors = member_errors(output, target, by_path)
        report.errors += [e for e in errors if e.origin]
        report.port_errors = [e for e in errors if not e.origin]
        fixed = False
        for e in report.port_errors:        # the port's own code says how it calls a member: as a method
            found = _MISSING_MEMBER.search(e.message) if e.code in ("CS1061", "CS0117") else None
            f = next((f for f in files if found and found["type"].rsplit(".", 1)[-1] in f.text and
                      re.search(r"\b(class|struct|interface)\s+" + re.escape(found["type"].rsplit(".", 1)[-1]) + r"\b",
                                f.text)), None)
            if f is not None and _as_method(f, found["member"]):
                report.reshaped.append(f"{found['type']}.{found['member']}: a getter property made the method "
                                       f"the port's {e.file}:{e.line} calls")
                fixed = True
            elif f is not None and _recase(f, found["member"]):
                report.reshaped.append(f"{found['type']}.{found['member']}: renamed to the casing the port's "
                                       f"{e.file}:{e.line} uses")
                fixed = True
            elif f is not None and _nested_enum(f, found["type"].rsplit(".", 1)[-1], found["member"],
                                                _port_texts(target, report.port_errors)):
                report.reshaped.append(f"{found['type']}.{found['member']}: the enum's constants as the nested enum "
                                       f"the port's {e.file}:{e.line} names")
                fixed = True
            elif f is None and found and e.code == "CS1061" and _as_extension(files, found["type"], found["member"]):
                report.reshaped.append(f"{found['member']}: an extension method of {found['type']}, as the port's "
                                       f"{e.file}:{e.line} calls it")
                fixed = True
            elif f is not None and _port_member(f, found["type"].rsplit(".", 1)[-1], found["member"], e, target):
                report.reshaped.append(f"{found['type']}.{found['member']}: a placeholder for the port's "
                                       f"{e.file}:{e.line} (no Java counterpart), typed by the port's uses")
                fixed = True
        for e in report.port_errors:        # such a placeholder takes the type a use of it converts it to
            wanted = _WANTED.search(e.message) if e.code in ("CS1503", "CS0266", "CS0029") else None
            if wanted is not None and _retype(files, e, wanted["type"], target):
                fixed = True
            elif e.code in ("CS1503", "CS0266", "CS0029") and _retype_to_use(files, e, target):
                report.reshaped.append(f"{e.file}:{e.line}: a member's type as the port's use converts it ({e.message})")
                fixed = True
            elif e.code == "CS1061" and _retype_to_subtype(files, e, target):
                report.reshaped.append(f"{e.file}:{e.line}: a member's type as the port's subtype that has what the "
                                       f"port calls on it ({e.message.split(' and ')[0]})")
                fixed = True
            elif e.code == "CS0019" and _retype_operand(files, e, target):
                fixed = True
            elif "method group" in e.message and _as_property(files, e, target):
                report.reshaped.append(f"{e.file}:{e.line}: a method the port reads as a property made one")
                fixed = True
        hoisted = set()
        for e in report.port_errors:        # a nested type the port names bare lives beside its outer type
            bare = _UNKNOWN_NAME.search(e.message) if e.code in ("CS0103", "CS0246") else None
            if bare is not None and bare["name"] not in hoisted and _hoist(files, bare["name"]):
                hoisted.add(bare["name"])
                report.reshaped.append(f"{bare['name']}: a nested type moved beside its outer type, as the port's "
                                       f"{e.file}:{e.line} names it")
                fixed = True
        for e in sorted(errors, key=lambda e: (e.file, -e.line)):      # bottom up: earlier lines stay put
            f = by_path.get(e.file)
            clash = _CLASH.search(e.message) if e.code == "CS0102" else None
            if clash is not None and (clash["name"] in hoisted or _hoist(files, clash["name"])):
                if clash["name"] not in hoisted:   # C# has no member beside a nested type of its name: the type moves
                    hoisted.add(clash["name"])
                    report.reshaped.append(f"{clash['name']}: a nested type moved beside its outer type ({e.origin} "
                                           "has its name)")
                fixed = True
                continue
            if f is not None and e.origin and e.code in ("CS0115", "CS0506") and _as_new(f, e):
                report.reshaped.append(f"{e.origin}: no 'override' ({e.code}: the port's base member is not "
                                       "virtual or absent)")
                fixed = True
            elif f is not None and e.origin and e.code == "CS0507" and _base_access(f, e):
                report.reshaped.append(f"{e.origin}: the access of the port's base member (CS0507)")
                fixed = True
            elif f is not None and e.origin and e.code == "CS0534" and _add_abstract(f, e, target, set(by_path)):
                report.reshaped.append(f"{e.origin}: added the override the port's base declares abstract "
                                       f"({e.message.rsplit(' ', 1)[-1]})")
                fixed = True
            elif f is not None and e.origin and _leave_out(f, e):
                report.dropped.append(f"{e.origin}: {e.code} {e.message}")
                fixed = True
        for f in files:
            (target / f.path).write_text(f.text, encoding="utf-8")
        if not fixed:
            return report
    return report


def member_errors(output: str, target: Path, by_path: dict[str, SkeletonFile]) -> list[MemberError]:
    """mcs's errors in `output`, each with the Java origin of the line it points at (when `by_path` knows the file)."""
    ws = Workspace(target.parent, target, "")
    out = []
    for d in parse_mcs(output, ws, None):
        if d.severity != "error":
            continue
        rel = d.file
        path = Path(rel)
        if path.is_absolute():
            try:
                rel = path.resolve().relative_to(target).as_posix()
            except ValueError:
                rel = d.file
        elif rel.startswith(target.name + "/"):
            rel = rel[len(target.name) + 1:]
        f = by_path.get(rel)
        out.append(MemberError(rel, d.line, d.code, d.message, f.origin_at(d.line) if f else None))
    return out


_MISSING_MEMBER = re.compile(r"`(?P<type>[\w.]+)' does not contain a definition for `(?P<member>\w+)'")
_WANTED = re.compile(r"(?:cannot convert `object' expression to type|convert type `object' to) `(?P<type>[^']+)'")
PORT_ONLY = "(the port's, no Java counterpart)"


_ALIASES = {"String": "string", "Object": "object", "Int32": "int", "Int64": "long", "Boolean": "bool",
            "Char": "char", "Double": "double"}


def _as_extension(files: list[SkeletonFile], receiver: str, member: str) -> bool:
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


def _port_member(f: SkeletonFile, type_name: str, member: str, error: MemberError, target: Path) -> bool:
    """A member the port's own code uses that no Java member gives (NSoup's DataUtil.DefaultEncoding, jsoup's
    defaultCharset retyped): a placeholder of type object, static where the port reaches it on the type, a
    method where it calls it (`_retype` then gives it the type a use converts it to); True if added."""
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


def _retype(files: list[SkeletonFile], error: MemberError, cs_type: str, target: Path) -> bool:
    """The one placeholder of `_port_member` the port's line of `error` uses, typed `cs_type`; True if changed."""
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
_UNKNOWN_NAME = re.compile(r"The (?:type or namespace )?name `(?P<name>\w+)' (?:does not exist|could not be found)")
_CLASH = re.compile(r"already contains a definition for `(?P<name>\w+)'")
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


def _retype_to_use(files: list[SkeletonFile], error: MemberError, target: Path) -> bool:
    """The one skeleton member the port's line of `error` uses whose declared type is the one the compiler
    could not convert takes the type that use wants (libphonenumber's RegexCache returns the port's
    PhoneRegex where Java returns Pattern; its Map<Integer, List<String>> is the port's Dictionary<int,
    List<string>>); True if changed."""
    m = _CONVERT.search(error.message)
    if m is None:
        return False
    have, want = m["have"] or m["have2"], m["want"] or m["want2"]
    if _bare(have) in ("object", "Object"):
        return False                     # a port-only placeholder's: _retype
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


def _retype_to_subtype(files: list[SkeletonFile], error: MemberError, target: Path) -> bool:
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
    f, ln, d = hits[0]
    ln.text = ln.text[:d.start("type")] + subtypes.pop() + ln.text[d.end("type"):]
    return True


def _retype_operand(files: list[SkeletonFile], error: MemberError, target: Path) -> bool:
    """`m.Start + m.Length` where the port-only placeholder `Length` is an object: it takes the other
    operand's type (CS0019); True if changed."""
    m = _OPERANDS.search(error.message)
    if m is None or (m["a"] == "object") == (m["b"] == "object") or " " in m["a"] + m["b"]:
        return False                     # one operand a placeholder's object, the other a type (no method group)
    return _retype(files, error, m["b"] if m["a"] == "object" else m["a"], target)


def _as_property(files: list[SkeletonFile], error: MemberError, target: Path) -> bool:
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
        while (j := _reader(f, lambda name: name.lower() in lowered and name not in fields)) is not None:    # the type's other field readers
            _to_property(f, j)                                                          # (start(), number()) alike
        return True
    return False


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


def _to_property(f: SkeletonFile, i: int) -> None:
    head = re.fullmatch(r"(?P<indent>\s*)(?P<words>.+?)\s+(?P<name>\w+)\(\)", f.lines[i].text)
    f.lines[i:i + 4] = [Line(f"{head['indent']}{head['words']} {head['name']} {{ get {{ {PLACEHOLDER} }} }}",
                             f.lines[i].origin)]


def _hoist(files: list[SkeletonFile], name: str) -> bool:
    """A nested type `name` (libphonenumber's NumberParseException.ErrorType, which the port declares beside
    the exception and names bare) moved out of its outer type to the namespace, after the outer type;
    True if moved."""
    for f in files:
        for i, ln in enumerate(f.lines):
            if ln.text.lstrip().startswith("//") or not _TYPE_HEADER.search(ln.text) \
                    or not re.search(r"\b(?:class|struct|interface|enum)\s+" + re.escape(name) + r"\b", ln.text):
                continue
            depth = len(re.match(r"\s*", ln.text).group(0))
            if depth == 0:
                return False
            end = _block_end(f.lines, i)
            block = [Line(b.text[depth:] if b.text[:depth].strip() == "" else b.text.lstrip(), b.origin, b.kind)
                     for b in f.lines[i:end + 1]]
            del f.lines[i:end + 1]
            top = max((j for j in range(i) if f.lines[j].kind == "type" and not f.lines[j].text[:1].isspace()),
                      default=None)
            after = _block_end(f.lines, top) + 1 if top is not None else len(f.lines)
            f.lines[after:after] = block
            return True
    return False


def _as_method(f: SkeletonFile, member: str) -> bool:
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


def _port_texts(target: Path, errors: list[MemberError]) -> str:
    """The text of the port's own files these errors point into."""
    return "\n".join((target / rel).read_text(encoding="utf-8", errors="replace")
                     for rel in sorted({e.file for e in errors}) if (target / rel).is_file())


def _nested_enum(f: SkeletonFile, type_name: str, member: str, port_text: str) -> bool:
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


def _recase(f: SkeletonFile, member: str) -> bool:
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


def _as_new(f: SkeletonFile, error: MemberError) -> bool:
    """A member marked override whose port base member is not virtual hides it (`new`, CS0506); one whose
    base has no such member (CS0115) is a plain member; True if changed."""
    i = error.line - 1 - len(f.header)
    if not 0 <= i < len(f.lines) or not re.search(r"\boverride\s", f.lines[i].text):
        return False
    f.lines[i].text = re.sub(r"\boverride\s", "new " if error.code == "CS0506" else "", f.lines[i].text, count=1)
    return True


_INHERITED_ACCESS = re.compile(r"when overriding `(?P<access>protected internal|protected|internal|public|private)' "
                               r"inherited member")
_ACCESS = re.compile(r"\b(?:protected\s+internal|public|protected|internal|private)\s+")


def _base_access(f: SkeletonFile, error: MemberError) -> bool:
    """An override whose access differs from the port's base member's (CS0507: Java's package-private
    `void incrementIterationLevel()` where HdrHistogram.NET's base declares it protected) takes the base's."""
    i = error.line - 1 - len(f.header)
    found = _INHERITED_ACCESS.search(error.message)
    if found is None or not 0 <= i < len(f.lines) or not re.search(r"\boverride\s", f.lines[i].text):
        return False
    text = f.lines[i].text
    indent = re.match(r"\s*", text).group(0)
    rest = _ACCESS.sub("", text[len(indent):], count=1) if _ACCESS.match(text[len(indent):]) else text[len(indent):]
    f.lines[i].text = f"{indent}{found['access']} {rest}"
    return f.lines[i].text != text


_ABSTRACT = re.compile(r"`(?P<base>[\w.]+)\.(?P<name>\w+)(?:\.(?P<acc>get|set)|\((?P<params>[^)]*)\))'$")


def _add_abstract(f: SkeletonFile, error: MemberError, target: Path, generated: set[str]) -> bool:
    """CS0534 on a type header: the placeholder override of the abstract member as the port's base class
    declares it (read from the base's own file), so the type keeps its base; True if added."""
    found = _ABSTRACT.search(error.message)
    i = error.line - 1 - len(f.header)
    if found is None or not 0 <= i < len(f.lines) or f.lines[i].kind != "type" or i + 1 >= len(f.lines):
        return False
    base, name = found["base"].rsplit(".", 1)[-1], found["name"]
    decl = re.compile(r"^[ \t]*(?P<mods>(?:\w+\s+)*?)abstract\s+(?P<ret>[\w<>\[\],.? ]+?)\s+" + re.escape(name) +
                      r"\s*(?:\((?P<params>[^)]*)\)\s*;|\{(?P<acc>[^}]*)\})", re.M)
    for path in sorted(target.rglob("*.cs")):
        rel = path.relative_to(target).as_posix()
        if rel in generated or "/obj/" in f"/{rel}" or "/bin/" in f"/{rel}":
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if not re.search(r"\b(class|interface)\s+" + re.escape(base) + r"\b", text):
            continue
        m = next((m for m in decl.finditer(text) if (m["params"] is None) == (found["params"] is None)), None)
        if m is None:
            continue
        access = " ".join(w for w in m["mods"].split() if w in ("public", "protected", "internal")) or "public"
        indent = re.match(r"\s*", f.lines[i].text).group(0) + "    "
        head = f"{indent}{access} override {m['ret']} {name}"
        origin = f.lines[i].origin
        if m["params"] is not None:
            body = [Line(f"{head}({' '.join(m['params'].split())})", origin), Line(indent + "{", origin),
                    Line(f"{indent}    {PLACEHOLDER}", origin), Line(indent + "}", origin)]
        else:
            accessors = [a for a in ("get", "set") if re.search(r"\b" + a + r"\b", m["acc"])]
            body = [Line(head, origin), Line(indent + "{", origin)] + \
                [Line(f"{indent}    {a} {{ {PLACEHOLDER} }}", origin) for a in accessors] + [Line(indent + "}", origin)]
        f.lines[i + 2:i + 2] = body
        return True
    return False


_TYPE_HEADER = re.compile(r"^\s*(?:(?:public|private|protected|internal|static|abstract|sealed|partial|new)\s+)*"
                          r"(?:class|struct|interface|enum)\s+\w")


def _block_end(lines: list, header_end: int) -> int:
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


def _leave_out(f: SkeletonFile, error: MemberError) -> bool:
    """Comment out the member whose line failed (or strip a type header's bases); True if changed."""
    i = error.line - 1 - len(f.header)
    if not 0 <= i < len(f.lines):
        return False
    line = f.lines[i]
    if line.kind == "type":
        if " : " not in line.text:
            return False
        head, _, rest = line.text.partition(" : ")
        where = re.search(r"\swhere\s", rest)
        line.text = head + (rest[where.start():] if where else "")
        return True
    if line.text.lstrip().startswith("//"):
        return False
    start = i
    while start > 0 and f.lines[start - 1].origin == line.origin and f.lines[start - 1].kind != "type" \
            and not f.lines[start - 1].text.lstrip().startswith("//"):
        start -= 1
    end = i
    while end + 1 < len(f.lines) and f.lines[end + 1].origin == line.origin and f.lines[end + 1].kind != "type":
        end += 1
    if _TYPE_HEADER.search(f.lines[start].text):
        end = _block_end(f.lines, end)       # a nested type goes whole: its braces and members with it
    indent = re.match(r"\s*", f.lines[start].text).group(0)
    f.lines[start:end + 1] = [Line(f"{indent}// repotrans: left out {line.origin}: {error.code} {error.message}",
                                   line.origin)] + \
        [Line(indent + "// " + ln.text.strip(), ln.origin) for ln in f.lines[start:end + 1]]
    return True
