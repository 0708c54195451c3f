"""Test selection from a tree-sitter scan of the test sources (cached per state).

A test covers a target member when its static call graph reaches it (workspace.reach: the test's
identifiers followed through the index's members: calls, overrides, constructors, properties). When no
test reaches it, the name walk below is the fallback, recorded as such (basis "names"):
a test method covers a target member when the identifiers it can reach mention the member: its own
body and attributes, the fixture's per-test plumbing ([SetUp]/[TearDown] methods, constructors, field
initialisers) and the fixture's helpers (non-test methods, properties, nested classes) it names.
Only fixtures that mention the target's class are looked at; when none of their tests mentions the
member (a helper reached through another public method), those fixtures are selected; when no fixture
names the class, the fixtures naming its callers. Both fallbacks are bounded and named (Selection)."""
from __future__ import annotations

import json
import re
from bisect import bisect_left
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable
from pathlib import Path

from tree_sitter import Node, Query, QueryCursor

from repotrans.execution.workspace.reach import Reachability, reaching_tests
from repotrans.execution.workspace.scratch import Workspace, write_atomically
from repotrans.index.parse import grammar, thread_parser
from repotrans.index.typename import simple_name

TEST_ATTRIBUTES = {"Test", "TestCase", "TestCaseSource", "Theory", "Fact", "TestMethod", "DataTestMethod"}  # NUnit, xUnit, MSTest
FIXTURE_ATTRIBUTES = TEST_ATTRIBUTES | {"TestFixture", "TestClass"}
PLUMBING_ATTRIBUTES = {"SetUp", "TearDown", "TestFixtureSetUp", "TestFixtureTearDown", "OneTimeSetUp",
                       "OneTimeTearDown", "TestInitialize", "TestCleanup", "ClassInitialize", "ClassCleanup"}
SOURCE_ATTRIBUTES = {"TestCaseSource", "ValueSource"}
SKIP_DIRS = {"bin", "obj"}
NAMESPACE_NODES = ("namespace_declaration", "file_scoped_namespace_declaration")
DECLARATION_NODES = ("class_declaration", "struct_declaration", "record_declaration", "interface_declaration",
                     "method_declaration", "constructor_declaration", "property_declaration",
                     "indexer_declaration", "event_declaration", "delegate_declaration", "enum_declaration")
CACHE_FILE = "tests.json"
CACHE_VERSION = 5
TRANSLATED_CATEGORY = "RepotransTranslated"     # junit.translate.CATEGORY: fixtures translated from JUnit


def index_tests(ws: Workspace, test_projects: dict[str, Path | list[Path]],
                scanned: dict[Path, list[tuple[str, dict]]] | None = None) -> dict[str, dict]:
    """"<project>:<Ns.Fixture>" -> {"idents": every identifier in the fixture, "abstract": bool,
    "translated": a fixture repotrans translated from JUnit ([Category("RepotransTranslated")]),
    "shared": identifiers every test reaches, "tests": {test method: identifiers it reaches}}.
    Object creations also count as the token "new <Type>" (constructor coverage). `scanned`: files already
    read by scan_test_files (a caller may read them before the build says which of them compile)."""
    cache_file = ws.root / CACHE_FILE
    if cache_file.exists():
        data = json.loads(cache_file.read_text())
        if data.get("version") == CACHE_VERSION:
            return data["fixtures"]
    fixtures = fixtures_of(test_projects, scanned)
    write_atomically(cache_file, json.dumps({"version": CACHE_VERSION, "fixtures": fixtures}, indent=1))
    return fixtures


def fixtures_of(test_projects: dict[str, Path | list[Path]],
                scanned: dict[Path, list[tuple[str, dict]]] | None = None) -> dict[str, dict]:
    """index_tests' fixtures of `test_projects`, not kept in the workspace (test projects a build may still
    leave out: what a caller searches ahead of it)."""
    fixtures: dict[str, dict] = {}
    for project, folder in sorted(test_projects.items()):
        for path in _test_files(folder):
            found = (scanned or {}).get(path)
            for name, scan in found if found is not None else _scan_file(path):
                _merge(fixtures.setdefault(f"{project}:{name}", {}), scan)
    return fixtures


def scan_test_files(test_projects: dict[str, Path | list[Path]]) -> dict[Path, list[tuple[str, dict]]]:
    """Each test file of `test_projects` -> its fixtures' scans (name, scan), as index_tests reads them."""
    return {path: _scan_file(path) for folder in test_projects.values() for path in _test_files(folder)}


