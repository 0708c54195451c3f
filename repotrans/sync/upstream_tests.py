"""Upstream JUnit changes to test classes the port already has (`sync --junit`): a test method added
upstream to an existing JUnit class lands in the port's existing test class, and one changed upstream is
translated anew beside the port's own (which keeps following the old JUnit test until a human replaces it,
and is left out of the sync's verdicts meanwhile: it asserts what upstream changed, so it would reject the
very edits the range makes; the translation judges in its place).

The added tests are the @Test methods (JUnit 3: public `test*()` methods) of a JUnit file at both
revisions that only the new one has; the changed ones, those both have with another text (spacing and
comments aside). The new file goes through translate-tests' builtin translation
(junit/port_tests, nothing written), and the added methods are taken from that fixture into a nested
class of the port's test class, `[TestFixture] [Category("RepotransTranslated")] RepotransTranslated`:
in the port's own file (so it reaches the fixture's static helpers), yet labelled as translated, so a
verdict resting on them is never counted as one of the port's own tests (execution/workspace/selection).
The port's test class is the mapping's counterpart of the JUnit class, else the fixture of the same name.
They are written before the changed members are edited (so they judge them) and kept only when the port's
test build compiles with them; otherwise they are taken out and left for a human with the first error.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import tree_sitter_c_sharp
import tree_sitter_java
from tree_sitter import Language, Node, Parser

from repotrans.sync.diff import Change
from repotrans.sync.port import FileSnapshot
from repotrans.sync.report import Outcome
from repotrans.junit.translate import CATEGORY

NESTED = "RepotransTranslated"
_JAVA = Language(tree_sitter_java.language())
_CS = Language(tree_sitter_c_sharp.language())


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None else ""


def test_methods(java_file: Path) -> tuple[str | None, list[str]]:
    """The top-level class of a JUnit file and its test methods' names, in order."""
    return class_tests(java_file.read_bytes())


def class_tests(data: bytes) -> tuple[str | None, list[str]]:
    """The top-level class of a JUnit file's text and its test methods' names, in order."""
    name, texts = class_test_texts(data)
    return name, list(texts)


def class_test_texts(data: bytes) -> tuple[str | None, dict[str, str]]:
    """The top-level class of a JUnit file's text and its test methods' texts by name, in order (spacing
    and comments left out, so a reformatted test is no change)."""
    root = Parser(_JAVA).parse(data).root_node
    cls = next((n for n in root.named_children if n.type == "class_declaration"), None)
    if cls is None:
        return None, {}
    junit3 = "TestCase" in _text(cls.child_by_field_name("superclass"))
    out: dict[str, str] = {}
    for m in cls.child_by_field_name("body").named_children:
        if m.type != "method_declaration":
            continue
        name = _text(m.child_by_field_name("name"))
        mods = next((c for c in m.named_children if c.type == "modifiers"), None)
        annotated = mods is not None and re.search(r"@(org\.junit\.(jupiter\.api\.)?)?Test\b", _text(mods))
        if annotated or (junit3 and name.startswith("test") and "public" in _text(mods)):
            out[name] = " ".join(re.sub(r"//[^\n]*|/\*.*?\*/", " ", _text(m), flags=re.S).split())
    return _text(cls.child_by_field_name("name")), out


STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def dropped_literals(old_text: str, new_text: str, shortest: int = 6) -> set[str]:
    """String literals (of at least `shortest` characters) a JUnit test's old text asserts and its new text
    no longer has: a port test that holds one follows the old test, whatever the port named it (a port
    may split one JUnit test in two)."""
    old, new = set(STRING.findall(old_text)), set(STRING.findall(new_text))
    return {lit for lit in old - new if len(lit.strip()) >= shortest}


def _files_of_both(old_root: Path, new_root: Path) -> Iterator[tuple[str, Path, Path]]:
    """(relative path, old file, new file) for each JUnit file both revisions have."""
    for new in sorted(new_root.rglob("*.java")):
        rel = new.relative_to(new_root).as_posix()
        if (old_root / rel).is_file():
            yield rel, old_root / rel, new


def added_tests(old_root: Path, new_root: Path) -> dict[str, list[str]]:
    """JUnit file (relative to the test root) -> the test methods only its new revision has, for the files
    both revisions have (a new file is a new test type: sync_added translates it whole)."""
    out = {}
    for rel, old, new in _files_of_both(old_root, new_root):
        _, before = test_methods(old)
        _, after = test_methods(new)
        added = [n for n in after if n not in set(before)]
        if added:
            out[rel] = added
    return out


