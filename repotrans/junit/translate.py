"""A JUnit 3/4/5 test class -> an NUnit fixture in the port's test style (deterministic, offline).

Bodies go through the builtin policy's translator with a resolver that knows the port's API (the
five tools' descriptions of every project type the test names, and the mapping's renames), so
`dog.getName()` becomes `dog.Name` where the port has a property. Assertions, lifecycle annotations,
expected exceptions and parameterised tests follow data/junit_nunit.toml. Every translated fixture
carries `[Category("repotrans-translated")]` and a header naming its Java origin: a verdict from these
tests is a verdict from translated tests, never from the port's own.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import tree_sitter_java
from tree_sitter import Language, Node, Parser

from repotrans.index.lookup import split_top
from repotrans.mapping.api_cache import load_api_map
from repotrans.translator.java2cs import MethodTranslator, qualify
from repotrans.translator.resolver import DEFAULT_USINGS, ContextResolver, TargetType, renamed_members
from repotrans.skeleton.conventions import Conventions
from repotrans.skeleton.render import TypeContext, TypeRenderer
from repotrans.junit.test_style import TestStyle
from repotrans.tools.class_info import find_target_class_info
from repotrans.tools.context import ToolContext

if TYPE_CHECKING:
    from repotrans.index.store import Index
    from repotrans.mapping.mapping import Mapping

JAVA = Language(tree_sitter_java.language())
CATEGORY = "RepotransTranslated"    # NUnit category names take no "-"
INDENT = "    "


@lru_cache(maxsize=1)
def junit_table() -> dict:
    with resources.files("repotrans.junit").joinpath("data/junit_nunit.toml").open("rb") as handle:
        return tomllib.load(handle)


@dataclass
class TranslatedTest:
    java_path: str
    path: str                       # target-relative C# file
    namespace: str
    fixture: str                    # C# class name
    text: str
    tests: int
    under_test: str | None          # Java qualified name of the class it tests
    notes: list[str] = field(default_factory=list)


class TestResolver(ContextResolver):
    """The port's API for test code, JUnit assertions as NUnit ones, the fixture's own helpers."""

    def __init__(self, current: str, types, helpers: dict[str, str], usings=DEFAULT_USINGS):
        super().__init__(current, types, usings)
        self.helpers = helpers
        table = junit_table()
        self.asserts = table["asserts"]
        self.assert_classes = set(table["assert_classes"]["names"])

    def method_name(self, owner: str | None, name: str, argc: int) -> str:
        if owner in (None, self.current) or owner in self.assert_classes:
            if name in self.asserts:
                return self.asserts[name] if owner in (None, self.current) else self.asserts[name].split(".", 1)[1]
            if owner in (None, self.current) and name in self.helpers:
                return self.helpers[name]
        return super().method_name(owner, name, argc)

    def type_name(self, java_type: str) -> str:
        if java_type in self.assert_classes:
            return "Assert"
        return super().type_name(java_type)


def translate_junit(java_file: Path, java_rel: str, index: "Index", mapping: "Mapping", style: TestStyle,
                    conv: Conventions, root: Path) -> TranslatedTest:
    """The NUnit fixture for one JUnit test file (nothing written)."""
    tree = Parser(JAVA).parse(java_file.read_bytes())
    cls = next((n for n in tree.root_node.named_children if n.type == "class_declaration"), None)
    if cls is None:
        raise ValueError(f"{java_rel}: no test class")
    java_name = _text(cls.child_by_field_name("name"))
    package = next((_text(n.named_children[0]) for n in tree.root_node.named_children
                    if n.type == "package_declaration"), "")
    under_test = _class_under_test(index, package, java_name)
    cs_type = index.type(mapping.target_type(under_test.id).target_id) if under_test and mapping.target_type(under_test.id) else None
    namespace = style.namespace(cs_type.container if cs_type else mapping.namespace_map.get(package, package))
    junit3 = "TestCase" in _text(cls.child_by_field_name("superclass"))
    methods = [m for m in cls.child_by_field_name("body").named_children if m.type == "method_declaration"]
    helpers = {}
    for m in methods:
        name = _text(m.child_by_field_name("name"))
        helpers[name] = name if style.lower_case_methods else name[:1].upper() + name[1:]
    resolver = TestResolver(java_name, _port_types(index, mapping, tree.root_node), helpers)
    resolver.renames = renamed_members(mapping.method_matches)
    resolver.api = load_api_map(index, mapping)      # how the port's code writes calls the mapping does not pair
    resolver.types[java_name] = _own_fields(cls, resolver)
    notes: list[str] = []
    ctx = TypeContext(conv, resolver, {}, set(), notes)
    renderer = TypeRenderer(ctx, java_name)
    renderer.sealed.append(True)
    members: list[str] = []
    tests = 0
    fixture = style.fixture_name(java_name)
    for d in cls.child_by_field_name("body").named_children:
        if d.type == "field_declaration":
            members += [line.text.strip() for line in renderer._field(d, "class", java_name, False)]
        elif d.type == "static_initializer":      # the fixture's static fields set up once: its static constructor
            lines = [line.text[len(INDENT):] if line.text.startswith(INDENT) else line.text
                     for line in renderer._static_init(d, fixture, java_name)]
            members += [""] + lines if members else lines
        elif d.type == "method_declaration":
            lines, is_test = _method(d, resolver, style, junit3, helpers, notes)
            members += [""] + lines if members else lines
            tests += is_test
        elif d.type == "class_declaration":
            lines = _helper_class(d, resolver, renderer, notes)
            members += [""] + lines if members else lines
        elif d.type == "constructor_declaration" and _per_test_constructor(d, methods, junit3):
            lines = _constructor_as_setup(d, resolver)
            members += [""] + lines if members else lines
        elif d.type not in ("line_comment", "block_comment", "comment"):
            notes.append(f"{java_name}: {d.type} not translated")
    body = _post_process("\n".join(members))
    usings = sorted({"System", "NUnit.Framework", "System.Collections.Generic"} |
                    {t.container for t in _used_target_types(index, mapping, tree.root_node)} - {namespace, ""})
    head = [f"// Translated by repotrans from JUnit {java_rel}: verdicts from this fixture are labelled",
            "// 'translated tests', never counted as the port's own tests.",
            *[f"using {u};" for u in usings], "", f"namespace {namespace}", "{",
            f"{INDENT}[TestFixture]", f'{INDENT}[Category("{CATEGORY}")]',
            f"{INDENT}{_fixture_access(index, cls)}class {fixture}{_port_base(index, cls)}",
            f"{INDENT}{{"]
    text = "\n".join(head + [(INDENT * 2 + line) if line.strip() else "" for line in body.split("\n")]
                     + [f"{INDENT}}}", "}", ""])
    library = next((p for p in style.libraries if cs_type and (root / cs_type.path).resolve() in p.sources), None)
    folder = style.folder(cs_type.path if cs_type else "", library, root)
    return TranslatedTest(java_rel, f"{folder}/{fixture}.cs", namespace, fixture, text, tests,
                          under_test.qualified_name if under_test else None, notes)


def _method(node: Node, resolver: TestResolver, style: TestStyle, junit3: bool, helpers: dict[str, str],
            notes: list[str]) -> tuple[list[str], bool]:
    table = junit_table()["annotations"]
    name = _text(node.child_by_field_name("name"))
    annotations = _annotations(node)
    attrs: list[str] = []
    expected = None
    for ann, args in annotations:
        mapped = table.get(ann)
        if mapped is None:
            continue
        if isinstance(mapped, list):
            mapped = mapped[0] if style.nunit_major < 3 else mapped[1]
        if ann == "Test" and args:
            m = re.search(r"expected\s*=\s*([\w.]+)\.class", args)
            expected = m.group(1) if m else None
        attrs.append(f'[{mapped}("{_reason(args)}")]' if mapped == "Ignore" else f"[{mapped}]")
        if ann == "ParameterizedTest":
            attrs.pop()
    cases = _test_cases(annotations)
    attrs += [f"[TestCase({c})]" for c in cases]
    if junit3 and not attrs:
        params = _text(node.child_by_field_name("parameters")).strip("() ")
        if name.startswith("test") and not params:
            attrs.append("[Test]")
        elif name in ("setUp", "tearDown"):
            attrs.append("[SetUp]" if name == "setUp" else "[TearDown]")
    is_test = any(a.startswith(("[Test]", "[TestCase(")) for a in attrs)
    tr = MethodTranslator(resolver, b"")
    header = tr.header(node, None)
    params = header[header.index("("):]
    static = "static " if "static" in _modifiers(node) and not is_test else ""
    access = "public" if attrs else "private"
    returns = tr.cs_type(_text(node.child_by_field_name("type")))
    tr.static_context = bool(static)
    body_node = node.child_by_field_name("body")
    lines = tr.block(body_node) if body_node is not None else ["{", "}"]
    lines = [line for line in lines if not re.search(r"\bbase\.(setUp|tearDown|SetUp|TearDown)\(\)", line)]
    if expected:
        if style.expected_exception_attribute:
            attrs.append(f"[ExpectedException(typeof({resolver.type_name(expected)}))]")
        else:
            inner = "\n".join(lines)
            lines = ["{", f"{INDENT}Assert.Catch<{resolver.type_name(expected)}>(() =>",
                     *[INDENT + part for part in inner.split("\n")], f"{INDENT});", "}"]
    text = qualify("\n".join(lines), resolver.usings())
    return attrs + [f"{access} {static}{returns} {helpers[name]}{params}", *text.split("\n")], is_test


def _port_base(index: "Index", cls: Node) -> str:
    """` : Base` when the JUnit class extends a class of its own project that the port also has (libphonenumber's
    tests extend TestMetadataTestCase, whose port twin sets up the phoneUtil they use); JUnit's TestCase and a
    base the port lacks give nothing."""
    sup = cls.child_by_field_name("superclass")
    name = _text(sup.named_children[0]).split("<")[0].rsplit(".", 1)[-1] if sup is not None else ""
    if not name or name == "TestCase":
        return ""
    port = {t.name for t in index.types("target") if t.outer_id is None and t.kind == "class"}
    return f" : {name}" if name in port else ""


def _fixture_access(index: "Index", cls: Node) -> str:
    """`public ` unless the fixture derives from a port class that is not public (libphonenumber's
    TestMetadataTestCase is internal: a public subclass is CS0060; the port's own fixtures are internal too)."""
    base = _port_base(index, cls)[3:]
    t = next((t for t in index.types("target") if base and t.name == base and t.outer_id is None), None)
    return "" if t is not None and "public" not in t.modifiers else "public "


def _helper_class(node: Node, resolver: TestResolver, renderer: TypeRenderer, notes: list[str]) -> list[str]:
    """A class the JUnit class declares for its cases (libphonenumber's NumberTest: a raw string and a region),
    nested in the fixture with its fields, constructors and methods translated. Its members are internal at
    least: Java's outer class reads a nested class's private fields, C#'s cannot."""
    name = _text(node.child_by_field_name("name"))
    out = [f"private class {name}", "{"]
    for d in node.child_by_field_name("body").named_children:
        if d.type == "field_declaration":
            out += [INDENT + re.sub(r"^private\b", "internal", line.text.strip())
                    for line in renderer._field(d, "class", name, False)]
        elif d.type in ("constructor_declaration", "method_declaration"):
            tr = MethodTranslator(resolver, b"")
            header = tr.header(d, None)
            params = header[header.index("("):]
            java = _text(d.child_by_field_name("name"))
            if d.type == "constructor_declaration":
                head = f"internal {name}{params}"
            elif java == "toString" and params == "()":
                head = "public override string ToString()"
            else:
                static = "static " if "static" in _modifiers(d) else ""
                head = f"internal {static}{tr.cs_type(_text(d.child_by_field_name('type')))} " \
                       f"{java[:1].upper() + java[1:]}{params}"
            body = qualify("\n".join(tr.block(d.child_by_field_name("body"))), resolver.usings())
            out += [""] * (out[-1] != "{") + [INDENT + line if line else line for line in [head, *body.split("\n")]]
        elif d.type not in ("line_comment", "block_comment", "comment"):
            notes.append(f"{name}: {d.type} not translated")
    return out + ["}"]


def _per_test_constructor(node: Node, methods: list[Node], junit3: bool) -> bool:
    """A parameterless constructor of a test class whose tests have no set-up method of their own: JUnit makes
    a new instance for every test, so its body runs before each (NUnit keeps one instance for the fixture)."""
    if _text(node.child_by_field_name("parameters")).strip("() "):
        return False
    for m in methods:
        name = _text(m.child_by_field_name("name"))
        if any(ann in ("Before", "BeforeEach") for ann, _ in _annotations(m)) or (junit3 and name == "setUp"):
            return False
    return True


def _constructor_as_setup(node: Node, resolver: TestResolver) -> list[str]:
    """The per-test constructor's body as the fixture's [SetUp] (libphonenumber's RegexCacheTest builds its
    cache there; left out, every test met a null field)."""
    tr = MethodTranslator(resolver, b"")
    body = node.child_by_field_name("body")
    lines = [line for line in tr.block(body) if not re.match(r"\s*(base|this)\s*\(", line)]
    return ["[SetUp]", "public void SetUpEachTest()", *qualify("\n".join(lines), resolver.usings()).split("\n")]


def _post_process(text: str) -> str:
    """Assertion argument order and generic exception assertions in NUnit's shape; the fixture's own static
    helpers called without `this.` (CS0176: JUnit's assertPointEquals(...) is a private static helper)."""
    text = re.sub(r"\bthis\.Assert\.", "Assert.", text)
    for name in set(re.findall(r"\bstatic\s+(?!readonly\b)[\w<>\[\],.? ]+?\s+(\w+)\s*\(", text)):
        text = re.sub(r"\bthis\." + re.escape(name) + r"\s*\(", name + "(", text)
    text = re.sub(r"Assert\.(Catch|Throws)\(typeof\(([\w.<>\[\]]+)\),\s*", r"Assert.\1<\2>(", text)
    for method, count in junit_table()["message_first"].items():
        text = _move_message(text, method, count)
    return text


DELTA_FORMS = frozenset({"Assert.AreEqual", "Assert.AreNotEqual"})   # (message, expected, actual, delta) too


def _move_message(text: str, method: str, count: int) -> str:
    """JUnit's message-first assertion (`assertEquals(msg, expected, actual[, delta])`) with the message last, as
    NUnit takes it; any other call exactly as written."""
    out, pos = [], 0
    needle = method + "("
    while True:
        i = text.find(needle, pos)
        if i < 0:
            out.append(text[pos:])
            return "".join(out)
        start = i + len(needle)
        depth, j = 1, start
        while j < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            j += 1
        args = _call_args(text[start:j - 1])
        extra = 1 if method in DELTA_FORMS else 0      # assertEquals(message, expected, actual, delta)
        if count + 1 <= len(args) <= count + 1 + extra and args[0].startswith('"') and not args[-1].startswith('"'):
            out.append(text[pos:start] + ", ".join(args[1:] + [args[0]]) + ")")
        else:
            out.append(text[pos:j])                     # left exactly as written (a literal's commas included)
        pos = j


def _call_args(text: str) -> list[str]:
    """A call's arguments: split on commas outside brackets, type arguments (`Map<K, V>`: a `<` right after
    a name; `a < b` is a comparison) and string or char literals."""
    masked = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'', lambda m: "\0" * len(m.group(0)), text)
    parts, depth, angles, begin = [], 0, 0, 0
    for i, ch in enumerate(masked):
        if ch in "[({":
            depth += 1
        elif ch in "])}":
            depth -= 1
        elif ch == "<" and i and (masked[i - 1].isalnum() or masked[i - 1] == "_"):
            angles += 1
        elif ch == ">" and angles:
            angles -= 1
        elif ch == "," and depth == 0 and angles == 0:
            parts.append(text[begin:i].strip())
            begin = i + 1
    parts.append(text[begin:].strip())
    return [p for p in parts if p]


