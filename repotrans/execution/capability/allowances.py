"""Allowances of the capability policy: what the Java original of a task reaches, computed from the
types it touches, never from the C# class's other members.

A Java method reaches a capability (file I/O, reflection, process control, the raw console) when its
own text uses it, or through a type it touches in the Java index:
  - its signature and body (parameters, locals, `new FileInputStream(...)`, `System.out`), their type
    names read through the file's imports (`Constructor<?> c` with `import java.lang.reflect.*`);
  - the declared types of the fields it names, of its class, the classes enclosing it and their
    superclasses found in the index (`lockFile.delete()` where `File lockFile` is a field);
  - the signatures of the methods and constructors it calls (parameter and return types) on those
    classes and on every project type it names or whose field it reads (`filter.accept(null, name)` where
    `accept(File dir, String name)` is declared in the index, `new NativeFSLock(lockDir, ...)`).
One hop only: a callee's body is not followed (it is judged when it is itself a task).

A file-system allowance carries the paths the Java original names: its string and char literals and those of
the fields it names (their initializers), each an entry `path:<hex>` (il_path.path_allowance); the checkers let
the translation open only paths built from those and the member's parameters (il_path, cecil_path.cs), and their
parents only when the Java original climbs too (`file_parent`: getParent, getParentFile, getRoot).

A Java API family the Java original's file uses (its imports or its text: org.w3c.dom, javax.xml.transform,
javax.xml.validation, javax.xml.xpath; for an abstract method, its implementations') allows the C# counterpart
family (checks.JAVA_FAMILIES, rules.tsv `family` and `grant`): the class translating it is built on it.

Beside the capabilities, the overrides of what the tests read of a value (equality, ordering, formatting,
enumeration: checks.DECLARES) are allowed when the Java original's class, a class nested in or enclosing it,
or the method's own text (an anonymous class) defines equals/hashCode, compareTo/compare, toString or iterator.

Every path that judges a candidate (a session's test runs, dataset validation, ablations, batch
re-judging and its combined check, run-tests, the false-rejection benchmark) gets its allowances from
`allowances`, through the Runner's `java` argument.
"""
from __future__ import annotations

import re

from repotrans.execution.capability.checks import GRANTS, JAVA_FAMILIES, PARENT, java_capabilities
from repotrans.execution.capability.il_path import path_allowance
from repotrans.index.model import Method, TypeDecl

IDENT = re.compile(r"\b[A-Za-z_$][\w$]*\b")
CALL = re.compile(r"(?<![\w$])([A-Za-z_$][\w$]*)\s*\(")
NEW = re.compile(r"\bnew\s+([A-Za-z_$][\w$.]*)")
# string and char literals and comments, scanned left to right in one pass (a "//" inside a string stays)
LITERAL = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*.*?\*/', re.S)
KEYWORDS = frozenset("if for while switch catch return new throw synchronized super this assert do try else "
                     "instanceof case".split())
# the capability types a wildcard import brings in by simple name (`import java.lang.reflect.*;`)
WILDCARD = {"java.lang.reflect": {"Method", "Field", "Constructor", "Array", "Proxy", "InvocationHandler",
                                  "AccessibleObject", "Executable", "Parameter"},
            "java.nio.file": {"Path", "Paths", "Files", "FileSystem", "FileSystems", "DirectoryStream"}}
# the Java methods that define what the tests read of a value, and their C# counterparts' class (checks.DECLARES)
JAVA_DECLARES = {"equals": "equality", "hashCode": "equality", "compareTo": "ordering", "compare": "ordering",
                 "toString": "formatting", "iterator": "enumeration"}
DECLARED = re.compile(r"\b(equals|hashCode|compareTo|compare|toString|iterator)\s*\([^()]*\)\s*(?:throws\s[\w\s,.]*)?\{")
CLIMBS = re.compile(r"\.get(?:Parent|ParentFile|Root)\s*\(")     # a Java path's parent or root
MAX_TYPES = 64          # project types followed per method and per supertype list (a bound on pathological code)


def allowances(index, java: Method | None) -> frozenset[str]:
    """The capabilities the candidate for `java`'s task may use (each recorded as reduced trust): those
    the Java original reaches through its own text and the types it touches in the index."""
    if java is None:
        return frozenset()
    granted = (java_capabilities(reached_text(index, java)) & frozenset(GRANTS)) | families(index, java)
    paths = frozenset()
    if "file_system" in granted:
        climbs = CLIMBS.search(_code(java.body or "")) is not None
        paths = frozenset(map(path_allowance, path_literals(index, java))) | ({PARENT} if climbs else set())
    return granted | paths | declares(index, java)


def families(index, java: Method) -> frozenset[str]:
    """The Java API families (checks.JAVA_FAMILIES: the DOM, XPath, XSLT, schemas) the Java original's file
    imports or its text names: its C# counterpart's class is built on the matching C# family. An abstract Java
    original uses what its implementations in the index use (the same name and arity in a subtype)."""
    methods = [java]
    t = index.type(java.type_id)
    if java.body is None and t is not None:
        methods += [m for s in index.subtypes(t)[:MAX_TYPES] for m in index.methods(s.id)
                    if m.name == java.name and len(m.params) == len(java.params) and m.body is not None]
    text = ""
    for m in methods:
        info = index.file("source", m.path)
        text += " ".join(imp.name for imp in info.imports) if info is not None else ""
        text += "\n" + _code(f"{m.signature}\n{m.body or ''}") + "\n"
    return frozenset(cap for cap, pattern in JAVA_FAMILIES.items() if pattern.search(text))