def changed_tests(old_root: Path, new_root: Path) -> dict[str, list[str]]:
    """JUnit file (relative to the test root) -> the test methods both revisions have whose text changed
    upstream (beyond spacing and comments)."""
    out = {}
    for rel, old, new in _files_of_both(old_root, new_root):
        before, after = class_test_texts(old.read_bytes())[1], class_test_texts(new.read_bytes())[1]
        changed = [n for n, text in after.items() if n in before and before[n] != text]
        if changed:
            out[rel] = changed
    return out


def removed_tests(old_root: Path, new_root: Path) -> dict[str, list[str]]:
    """JUnit file (relative to the test root) -> the test methods its new revision no longer has (the file
    itself removed: all of them); reported, never deleted from the port."""
    out = {}
    for old in sorted(old_root.rglob("*.java")):
        rel = old.relative_to(old_root).as_posix()
        new = new_root / rel
        _, before = test_methods(old)
        after = set(test_methods(new)[1]) if new.is_file() else set()
        gone = [n for n in before if n not in after]
        if gone:
            out[rel] = gone
    return out


def commits_adding(repo: Path, history: list, path: str, names: list[str], added: bool = True,
                   before: dict[str, str] | None = None) -> dict[str, tuple[str, ...]]:
    """Test method -> (short id of) the first upstream commit of `history` (oldest first) after which the
    file `path` (relative to the repository) has it (`added`; else: no longer has it); with `before` (the
    old revision's test texts), the first after which its text is no longer that."""
    from repotrans.sync.history import show

    out: dict[str, tuple[str, ...]] = {}
    for commit in history:
        if path not in commit.files or len(out) == len(names):
            continue
        data = show(repo, commit.sha, path)
        texts = class_test_texts(data)[1] if data is not None else {}
        for n in names:
            hit = (n in texts and texts[n] != before.get(n)) if before is not None else (n in texts) == added
            if hit and n not in out:
                out[n] = (commit.short,)
    return out


def _methods(cs_text: str) -> dict[str, str]:
    """Lower-cased name -> text (attributes included) of the methods of the fixture class in a C# file."""
    root = Parser(_CS).parse(cs_text.encode("utf-8")).root_node
    out: dict[str, str] = {}
    todo = [root]
    while todo:
        node = todo.pop()
        if node.type == "method_declaration":
            out[_text(node.child_by_field_name("name")).lower()] = _text(node)
        else:
            todo += node.named_children
    return out


def _nested_text(cs_text: str) -> str:
    """The text of the nested translated fixture in a C# file ('' without one)."""
    root = Parser(_CS).parse(cs_text.encode("utf-8")).root_node
    todo = [root]
    while todo:
        node = todo.pop()
        if node.type == "class_declaration" and _text(node.child_by_field_name("name")) == NESTED:
            return _text(node)
        todo += node.named_children
    return ""


def _indent(line: str) -> str:
    return line[:len(line) - len(line.lstrip())]


def _nested_class(methods: list[str], java_rel: str, unit: str) -> list[str]:
    """The nested fixture's lines at indent 0 of the class body (each prefixed later)."""
    lines = [f"// Translated by repotrans from JUnit {java_rel} (tests added upstream):",
             "// verdicts from them are labelled 'translated tests', never counted as the port's own tests.",
             "[TestFixture]", f'[Category("{CATEGORY}")]', f"public class {NESTED}", "{"]
    for k, text in enumerate(methods):
        body = text.split("\n")
        base = min((len(_indent(x)) for x in body[1:] if x.strip()), default=0)
        first = [body[0].strip()] + [x[base:] if x.strip() else "" for x in body[1:]]
        shift = len(_indent(first[-1])) if len(first) > 1 else 0
        first = [first[0]] + [x[shift:] if x.strip() else "" for x in first[1:]]
        lines += ([""] if k else []) + [unit + x if x else "" for x in _attributes_split(first)]
    return lines + ["}"]


def _attributes_split(lines: list[str]) -> list[str]:
    """`[Test] public void X()` as the translator wrote it: each leading attribute on its own line."""
    head = lines[0]
    out = []
    while head.startswith("["):
        end = head.index("]") + 1
        out.append(head[:end])
        head = head[end:].lstrip()
    return out + ([head] if head else []) + lines[1:]


