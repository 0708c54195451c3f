"""Compile a written skeleton with the rest of the port, before any body is translated.

Every library project the build plan chooses is compiled with mcs. An error inside a skeleton file
is reported against the Java declaration it came from; that member is then left out (commented, with
the reason) and the build tried again, so the skeleton that stays compiles. A type header that does
not compile loses its base list. Errors in the port's own files (code that uses the new types in a
way the skeleton does not offer) reshape the members they name (skeleton.port_uses), or are reported as
they are; a placeholder for a member only the port has gets a body where it is a pure function of members
Java has (skeleton.derived), and the report says why for those left. Only the projects the skeleton
concerns are built (build_libraries).
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
from repotrans.skeleton.derived import derive, why_not
from repotrans.skeleton.generate import SkeletonFile
from repotrans.skeleton.lines import PLACEHOLDER, Line
from repotrans.skeleton.port_uses import (CLASH, MISSING_MEMBER, TYPE_HEADER, UNKNOWN_NAME, WANTED, MemberError,
                                          as_extension, as_getter_property, as_method, as_property, block_end, hoist,
                                          nested_enum, override_access, port_member, port_texts, recase, retype,
                                          retype_operand, retype_to_subtype, retype_to_use, virtual_base)

MAX_ROUNDS = 6
BUILD_TIMEOUT = 600


@dataclass
class CheckReport:
    compiled: bool = False
    errors: list[MemberError] = field(default_factory=list)      # every error seen, first round first
    dropped: list[str] = field(default_factory=list)             # Java declarations left out
    port_errors: list[MemberError] = field(default_factory=list)  # errors left in the port's own files
    reshaped: list[str] = field(default_factory=list)            # members reshaped to the port's usage
    port_only: list[str] = field(default_factory=list)           # placeholders for the port's own members left
    set_aside: dict[str, str] = field(default_factory=dict)      # projects not built: project -> why
    rounds: int = 0

    def render(self) -> str:
        lines = [f"skeleton compiles with the port: {'yes' if self.compiled else 'no'} ({self.rounds} build(s))"]
        lines += [f"  left out {d}" for d in self.dropped]
        lines += [f"  reshaped {r}" for r in self.reshaped]
        lines += [f"  the port's own member {p}" for p in self.port_only]
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
        if build.ok or build.timed_out or not errors or any(d.file for d in errors):
            return LibraryBuild(build.ok, output, libs, set_aside)
        gone = {build.failed.path}
        for p in libs:
            if gone & set(p.project_refs):
                gone.add(p.path)
        if gone & own:                  # the changed files' own project cannot build here: a failure, not set aside
            return LibraryBuild(False, output, libs, set_aside)
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
            report.port_only = why_not(files)
            return report
        errors = member_errors(output, target, by_path)
        report.errors += [e for e in errors if e.origin]
        report.port_errors = [e for e in errors if not e.origin]
        fixed = False
        for e in report.port_errors:        # the port's own code says how it calls a member: as a method
            found = MISSING_MEMBER.search(e.message) if e.code in ("CS1061", "CS0117") else None
            f = next((f for f in files if found and found["type"].rsplit(".", 1)[-1] in f.text and
                      re.search(r"\b(class|struct|interface)\s+" + re.escape(found["type"].rsplit(".", 1)[-1]) + r"\b",
                                f.text)), None)
            if f is not None and as_method(f, found["member"]):
                report.reshaped.append(f"{found['type']}.{found['member']}: a getter property made the method "
                                       f"the port's {e.file}:{e.line} calls")
                fixed = True
            elif f is not None and as_getter_property(f, found["member"], e, target):
                report.reshaped.append(f"{found['type']}.{found['member']}: a getter made the property the port's "
                                       f"{e.file}:{e.line} reads")
                fixed = True
            elif f is not None and recase(f, found["member"]):
                report.reshaped.append(f"{found['type']}.{found['member']}: renamed to the casing the port's "
                                       f"{e.file}:{e.line} uses")
                fixed = True
            elif f is not None and nested_enum(f, found["type"].rsplit(".", 1)[-1], found["member"],
                                                port_texts(target, report.port_errors)):
                report.reshaped.append(f"{found['type']}.{found['member']}: the enum's constants as the nested enum "
                                       f"the port's {e.file}:{e.line} names")
                fixed = True
            elif f is None and found and e.code == "CS1061" and as_extension(files, found["type"], found["member"]):
                report.reshaped.append(f"{found['member']}: an extension method of {found['type']}, as the port's "
                                       f"{e.file}:{e.line} calls it")
                fixed = True
            elif f is not None and port_member(f, found["type"].rsplit(".", 1)[-1], found["member"], e, target):
                report.reshaped.append(f"{found['type']}.{found['member']}: a placeholder for the port's "
                                       f"{e.file}:{e.line} (no Java counterpart), typed by the port's uses")
                fixed = True
        for e in report.port_errors:        # such a placeholder takes the type a use of it converts it to
            wanted = WANTED.search(e.message) if e.code in ("CS1503", "CS0266", "CS0029") else None
            if wanted is not None and retype(files, e, wanted["type"], target):
                fixed = True
            elif e.code in ("CS1503", "CS0266", "CS0029") and retype_to_use(files, e, target):
                report.reshaped.append(f"{e.file}:{e.line}: a member's type as the port's use converts it "
                                       f"({e.message})")
                fixed = True
            elif e.code == "CS1061" and retype_to_subtype(files, e, target):
                report.reshaped.append(f"{e.file}:{e.line}: a member's type as the port's subtype that has what the "
                                       f"port calls on it ({e.message.split(' and ')[0]})")
                fixed = True
            elif e.code == "CS0019" and retype_operand(files, e, target):
                fixed = True
            elif "method group" in e.message and as_property(files, e, target):
                report.reshaped.append(f"{e.file}:{e.line}: a method the port reads as a property made one")
                fixed = True
        for e in errors:                    # an override, the port's or a regenerated one, shapes its base member
            if virtual_base(files, e):
                report.reshaped.append(f"{_base_name(e)}: virtual, as {e.origin or 'the port'}'s override at "
                                       f"{e.file}:{e.line} needs")
                fixed = True
            elif override_access(files, e, target):
                report.reshaped.append(f"{_base_name(e)}: the access of the port's override at {e.file}:{e.line}")
                fixed = True
        hoisted = set()
        for e in report.port_errors:        # a nested type the port names bare lives beside its outer type
            bare = UNKNOWN_NAME.search(e.message) if e.code in ("CS0103", "CS0246") else None
            if bare is not None and bare["name"] not in hoisted and hoist(files, bare["name"]):
                hoisted.add(bare["name"])
                report.reshaped.append(f"{bare['name']}: a nested type moved beside its outer type, as the port's "
                                       f"{e.file}:{e.line} names it")
                fixed = True
        fell_back: set[tuple[str, int]] = set()
        for e in sorted(errors, key=lambda e: (e.file, -e.line)):      # bottom up: earlier lines stay put
            f = by_path.get(e.file)
            clash = CLASH.search(e.message) if e.code == "CS0102" else None
            if clash is not None and (clash["name"] in hoisted or hoist(files, clash["name"])):
                if clash["name"] not in hoisted:   # C# has no member beside a nested type of its name: the type moves
                    hoisted.add(clash["name"])
                    report.reshaped.append(f"{clash['name']}: a nested type moved beside its outer type ({e.origin} "
                                           "has its name)")
                fixed = True
                continue
            if e.code == "CS0506" and any(r.startswith(_base_name(e) + ":") for r in report.reshaped) \
                    or (e.file, e.line) in fell_back:
                continue                    # its base member was made virtual above, or its base call changed
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
            elif f is not None and e.origin and e.code in ("CS1729", "CS1502", "CS1503") and _base_fallback(f, e):
                dropped = f.fallbacks[e.origin].dropped
                report.reshaped.append(f"{e.origin}: its base call through Java's this(...) delegation, as the "
                                       "port's base constructors take it"
                                       + (f" (not carried: {' '.join(dropped)})" if dropped else ""))
                fell_back.add((e.file, e.line))
                fixed = True
            elif f is not None and e.origin and _leave_out(f, e):
                report.dropped.append(f"{e.origin}: {e.code} {e.message}")
                fixed = True
        derived = derive(files)             # a typed placeholder of the port's own member: a pure function?
        report.reshaped += derived
        fixed = fixed or bool(derived)
        for f in files:
            (target / f.path).write_text(f.text, encoding="utf-8")
        if not fixed:
            report.port_only = why_not(files)
            return report
    report.port_only = why_not(files)
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


def _base_name(error: MemberError) -> str:
    """The inherited member an override's error names (`Type.member()`), or its message."""
    found = re.search(r"inherited member `([^']+)'", error.message)
    return found.group(1) if found else error.message


def _base_fallback(f: SkeletonFile, error: MemberError) -> bool:
    """The constructor's base call replaced by its fallback (skeleton.base_calls); True if changed."""
    i = error.line - 1 - len(f.header)
    alternative = f.fallbacks.get(error.origin or "")
    if alternative is None or not 0 <= i < len(f.lines) or " : base(" not in f.lines[i].text \
            or f.lines[i].text.endswith(alternative.init):
        return False                    # (taken in an earlier round and still failing: left out)
    f.lines[i].text = f.lines[i].text[:f.lines[i].text.index(" : base(")] + alternative.init
    return True


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
    if TYPE_HEADER.search(f.lines[start].text):
        end = block_end(f.lines, end)       # a nested type goes whole: its braces and members with it
    indent = re.match(r"\s*", f.lines[start].text).group(0)
    f.lines[start:end + 1] = [Line(f"{indent}// repotrans: left out {line.origin}: {error.code} {error.message}",
                                   line.origin)] + \
        [Line(indent + "// " + ln.text.strip(), ln.origin) for ln in f.lines[start:end + 1]]
    return True