def _test_cases(annotations: list[tuple[str, str]]) -> list[str]:
    """[TestCase(...)] argument lists from @ValueSource and @CsvSource."""
    out = []
    for ann, args in annotations:
        if ann == "ValueSource":
            m = re.search(r"\{(.*)\}", args, re.S) or re.search(r"=\s*(.*)", args, re.S)
            out += [v.strip() for v in split_top(m.group(1))] if m else []
        elif ann == "CsvSource":
            m = re.search(r"\{(.*)\}", args, re.S)
            for row in split_top(m.group(1)) if m else []:
                cells = [c.strip() for c in row.strip().strip('"').split(",")]
                out.append(", ".join(c if re.fullmatch(r"-?[\d.]+|true|false", c) else f'"{c}"' for c in cells))
    return out


def _annotations(node: Node) -> list[tuple[str, str]]:
    mods = next((c for c in node.children if c.type == "modifiers"), None)
    out = []
    for c in mods.children if mods is not None else []:
        if c.type in ("marker_annotation", "annotation"):
            name = _text(c.child_by_field_name("name")).rsplit(".", 1)[-1]
            out.append((name, _text(c.child_by_field_name("arguments")).strip("()")))
    return out


def _reason(args: str) -> str:
    m = re.search(r'"((?:\\.|[^"\\])*)"', args)
    return m.group(1) if m else "ignored in JUnit"