def _test_files(folder: Path | list[Path]) -> list[Path]:
    return sorted(folder) if isinstance(folder, list) else [
        p for p in sorted(folder.rglob("*.cs")) if not any(part in SKIP_DIRS for part in p.relative_to(folder).parts[:-1])]


def _scan_file(path: Path) -> list[tuple[str, dict]]:
    tree = thread_parser("csharp").parse(path.read_bytes())
    return [(name, _scan_fixture(cls)) for name, cls in runner_classes(tree.root_node) if _is_fixture(cls)]


@dataclass(frozen=True)
class Selection:
    """The tests a candidate runs, and why these: `basis` is "covering" (tests whose static call graph
    reaches the member), "names" (none does: tests naming the member and its class),
    "class" (no test names the member: fixtures naming its class), "callers" (no fixture names the
    class: fixtures naming types that call the member) or "none" (nothing found: compiled only).
    The two fallbacks are bounded to FALLBACK_LIMIT fixtures, never the whole suite."""
    tests: list[str]
    basis: str
    names: tuple[str, ...] = ()   # the classes or callers the fallback fixtures name
    total: int = 0                # fallback fixtures found before the bound
    translated: tuple[str, ...] = ()   # the selected tests that come from translated fixtures
    fixtures: int = field(default=0, compare=False)     # distinct fixtures the tests belong to
    size: int = field(default=0, compare=False)         # test methods selected (a whole fixture: all of its)

    def timeout(self, base: float) -> float:
        """A test-step limit that grows with the selection (scaled_limit). Dataset validation uses it
        so that a fallback's eight fixtures get the time they need under load, instead of a load
        spike dropping a task (and two runs of the same build validating different sets)."""
        return scaled_limit(base, self.fixtures, self.size)

    def describe(self) -> str:
        """One line for people: what runs and why."""
        names = ", ".join(self.names[:5]) + (", ..." if len(self.names) > 5 else "")
        bound = f" (the first {len(self.tests)} of {self.total})" if self.total > len(self.tests) else ""
        if self.basis == "covering":
            return f"{len(self.tests)} covering test(s): {_short(self.tests)}"
        if self.basis == "names":
            return f"no test reaches it statically: fallback to {len(self.tests)} test(s) naming it: {_short(self.tests)}"
        if self.basis == "class":
            return f"no test names the member: fallback to {len(self.tests)} fixture(s) naming {names}{bound}"
        if self.basis == "callers":
            return (f"no test names its class: fallback to {len(self.tests)} fixture(s) naming its callers "
                    f"{names}{bound}")
        return f"no covering test (none names {names} or a caller): compiled only, no test run"


FALLBACK_LIMIT = 8
FIXTURE_SHARE = 0.5
TEST_SECONDS = 10.0


def scaled_limit(base: float, fixtures: int, tests: int) -> float:
    """`base` for one fixture, half of it again for each further fixture, and at least TEST_SECONDS
    per test method (a fallback's whole fixtures can hold dozens of slow tests)."""
    return max(base * (1 + FIXTURE_SHARE * max(0, fixtures - 1)), TEST_SECONDS * tests)


def select_tests(fixtures: dict[str, dict], class_names: set[str], member_tokens: set[str],
                 callers: Callable[[], set[str]] | None = None) -> Selection:
    """_select, with the selected tests of translated fixtures named (a verdict resting on them is
    labelled as a translated-test verdict, never counted as one of the port's own tests)."""
    chosen = _select(fixtures, class_names, member_tokens, callers)
    translated = tuple(t for t in chosen.tests if fixtures.get(_fixture_key(t, fixtures), {}).get("translated"))
    if not translated:
        return chosen
    return Selection(chosen.tests, chosen.basis, chosen.names, chosen.total, translated, fixtures=chosen.fixtures,
                     size=chosen.size)


def _fixture_key(test: str, fixtures: dict[str, dict]) -> str:
    """The fixture key of a selected id ("<project>:<Ns.Fixture>" or that plus ".Method")."""
    return test if test in fixtures else test.rsplit(".", 1)[0]