def port_test_changes(ctx: Any, old_junit: Path, new_junit: Path, repo: Path | None = None,
                      history: list = (), junit_rel: str = "") -> None:
    """Carry the test methods added upstream to existing JUnit classes into the port's test classes (see
    the module doc); one outcome per added test method (action `add test`), under the upstream commit
    that added it when `repo` and its `history` are given; test methods removed upstream are reported
    (action `removed test`), the port's keep their place."""
    from repotrans.junit.port_tests import port_junit_tests

    def origin(rel: str, names: list[str], added: bool = True, before: dict | None = None) -> dict[str, tuple]:
        path = f"{junit_rel.strip('/')}/{rel}" if junit_rel else rel
        return commits_adding(repo, list(history), path, names, added, before) if repo is not None and history \
            else {}

    for rel, names in removed_tests(old_junit, new_junit).items():
        java_name = Path(rel).stem
        package = rel.rsplit("/", 1)[0].replace("/", ".") if "/" in rel else ""
        by = origin(rel, names, False)
        for n in names:
            ctx.report.add(Outcome(Change("test removed", f"source:{package}.{java_name}.{n}()", None,
                                          commits=by.get(n, ())),
                                   None, "removed test", "for a human",
                                   reason="removed upstream; the port's counterpart (if any) is kept: delete "
                                          "it by hand if the port follows"))
    added, changed = added_tests(old_junit, new_junit), changed_tests(old_junit, new_junit)
    if not added and not changed:
        return
    mapping = ctx.mapping()
    fixtures = {t.name: t for t in ctx.index.types("target") if t.outer_id is None}
    snap = FileSnapshot(ctx.work)
    written: list[Change] = []
    superseded: dict[str, Change] = {}       # ":Ns.Fixture.Test" of the port's own test -> the upstream change
    translations: dict[str, str] = {}        # the same key -> its translation's key
    for rel in sorted(set(added) | set(changed)):
        java_name, _ = test_methods(new_junit / rel)
        package = rel.rsplit("/", 1)[0].replace("/", ".") if "/" in rel else ""
        names = added.get(rel, []) + changed.get(rel, [])
        was = set(changed.get(rel, []))
        by = origin(rel, added.get(rel, [])) | origin(rel, sorted(was), before=class_test_texts(
            (old_junit / rel).read_bytes())[1])
        changes = [Change("test changed" if n in was else "test added", f"source:{package}.{java_name}.{n}()"
                          if n in was else None, f"source:{package}.{java_name}.{n}()", commits=by.get(n, ()))
                   for n in names]
        action = {c: "change test" if c.kind == "test changed" else "add test" for c in changes}
        qualified = f"{package}.{java_name}" if package else java_name
        ported = port_junit_tests(ctx.index, ctx.mapping(), new_junit, [qualified], write=False,
                                  settings=ctx.config.execution.build_settings())
        draft = ported.tests[0] if ported.tests else None
        pair = mapping.target_type(f"source:{qualified}")
        port_class = ctx.index.type(pair.target_id) if pair else (fixtures.get(draft.fixture) if draft else None)
        if draft is None or port_class is None:
            why = ported.skipped.get(qualified) or f"the port has no test class for {java_name}"
            for c in changes:
                ctx.report.add(Outcome(c, None, action[c], "for a human", reason=why))
            continue
        port_text = (ctx.work / port_class.path).read_bytes().decode("utf-8", "replace")
        present, translated = _methods(port_text), _methods(_nested_text(port_text))
        texts = _methods(draft.text)
        for c, n in zip(list(changes), list(names)):
            # an added test the port has (by hand, or a resumed sync wrote it); a changed one already
            # translated beside the port's own
            if n.lower() in (translated if n in was else present):
                ctx.report.add(Outcome(c, port_class.id, action[c], "nothing to do",
                                       reason=f"{port_class.name} already has a test {n}"))
                changes.remove(c)
                names.remove(n)
        if not names:
            continue
        found = [texts.get(n.lower()) for n in names]
        if any(t is None for t in found):
            for c in changes:
                ctx.report.add(Outcome(c, port_class.id, action[c], "for a human",
                                       reason="translate-tests wrote no such method"))
            continue
        snap.keep(port_class.path)
        _insert(ctx.work / port_class.path, port_class.end_line, found + _helpers(found, texts, names, present), rel)
        written += changes
        own = {m.name.lower(): m for m in ctx.index.methods(port_class.id)}
        before_texts = class_test_texts((old_junit / rel).read_bytes())[1] if (old_junit / rel).is_file() else {}
        after_texts = class_test_texts((new_junit / rel).read_bytes())[1]
        for c in changes:
            n = c.new_id.rsplit('.', 1)[-1].rstrip('()')
            gone = dropped_literals(before_texts.get(n, ""), after_texts.get(n, "")) \
                if c.kind == "test changed" else set()
            for m in own.values() if c.kind == "test changed" else ():
                if m.name.lower() == n.lower() or any(f'"{lit}"' in (m.body or "") for lit in gone):
                    superseded[f":{port_class.qualified_name}.{m.name}"] = c
                    translations[f":{port_class.qualified_name}.{m.name}"] = \
                        f":{port_class.qualified_name}+{NESTED}.{n}"
            kept = "" if c.kind == "test added" else (
                f"; the port's own {n} still follows the old JUnit test: it is left out of the verdicts "
                "while the translation judges; replace it by hand")
            ctx.report.add(Outcome(c, port_class.id, action[c], "passed", judged_by="translated tests",
                                   reason=f"in {port_class.name}.{NESTED} ({port_class.path}){kept}",
                                   files=[port_class.path]))
    if not written:
        return
    ctx.reindex()
    result = ctx.whole_suite_result()
    if result is not None and result.status == "compile_error":
        snap.restore()
        ctx.reindex()
        first = next((f"{d.code}: {d.message}" for d in result.diagnostics if d.severity == "error"), "")
        for o in ctx.report.outcomes:
            if o.action in ("add test", "change test") and o.change in written:
                o.status, o.reason = "for a human", f"the port's tests do not compile with it: {first}"[:200]
        return
    known = dict(ctx.runner.limits.known_failures)
    ctx.supersede({key: f"changed upstream ({', '.join(c.commits) or 'in this range'}); its translation in "
                        f"{NESTED} judges instead" for key, c in superseded.items()}
                  | {translations[key]: f"its port counterpart {key.lstrip(':')} fails on the untouched port"
                     for key in superseded if key in known})