def path_literals(index, java: Method) -> frozenset[str]:
    """The string and char literals of the Java method's text and of the initializers of the fields it names
    (of its class, the classes enclosing it and their superclasses), their escapes read as Java reads them."""
    texts = [java.body or ""]
    words = set(IDENT.findall(_code(java.body or "")))
    for t in _lineage(index, java.type_id):
        texts += [f.initializer or "" for f in index.fields(t.id) if f.name in words]
    return frozenset(_unescape(m.group(0)[1:-1]) for text in texts for m in LITERAL.finditer(text)
                     if m.group(0)[0] in "\"'")


def _unescape(text: str) -> str:
    """A Java literal's value: \\uXXXX, octal and the single-letter escapes."""
    simple = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", "s": " "}
    return re.sub(r"\\u+([0-9a-fA-F]{4})|\\([0-3]?[0-7]{1,2})|\\(.)",
                  lambda m: chr(int(m.group(1), 16)) if m.group(1) else chr(int(m.group(2), 8)) if m.group(2)
                  else simple.get(m.group(3), m.group(3)), text)


def declares(index, java: Method) -> frozenset[str]:
    """The overrides (checks.DECLARES) the Java original's class defines: its methods, those of the classes
    enclosing it and nested in them, and those an anonymous class in the method's own text declares."""
    top = index.type(java.type_id)
    while top is not None and top.outer_id:
        top = index.type(top.outer_id)
    names: set[str] = set(DECLARED.findall(_code(java.body or "")))
    work, seen = ([top] if top is not None else []), 0
    while work and seen < MAX_TYPES:
        t, seen = work.pop(), seen + 1
        names.update(m.name for m in index.methods(t.id))
        work += index.nested_types(t.id)
    return frozenset(JAVA_DECLARES[n] for n in names if n in JAVA_DECLARES)


def reached_text(index, java: Method) -> str:
    """The Java method's signature and body, plus the declarations it reaches through the index: the
    fields it names (of its class, enclosing classes and superclasses) and the signatures of the methods
    and constructors it calls on those classes and on the project types it names."""
    code = _code(f"{java.signature}\n{java.body or ''}")
    words = set(IDENT.findall(code))
    raw_calls = set(CALL.findall(_code(java.body or "")))
    calls = raw_calls - KEYWORDS
    own = _lineage(index, java.type_id)
    created = {n.rsplit(".", 1)[-1] for n in NEW.findall(code)}
    if raw_calls & {"this", "super"} and own:        # this(...) / super(...): the chained constructors
        created |= {t.name for t in own}
    parts = [code, _qualified(index, java.path, words)]
    field_types: set[str] = set()
    for t in own:
        for f in index.fields(t.id):
            if f.name in words:
                parts.append(f"{f.type} {f.name};")
                parts.append(_qualified(index, t.path, set(IDENT.findall(f.type))))
                field_types.update(IDENT.findall(f.type))
    named = {w for w in words | field_types if w[:1].isupper()} - {t.name for t in own}
    touched = {t.id: t for t in own}
    for name in sorted(named):
        for t in index.find_types("source", name):
            if len(touched) >= MAX_TYPES:
                break
            touched.update((x.id, x) for x in _supertypes(index, t))
    for t in touched.values():
        for m in index.methods(t.id):
            if m.id != java.id and (m.name in calls or (m.kind == "constructor" and t.name in created)):
                parts.append(m.signature)
    return "\n".join(parts)


def _qualified(index, path: str, words: set[str]) -> str:
    """The imports of the Java file `path` that name one of `words` ("java.lang.reflect.Constructor" for
    `Constructor<?> c`); a wildcard import of a capability's package, the capability types it brings in."""
    info = index.file("source", path)
    out = []
    for imp in info.imports if info is not None else ():
        package = imp.name.removesuffix(".*")
        if imp.wildcard:
            out += [f"{package}.{w}" for w in sorted(words & WILDCARD.get(package, set()))]
        elif imp.name.rsplit(".", 1)[-1] in words:
            out.append(imp.name)
    return " ".join(out)


def _code(text: str) -> str:
    """`text` without comments and with empty string literals: a word there touches nothing."""
    return LITERAL.sub(lambda m: '""' if m.group(0)[0] in "\"'" else " ", text)


def _lineage(index, type_id: str) -> list[TypeDecl]:
    """The method's class, the classes enclosing it, and the superclasses of each found in the index."""
    out: dict[str, TypeDecl] = {}
    t = index.type(type_id)
    while t is not None:
        out.update((x.id, x) for x in _supertypes(index, t))
        t = index.type(t.outer_id) if t.outer_id else None
    return list(out.values())


def _supertypes(index, t: TypeDecl) -> list[TypeDecl]:
    """`t` and its superclasses and interfaces in the index, nearest first (Index.supertypes)."""
    return [t, *index.supertypes(t)][:MAX_TYPES]