def _select(fixtures: dict[str, dict], class_names: set[str], member_tokens: set[str],
            callers: Callable[[], set[str]] | None = None) -> Selection:
    """Test ids to run: "<project>:<Ns.Fixture.Method>" for each test of a fixture mentioning
    `class_names` whose reach mentions `member_tokens` and (with the shared plumbing) `class_names`;
    a whole fixture ("<project>:<Ns.Fixture>") when its shared plumbing mentions the member. When no
    test mentions the member: the fixtures naming the class; when none does, the fixtures naming
    `callers()` (types whose code calls the member); both bounded."""
    covering = sorted(key for key, fx in fixtures.items() if class_names & set(fx["idents"]) and not fx["abstract"])
    picked: list[str] = []
    used = size = 0
    for key in covering:
        fx = fixtures[key]
        shared = set(fx["shared"])
        before = len(picked)
        if member_tokens & shared:
            picked.append(key)
            size += max(1, len(fx["tests"]))
        else:
            picked += [f"{key}.{test}" for test, idents in sorted(fx["tests"].items())
                       if member_tokens & set(idents) and class_names & (set(idents) | shared)]
            size += len(picked) - before
        used += len(picked) > before
    if picked:
        return Selection(picked, "names", fixtures=used, size=size)
    if covering:
        return _bounded(fixtures, covering, class_names, "class")
    found = callers() if callers is not None else set()
    by_callers = sorted(key for key, fx in fixtures.items() if found & set(fx["idents"]) and not fx["abstract"])
    if by_callers:
        return _bounded(fixtures, by_callers, found, "callers")
    return Selection([], "none", tuple(sorted(class_names)))


def choose_tests(index, method, fixtures: dict[str, dict], class_names: set[str],
                 member_tokens: set[str], reach: Reachability | None = None) -> Selection:
    """The tests whose static call graph reaches one indexed target member (`reach`: the caller's
    memo of the graph; a fresh one without); when none does, select_tests (the name walk, recorded as
    the fallback it is; callers looked up in the index only when needed)."""
    reach = reach or Reachability()
    tests, used, size = reaching_tests(fixtures, lambda starts: reach.reaching(index, starts), method.id,
                                       simple_name(method.type_id))
    if tests:
        translated = tuple(t for t in tests if fixtures.get(_fixture_key(t, fixtures), {}).get("translated"))
        return Selection(tests, "covering", translated=translated, fixtures=used, size=size)
    skip = {key.split(":", 1)[1].replace("+", ".") for key in fixtures}
    return select_tests(fixtures, class_names, member_tokens, callers=lambda: caller_types(
        index.types("target"), index.all_methods("target"), member_tokens, class_names, skip))


def _bounded(fixtures: dict[str, dict], keys: list[str], names: set[str], basis: str) -> Selection:
    """At most FALLBACK_LIMIT fixtures: those named after one of `names` first, then those naming most."""
    def rank(key: str) -> tuple:
        simple = key.rsplit(".", 1)[-1].rsplit("+", 1)[-1]
        return (not any(n in simple for n in names), -len(names & set(fixtures[key]["idents"])), key)
    chosen = sorted(sorted(keys, key=rank)[:FALLBACK_LIMIT])
    return Selection(chosen, basis, tuple(sorted(names)), len(keys), fixtures=len(chosen),
                     size=sum(max(1, len(fixtures[k]["tests"])) for k in chosen))


def caller_types(types: list, methods: list, tokens: set[str], class_names: set[str],
                 skip: set[str]) -> set[str]:
    """Simple names of the types (other than `class_names` and `skip`) with a member whose body
    mentions one of `tokens` and that name one of `class_names` somewhere in their members."""
    if not tokens:
        return set()
    token_re = re.compile("|".join(_token_pattern(t) for t in sorted(tokens)))
    class_re = re.compile("|".join(r"\b" + re.escape(c) + r"\b" for c in sorted(class_names)))
    by_type: dict[str, list] = {}
    for m in methods:
        by_type.setdefault(m.type_id, []).append(m)
    found: set[str] = set()
    for t in types:
        if t.name in class_names or t.qualified_name in skip or t.id not in by_type:
            continue
        members = by_type[t.id]
        if any(token_re.search(m.body or "") for m in members) and \
                any(class_re.search(f"{m.signature} {m.body or ''}") for m in members):
            found.add(t.name)
    return found


def _token_pattern(token: str) -> str:
    r"""A member token as a regex over code: "new Foo" -> `new\s+Foo\b`, "Bar" -> `\bBar\b`."""
    if token.startswith("new "):
        return r"\bnew\s+" + re.escape(token[4:]) + r"\b"
    return r"\b" + re.escape(token) + r"\b"


def _short(tests: list[str], shown: int = 3) -> str:
    names = [t.split(":", 1)[-1].rsplit(".", 2)[-2:] for t in tests[:shown]]
    text = ", ".join(".".join(n) for n in names)
    return text + (f", ... ({len(tests)} in all)" if len(tests) > shown else "")


