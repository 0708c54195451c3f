"""The deleted-class benchmark's member comparison (scripts/bench_whole_types.py): the API of a C# type as
its callers depend on it (kind, name, arity, parameter types, static-ness, accessibility), the members a
regenerated class lacks or declares otherwise, classified, and why a member the hidden tests use is missing;
the hidden test methods that test members the port added (no Java counterpart), set apart on both sides."""
from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

from repotrans.index.store import Index
from repotrans.mapping.load import load_mapping

ACCESS = ("public", "protected", "internal", "private")
ALIASES = {"String": "string", "Object": "object", "Int32": "int", "Int64": "long", "Boolean": "bool",
           "Byte": "byte", "Char": "char", "Double": "double", "Single": "float", "Int16": "short"}


def _type_text(text: str) -> str:
    """A parameter type as the compiler sees it: no spaces, no namespace, keyword aliases."""
    text = re.sub(r"\s+", "", text or "")
    return re.sub(r"(?:\w+\.)*(\w+)", lambda m: ALIASES.get(m.group(1), m.group(1)), text)


def shape(modifiers: list[str], param_types: list[str]) -> tuple[tuple[str, ...], bool, str]:
    """What a caller depends on besides kind, name and arity: parameter types, static-ness, accessibility."""
    access = " ".join(m for m in modifiers if m in ACCESS) or "(default)"
    return tuple(_type_text(t) for t in param_types), "static" in modifiers or "const" in modifiers, access


def api(index: Index, type_id: str, prefix: str = "") -> dict[tuple, tuple[str, tuple]]:
    """The non-private API of a C# type and its nested types: (nested path, kind, name, arity, parameter
    types) -> (member id, shape)."""
    out = {}
    t = index.type(type_id)
    if t is None:
        return out
    for m in index.methods(type_id):
        if "private" not in m.modifiers and not (m.kind == "constructor" and "static" in m.modifiers):
            out[(prefix, m.kind, m.name, len(m.params), tuple(_type_text(x) for x in m.param_types))] = \
                (m.id, shape(m.modifiers, m.param_types))
    for f in index.fields(type_id):
        if "private" not in f.modifiers:
            out[(prefix, "field", f.name, 0, ())] = (f.id, shape(f.modifiers, []))
    for nested in index.nested_types(type_id):
        out.update(api(index, nested.id, f"{prefix}.{nested.name}" if prefix else nested.name))
    return out


def api_mismatches(original: Index, regenerated: Index, files: dict, dropped: list[str]) -> list[tuple[str, str, str]]:
    """Members of the port's deleted classes the regenerated API lacks or declares otherwise (parameter
    types, static-ness, accessibility): (class, member, why)."""
    mapping = load_mapping(original)
    out = []
    for java, (tid, _, _) in files.items():
        before, after = api(original, tid), api(regenerated, tid)
        if regenerated.type(tid) is None:
            cls = tid.split(":", 1)[1]
            out += [(cls, f"{cls}.{k[2]}", "class not regenerated")
                    for k in before]
            continue
        private_after = {(m.name.lower(), len(m.params)) for m in regenerated.methods(tid) if "private" in m.modifiers}
        simple_after = {(k[0], k[2].lower()): k for k in after}
        by_arity = {k[:4]: k for k in after}
        cls = tid.split(":", 1)[1].rsplit(".", 1)[-1]
        for key, (member_id, was) in sorted(before.items()):
            nested, kind, name, arity, _types = key
            label = f"{cls}{'.' + nested if nested else ''}.{name}" + ("" if kind in ("field", "property") else f"/{arity}")
            if key in after:
                now = after[key][1]
                if now[1] != was[1]:
                    out.append((cls, label, "static in one, instance in the other"))
                elif now[2] != was[2]:
                    out.append((cls, label, f"accessibility differs ({was[2]} in the port, {now[2]} regenerated)"))
                continue
            same = simple_after.get((nested, name.lower()))
            java_twin = mapping.source_method(member_id) if kind != "field" else None
            if key[:4] in by_arity:
                why = "parameter types differ"
            elif any(d.startswith(f"{cls}.") and name.lower() in d.lower().split(":")[0] for d in dropped):
                why = "left out of the skeleton (did not compile)"
            elif kind == "method" and re.match(r"(get|is)[A-Z]", name) and \
                    any(k[:3] == (nested, "property", re.sub(r"^(get|is)", "", name)) for k in after):
                why = "getter made a property where the port kept the method"
            elif kind == "indexer":
                why = "indexer in the port (Java get/set methods kept as methods)"
            elif same is not None and same[1] != kind:
                why = f"{kind} in the port, {same[1]} in the skeleton"
            elif same is not None and same[3] != arity:
                why = "other parameter count (overload the port added or merged)"
            elif same is not None:
                why = "casing differs"
            elif (name.lower(), arity) in private_after:
                why = "private in the skeleton (Java visibility), visible in the port"
            elif kind == "constructor":
                why = "constructor the port added or changed"
            elif kind == "field":
                why = "field the port exposes (Java keeps it private or has none)"
            elif java_twin is None:
                why = "port-specific member (no Java counterpart)"
            else:
                why = "named differently from the Java member"
            out.append((cls, label, why))
    return out


def classify(member: str, java_names: set[str], skeleton_text: str) -> str:
    """Why a member the hidden tests use is missing from the regenerated API."""
    low = {n.lower() for n in java_names}
    if re.search(r"\b" + re.escape(member) + r"\b", skeleton_text, re.I) and not re.search(r"\b" + re.escape(member) + r"\b", skeleton_text):
        return "casing differs from the port"
    if ("get" + member).lower() in low or ("is" + member).lower() in low:
        return "getter kept as a method where the port has a property" if ("get" + member) in skeleton_text or \
            ("is" + member) in skeleton_text else "property left out (did not compile)"
    if member.lower() in low:
        return "member left out of the skeleton (did not compile)"
    if member[:1].lower() + member[1:] in java_names or member.lower() in {n.lower() for n in java_names}:
        return "renamed member"
    return "port-specific API (no Java counterpart)"