def _helpers(found: list[str], texts: dict[str, str], names: list[str], present: dict[str, str]) -> list[str]:
    """The translated fixture's other methods the added tests call (transitively) that the port's class
    lacks: they go into the nested fixture with them."""
    wanted = {n.lower() for n in names}
    out: list[str] = []
    todo = list(found)
    while todo:
        for called in re.findall(r"\b([A-Za-z_]\w*)\s*\(", todo.pop()):
            key = called.lower()
            if key in texts and key not in wanted and key not in present:
                wanted.add(key)
                out.append(texts[key])
                todo.append(texts[key])
    return out


def _insert(path: Path, end_line: int, methods: list[str], java_rel: str) -> None:
    """Put the added methods into the class ending on `end_line`: into its nested translated fixture
    when it has one, else into a new one before the class's closing brace."""
    raw = path.read_bytes().decode("utf-8")
    newline = "\r\n" if "\r\n" in raw else "\n"
    lines = raw.split(newline)
    close = end_line - 1
    while close > 0 and "}" not in lines[close]:
        close -= 1
    outer = _indent(lines[close])
    member = next((_indent(x) for x in lines[max(0, close - 200):close] if x.strip()
                   and len(_indent(x)) > len(outer)), outer + "    ")
    unit = member[len(outer):] or "    "
    nested = next((i for i in range(close) if re.search(rf"\bclass\s+{NESTED}\b", lines[i])), None)
    if nested is not None:                  # a second sync: append to the nested fixture
        depth, end = 0, nested
        for end in range(nested, close):
            depth += lines[end].count("{") - lines[end].count("}")
            if depth == 0 and "}" in lines[end]:
                break
        block = [member + unit + x if x else "" for x in
                 [""] + [y for m in methods for y in _nested_class([m], java_rel, unit)[6:-1]]]
        lines[end:end] = block
    else:
        block = [member + x if x else "" for x in [""] + _nested_class(methods, java_rel, unit)]
        lines[close:close] = block
    path.write_bytes(newline.join(lines).encode("utf-8"))