def _merge(into: dict, fx: dict) -> None:
    """Partial classes: one fixture spread over several files."""
    if not into:
        into.update(fx, tests=dict(fx["tests"]))      # a file's scan may be merged into two projects' fixtures
        return
    into["idents"] = sorted(set(into["idents"]) | set(fx["idents"]))
    into["shared"] = sorted(set(into["shared"]) | set(fx["shared"]))
    into["abstract"] = into["abstract"] or fx["abstract"]
    into["bases"] = sorted(set(into.get("bases", [])) | set(fx.get("bases", [])))
    into["translated"] = into.get("translated", False) or fx.get("translated", False)
    for test, idents in fx["tests"].items():
        into["tests"][test] = sorted(set(into["tests"].get(test, [])) | set(idents))


def runner_classes(node: Node, prefix: str = "", outer: str = "") -> list[tuple[str, Node]]:
    """Every class under `node` with the name test runners give it: namespace-qualified, a nested class joined
    to its outer one by "+" (NUnit's and VSTest's Ns.Outer+Inner). A file-scoped namespace's declarations are
    its siblings in the grammar (or its children in some versions)."""
    out: list[tuple[str, Node]] = []
    for child in node.named_children:
        if child.type in NAMESPACE_NODES:
            name = child.child_by_field_name("name").text.decode()
            ns = f"{prefix}.{name}" if prefix else name
            if child.type == "file_scoped_namespace_declaration":
                prefix = ns
                out += runner_classes(child, ns)
            elif child.child_by_field_name("body") is not None:
                out += runner_classes(child.child_by_field_name("body"), ns)
        elif child.type == "class_declaration":
            simple = child.child_by_field_name("name").text.decode()
            name = f"{outer}+{simple}" if outer else (f"{prefix}.{simple}" if prefix else simple)
            out.append((name, child))
            body = child.child_by_field_name("body")
            if body is not None:
                out += runner_classes(body, prefix, name)
    return out


def _scan_fixture(cls: Node) -> dict:
    """One fixture class -> its index entry (see index_tests)."""
    shared: set[str] = set()
    helpers: dict[str, set[str]] = _enclosing_helpers(cls)
    tests: dict[str, tuple[set[str], set[str]]] = {}     # name -> (identifiers, source member names)
    body = cls.child_by_field_name("body")
    idents = _Identifiers(cls)
    for member in body.named_children if body is not None else []:
        attrs = _attributes(member)
        name_node = member.child_by_field_name("name")
        name = name_node.text.decode() if name_node is not None else ""
        if member.type == "method_declaration" and attrs & TEST_ATTRIBUTES:
            found, sources = tests.get(name, (set(), set()))
            tests[name] = (found | idents.within(member), sources | _source_names(member))
        elif member.type in ("field_declaration", "constructor_declaration") or attrs & PLUMBING_ATTRIBUTES:
            shared |= idents.within(member)
        elif name:
            helpers[name] = helpers.get(name, set()) | idents.within(member)
    reach = {test: _reach(found | sources, helpers) | found for test, (found, sources) in tests.items()}
    shared = _reach(shared, helpers) | shared
    return {"idents": sorted(idents.within(cls)), "abstract": "abstract" in _modifiers(cls),
            "translated": _translated(cls), "bases": _bases(cls),
            "shared": sorted(shared), "tests": {t: sorted(ids) for t, ids in sorted(reach.items())}}


def _enclosing_helpers(cls: Node) -> dict[str, set[str]]:
    """The non-test methods of the classes `cls` is nested in, by name (a nested fixture, such as the
    translated tests sync puts inside the port's test class, calls their static helpers by simple name)."""
    out: dict[str, set[str]] = {}
    node = cls.parent
    while node is not None:
        if node.type == "class_declaration" and node.child_by_field_name("body") is not None:
            for member in node.child_by_field_name("body").named_children:
                name = member.child_by_field_name("name")
                if member.type == "method_declaration" and name is not None and \
                        not _attributes(member) & TEST_ATTRIBUTES:
                    out.setdefault(name.text.decode(), set()).update(_identifiers(member))
        node = node.parent
    return out


def _bases(cls: Node) -> list[str]:
    """Simple names of the class's bases as written (an abstract fixture's tests run as its subclass's)."""
    bases = next((c for c in cls.named_children if c.type == "base_list"), None)
    return [] if bases is None else sorted({_simple_type(b) for b in bases.named_children} - {""})