def _modifiers(node: Node) -> list[str]:
    mods = next((c for c in node.children if c.type == "modifiers"), None)
    return [_text(c) for c in mods.children] if mods is not None else []


def _class_under_test(index: "Index", package: str, test_name: str):
    stem = re.sub(r"(TestCase|Tests|Test)$", "", test_name)
    found = [t for t in index.types("source") if t.name == stem]
    return next((t for t in found if t.container == package), found[0] if found else None)


def _referenced(root: Node) -> set[str]:
    names, stack = set(), [root]
    while stack:
        n = stack.pop()
        if n.type == "type_identifier" or (n.type == "identifier" and n.parent is not None
                                           and n.parent.type in ("method_invocation", "field_access")
                                           and _text(n)[:1].isupper()):
            names.add(_text(n))
        stack.extend(n.named_children)
    return names


def _visible(index: "Index", root: Node) -> list:
    """Java types the test file can name by simple name: its package's and its imports' (one per name; a
    nested type when it is imported by name)."""
    package = next((_text(n.named_children[0]) for n in root.named_children if n.type == "package_declaration"), "")
    imports = [_text(n).removeprefix("import").strip(" ;") for n in root.named_children if n.type == "import_declaration"]
    exact = {i for i in imports if not i.endswith(".*") and not i.startswith("static ")}
    wildcard = {i[:-2] for i in imports if i.endswith(".*") and not i.startswith("static ")}
    wanted = _referenced(root)
    chosen: dict[str, object] = {}
    for t in index.types("source"):
        if t.name not in wanted or (t.outer_id is not None and t.qualified_name not in exact):
            continue
        rank = 0 if t.qualified_name in exact else 1 if t.container == package else 2 if t.container in wildcard else None
        if rank is not None and (t.name not in chosen or rank < chosen[t.name][0]):
            chosen[t.name] = (rank, t)
    return [t for _, t in chosen.values()]