def print_mismatches(mismatches: list[tuple[str, str, str]], total: int) -> None:
    print(f"\nAPI of the deleted classes: {total - len(mismatches)}/{total} non-private members regenerated "
          f"with the port's kind, name and arity ({100 * (total - len(mismatches)) / max(1, total):.0f}%)")
    kinds = Counter(why for _, _, why in mismatches)
    print("skeleton mismatches by class (most frequent first):")
    for why, count in kinds.most_common(10):
        examples = [label for _, label, w in mismatches if w == why][:4]
        print(f"  {count:3d}  {why}: {', '.join(examples)}")


TEST_ATTRIBUTE = re.compile(r"^[ \t]*\[(?:TestMethod|Test|TestCase|Fact|Theory)\b[^\n]*\n", re.M)


def port_only_members(original: Index, files: dict) -> dict[str, set[str]]:
    """C# class -> names of its methods and properties the port added: no member of that name is paired
    with a Java member by the mapping, and the Java class has no member of that name in any casing or with
    a get/is/set prefix (jsoup has no StringUtil.resolve; NSoup's StringUtil.Resolve; its IsWhiteSpace(char)
    is jsoup's isWhitespace(int) with another parameter type, not an addition)."""
    mapping = load_mapping(original)
    out: dict[str, set[str]] = {}
    for java, (tid, _, _) in files.items():
        jt = next((t for t in original.types("source") if t.qualified_name == java), None)
        java_names = {re.sub(r"^(get|is|set)(?=[A-Z])", "", n).lower() for n in
                      ([m.name for m in original.methods(jt.id)] + [f.name for f in original.fields(jt.id)] if jt else [])}
        members = [m for m in original.methods(tid) if m.kind in ("method", "property") and "private" not in m.modifiers]
        paired = {m.name for m in members if mapping.source_method(m.id) is not None}
        added = {m.name for m in members if re.sub(r"^(Get|Is|Set)(?=[A-Z])", "", m.name).lower() not in java_names
                 and m.name.lower() not in java_names} - paired
        if added:
            out[tid.split(":", 1)[1].rsplit(".", 1)[-1]] = added
    return out


def set_apart(text: str, port_only: dict[str, set[str]]) -> tuple[str, list[str]]:
    """The test file without its test methods that name a member the port added (`Class.Member`), and
    their names: no regeneration from Java can bring such a member back, so they are counted apart."""
    names = [(cls, name) for cls, members in port_only.items() for name in members]
    if not names:
        return text, []
    uses = re.compile("|".join(rf"\b{re.escape(c)}\.{re.escape(n)}\b" for c, n in names))
    removed, out, pos = [], [], 0
    for attr in TEST_ATTRIBUTE.finditer(text):
        if attr.start() < pos:
            continue
        end = _method_end(text, attr.end())
        header = re.search(r"\b(?:void|Task)\s+(\w+)\s*\(", text[attr.end():end or attr.end()])
        if end is None or header is None or not uses.search(text, attr.end(), end):
            continue
        start = attr.start()
        while (above := re.search(r"^[ \t]*\[[^\n]*\][ \t]*\n\Z", text[pos:start], re.M)) is not None:
            start = pos + above.start()          # the method's other attributes go with it
        out.append(text[pos:start])
        removed.append(header.group(1))
        pos = end
    return "".join(out) + text[pos:], removed


def _method_end(text: str, start: int) -> int | None:
    """The offset after the closing brace of the method declared from `start` (strings, chars and
    comments skipped), or None."""
    depth, i = 0, start
    skip = re.compile(r'@"(?:[^"]|"")*"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])+\'|//[^\n]*|/\*.*?\*/', re.S)
    while i < len(text):
        m = skip.match(text, i)
        if m:
            i = m.end()
            continue
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1 + (1 if text[i + 1:i + 2] == "\n" else 0)
        i += 1
    return None


def comparable_copy(target: Path, own: list[str], port_only: dict[str, set[str]], work: Path) -> Path:
    """The port itself, or, when the classes' own test files test members the port added (no Java counterpart,
    so no regeneration can bring them back), a copy without those test methods: the same tests judge the
    untouched port and the regenerated classes. The methods set apart are printed."""
    texts = {rel: set_apart((target / rel).read_text(encoding="utf-8-sig", errors="replace"), port_only)
             for rel in own}
    apart = {rel: names for rel, (_, names) in texts.items() if names}
    if not apart:
        return target
    members = ", ".join(f"{c}.{n}" for c, names in sorted(port_only.items()) for n in sorted(names))
    print(f"set apart: {sum(map(len, apart.values()))} test(s) of the classes' own files use members the port "
          f"added ({members}; no Java counterpart), judged on neither side:")
    for rel, names in apart.items():
        print(f"  {rel}: {', '.join(names)}")
    copy = work / target.name
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(target, copy, ignore=shutil.ignore_patterns("bin", "obj", ".repotrans", ".git"))
    strip_port_only(copy, own, port_only)
    return copy


def strip_port_only(port: Path, own: list[str], port_only: dict[str, set[str]]) -> None:
    """Take the test methods that use members the port added out of the classes' own test files in `port`."""
    for rel in own:
        text, names = set_apart((port / rel).read_text(encoding="utf-8-sig", errors="replace"), port_only)
        if names:
            (port / rel).write_text(text, encoding="utf-8")