def _reach(start: set[str], helpers: dict[str, set[str]]) -> set[str]:
    """Identifiers of the helpers named in `start`, transitively."""
    seen: set[str] = set()
    found: set[str] = set()
    todo = [n for n in start if n in helpers]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        found |= helpers[name]
        todo += [n for n in helpers[name] if n in helpers and n not in seen]
    return found


def _is_fixture(cls: Node) -> bool:
    if _attributes(cls) & FIXTURE_ATTRIBUTES:
        return True
    body = cls.child_by_field_name("body")
    return body is not None and any(c.type == "method_declaration" and _attributes(c) & TEST_ATTRIBUTES
                                    for c in body.named_children)


def _attributes(node: Node) -> set[str]:
    return {_attribute_name(attr) for child in node.named_children if child.type == "attribute_list"
            for attr in child.named_children if attr.type == "attribute"}


def _translated(cls: Node) -> bool:
    """Whether the class carries [Category("RepotransTranslated")]."""
    return any(_attribute_name(attr) == "Category" and f'"{TRANSLATED_CATEGORY}"' in attr.text.decode()
               for child in cls.named_children if child.type == "attribute_list"
               for attr in child.named_children if attr.type == "attribute")


def _attribute_name(attr: Node) -> str:
    text = attr.child_by_field_name("name").text.decode().split(".")[-1]
    return text[:-9] if text.endswith("Attribute") else text


def _source_names(method: Node) -> set[str]:
    """Members named by string in [TestCaseSource("Cases")] or a parameter's [ValueSource("Values")]."""
    return {s.text.decode() for n in QueryCursor(_attribute_query()).captures(method).get("attribute", [])
            if _attribute_name(n) in SOURCE_ATTRIBUTES for s in _walk(n) if s.type == "string_literal_content"}


def _modifiers(node: Node) -> set[str]:
    return {c.text.decode() for c in node.named_children if c.type == "modifier"}


def _walk(node: Node) -> list[Node]:
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(n.children)
    return out


def identifiers_in(source: bytes, start: int, end: int) -> set[str]:
    """The identifiers index_tests reads of the C# declaration spanning [start, end) of `source`
    (comments and string literals are not identifiers)."""
    node = thread_parser("csharp").parse(source).root_node.descendant_for_byte_range(start, max(start, end - 1))
    while node is not None and (node.start_byte > start or node.end_byte < end):
        node = node.parent
    return _identifiers(node) if node is not None else set()


def _identifiers(node: Node) -> set[str]:
    """Identifiers under `node`, plus "new <Type>" for each object creation."""
    return _Identifiers(node).within(node)


class _Identifiers:
    """The identifiers under one node (as _identifiers reads them), by position: one query over the subtree
    (a big suite's fixtures hold millions of nodes, and only these are read), and any node inside it read
    without walking it again."""

    def __init__(self, node: Node):
        found = QueryCursor(_identifier_query()).captures(node)
        items = sorted([(n.start_byte, n.text.decode()) for n in found.get("identifier", []) if not _declares(n)]
                       + [(n.start_byte, f"new {created}") for n in found.get("created", [])
                          if (created := _simple_type(n))])
        self._at = [at for at, _ in items]
        self._names = [name for _, name in items]

    def within(self, node: Node) -> set[str]:
        """The identifiers under `node` (a node inside the one this was made for)."""
        return set(self._names[bisect_left(self._at, node.start_byte):bisect_left(self._at, node.end_byte)])


@lru_cache(maxsize=1)
def _identifier_query() -> Query:
    return Query(grammar("csharp").language,
                 "(identifier) @identifier (object_creation_expression type: (_) @created)")


@lru_cache(maxsize=1)
def _attribute_query() -> Query:
    return Query(grammar("csharp").language, "(attribute) @attribute")


def _declares(ident: Node) -> bool:
    """`ident` names a declared member or type (an override in a test's helper class mentions the
    member's name without reaching it)."""
    parent = ident.parent
    if parent is None or parent.type not in DECLARATION_NODES:
        return False
    name = parent.child_by_field_name("name")
    return name is not None and name.start_byte == ident.start_byte


def _simple_type(node: Node | None) -> str:
    while node is not None and node.type in ("qualified_name", "alias_qualified_name"):
        node = node.child_by_field_name("name")
    if node is not None and node.type == "generic_name":
        node = next((c for c in node.named_children if c.type == "identifier"), None)
    return node.text.decode() if node is not None and node.type == "identifier" else ""