def _reached(index: "Index", visible: list, depth: int = 2) -> list:
    """The types the test names, with their supertypes and the types their methods return (`depth` steps):
    jsoup's TextNodeTest never names Elements, yet `doc.select("p").first()` needs NSoup's Elements.First."""
    out = {t.id: t for t in visible}
    frontier = list(visible)
    for _ in range(depth):
        found = []
        for t in frontier:
            returns = {re.sub(r"<.*|\[.*", "", m.return_type) for m in index.methods(t.id) if m.return_type}
            for u in [*index.supertypes(t), *filter(None, (index.resolve_type(t, r) for r in sorted(returns)))]:
                if u.id not in out and u.outer_id is None:
                    out[u.id] = u
                    found.append(u)
        frontier = found
    return list(out.values())


def _test_helpers(index: "Index", root: Node) -> list:
    """C# types the test names that have no Java type in the index but one C# type of that name: the
    JUnit sources' helpers the port ported into its test project (jsoup's TextUtil, NSoup's Test.TextUtil)."""
    java = {t.name for t in index.types("source")}
    out = []
    for name in sorted(_referenced(root) - java):
        found = [t for t in index.find_types("target", name) if t.name == name and t.outer_id is None]
        if len(found) == 1:
            out.append(found[0])
    return out


def _used_target_types(index: "Index", mapping: "Mapping", root: Node) -> list:
    out = list(_test_helpers(index, root))
    for t in _visible(index, root):
        match = mapping.target_type(t.id)
        target = index.type(match.target_id) if match else None
        while target is not None and target.outer_id is not None:
            target = index.type(target.outer_id)
        if target is not None:
            out.append(target)
    return out


def port_context(index: "Index", mapping: "Mapping", java_file: Path) -> list[dict]:
    """The port's API for the project types a JUnit file uses, as the agents see it: one
    find_target_class_info output per type ({"tool", "args", "output"}), the class under test first."""
    root = Parser(JAVA).parse(java_file.read_bytes()).root_node
    ctx = ToolContext(index, mapping)
    stem = re.sub(r"(TestCase|Tests|Test)$", "", java_file.stem)
    out = []
    for t in sorted(_visible(index, root), key=lambda t: (t.name != stem, t.name)):
        match = mapping.target_type(t.id)
        if match is None:
            continue
        try:
            info = find_target_class_info(ctx, match.target_id.split(":", 1)[1])
        except Exception:          # noqa: BLE001 - a type the tool cannot describe is left out
            continue
        out.append({"tool": "find_target_class_info", "args": {"class_name": t.name}, "output": info})
    return out


def _port_types(index: "Index", mapping: "Mapping", root: Node) -> dict:
    """TargetType per Java simple name the test uses, from find_target_class_info (as the agents see it)."""
    ctx = ToolContext(index, mapping)
    outputs = []
    reached = _reached(index, _visible(index, root))
    for t in reached:
        match = mapping.target_type(t.id)
        if match is None:
            continue
        try:
            out = find_target_class_info(ctx, match.target_id.split(":", 1)[1])
        except Exception:          # noqa: BLE001 - a type the tool cannot describe is left to the conventions
            continue
        outputs.append(("find_target_class_info", {"class_name": t.name}, out))
    for t in _test_helpers(index, root):
        try:
            outputs.append(("find_target_class_info", {"class_name": t.name}, find_target_class_info(ctx, t.qualified_name)))
        except Exception:          # noqa: BLE001 - a type the tool cannot describe is left to the conventions
            continue
    types = ContextResolver.from_tool_outputs("", outputs).types
    for t in reached:                               # Java field and return types, for the receivers' types
        info = types.get(t.name)
        if info is None:
            continue
        info.name = _written(index, mapping.target_type(t.id).target_id, info.name)
        info.java_fields.update({f.name: f.type for f in index.fields(t.id)})
        info.java_fields.update({c: t.name for c in t.enum_constants})
        info.java_methods.update({f"{m.name}/{len(m.params)}": m.return_type for m in index.methods(t.id)
                                  if m.return_type})
    return types


def _written(index: "Index", target_id: str, name: str) -> str:
    """How a test outside the type writes it: a nested type through its outer types (Java imports
    PhoneNumberUtil.Leniency and writes Leniency; C# has no using for a nested type)."""
    t = index.type(target_id)
    outer = index.type(t.outer_id) if t is not None and t.outer_id else None
    return f"{_written(index, outer.id, outer.name)}.{name}" if outer is not None else name


def _own_fields(cls: Node, resolver: "TestResolver") -> TargetType:
    """The test class itself as a resolver type: its fields (Java and C# types) and helpers' returns."""
    own = TargetType(name=_text(cls.child_by_field_name("name")))
    for d in cls.child_by_field_name("body").named_children:
        if d.type == "field_declaration":
            jtype = _text(d.child_by_field_name("type"))
            for v in d.children_by_field_name("declarator"):
                name = _text(v.child_by_field_name("name"))
                own.java_fields[name] = jtype + _text(v.child_by_field_name("dimensions"))
                own.fields[name] = resolver.type_name(own.java_fields[name])
        elif d.type == "method_declaration":
            params = d.child_by_field_name("parameters")
            argc = len([p for p in params.named_children if p.type in ("formal_parameter", "spread_parameter")])
            own.java_methods[f"{_text(d.child_by_field_name('name'))}/{argc}"] = _text(d.child_by_field_name("type"))
    return own


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8") if node is not None else ""
