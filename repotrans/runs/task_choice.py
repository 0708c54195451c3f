"""Which C# members a batch translates: what a user means by a placeholder.

By default a task is a member of the port's code (never of a test project) whose Java counterpart the
mapping knows and whose body throws `NotImplementedException` (block or expression body, any of its usual
spellings; a property or indexer counts when one of its accessors does). A weaker form (`{ }`,
`return default;`, `return;`, `return null;`/`false`/`0`) is often complete as written: it is a task only
when its Java counterpart does more than that, or when `[tasks] weak_placeholders = true`. Each task
comes with why it is one (`batch --dry-run` shows it).
"""
from __future__ import annotations

import re

from repotrans.errors import NothingToDo
from repotrans.index.model import Method
from repotrans.index.placeholders import java_does_nothing, placeholder_form
from repotrans.index.store import Index
from repotrans.mapping.mapping import Mapping
from repotrans.mapping.task import TranslationTask
from repotrans.mapping.test_code import index_test_files, test_files

FORM_TEXT = {"empty": "`{ }`", "default": "`return default;`", "return": "`return;`",
             "literal": "a constant return (`return null;`, `false`, `0`)"}


def task_reasons(index: Index, mapping: Mapping, weak: bool = False) -> dict[str, tuple[str, str]]:
    """C# member id -> (its Java counterpart's id, why it is a task), in index order."""
    tests = test_files("target", index.files("target"), index.root("target"))
    out: dict[str, tuple[str, str]] = {}
    for m in index.all_methods("target"):
        form = placeholder_form(m.body)
        if form is None or m.path in tests or _chained_constructor(m):
            continue
        match = mapping.source_method(m.id)
        if match is None:
            continue
        why = _why(form, m, index.method(match.source_id), weak)
        if why:
            out[m.id] = (match.source_id, why)
    return out


def placeholder_tasks(index: Index, mapping: Mapping, weak: bool = False) -> list[TranslationTask]:
    """The tasks of task_reasons, as TranslationTasks."""
    return [TranslationTask(target_method_id=t, source_method_id=s)
            for t, (s, _) in task_reasons(index, mapping, weak).items()]


def _why(form: str, m: Method, java: Method | None, weak: bool) -> str:
    if form == "throws":
        return "its body throws NotImplementedException"
    if form == "accessor throws":
        return "an accessor throws NotImplementedException"
    shown = FORM_TEXT[form]
    if weak:
        return f"its body is {shown} ([tasks] weak_placeholders)"
    if m.kind == "constructor":
        return ""          # an empty C# constructor is complete far more often (field initialisers)
    if java is not None and not java_does_nothing(java.body):
        return f"its body is {shown} and the Java method does more"
    return ""


def _chained_constructor(m: Method) -> bool:
    """`C(...) : base(...)/this(...) { }`: the initializer is the whole translation, not a placeholder."""
    return m.kind == "constructor" and re.search(r"\)\s*:\s*(base|this)\s*\(", m.signature) is not None \
        and re.fullmatch(r"\{\s*\}", (m.body or "").strip()) is not None


def no_tasks(index: Index, mapping: Mapping, java_tests: tuple[str, ...] = ()) -> NothingToDo:
    """Why this pair gives a batch no task (what it saw, what it tried, what to change): the error that
    stops a dry run or a batch with exit code 1; `java_tests`: the user's Java test folders ([mapping])."""
    seen, library = [], {}
    for side, lang, places in (("source", "Java", "package"), ("target", "C#", "namespace")):
        tests = index_test_files(index, side, java_tests)
        tops = [t for t in index.types(side) if t.outer_id is None]
        library[side] = {t.id for t in tops if t.path not in tests}
        folders = sorted({t.container or "(none)" for t in tops if t.id in library[side]})
        shown = ", ".join(folders[:3]) + (f" and {len(folders) - 3} more" if len(folders) > 3 else "")
        seen.append(f"{len(library[side])} {lang} type(s) of library code ({len(tops) - len(library[side])} more in "
                    f"test code)" + (f" in {places} {shown}" if folders else ""))
    paired = [m for m in mapping.type_matches if m.source_id in library["source"]]
    saw = f"saw {seen[0]} and {seen[1]}"
    if not paired:
        return NothingToDo(
            f"nothing matched: no C# type pairs with a Java type; {saw}. Tried each Java type's name as a port "
            "writes it (the same name, an I-prefixed interface, renames such as XUtil -> XUtility, a nested type "
            "moved out, ignoring case), then names plus a word and shared member names inside the namespace its "
            "package maps to. Check that --target is the C# port of --source, or pair types under [mapping.types] "
            "in repotrans.toml")
    tests = index_test_files(index, "target")
    waiting = sum(1 for m in index.all_methods("target")
                  if m.path not in tests and placeholder_form(m.body) in ("throws", "accessor throws"))
    return NothingToDo(
        f"no tasks: {index.root('target')} has no placeholder body (`throw new NotImplementedException();`) whose "
        f"Java counterpart the mapping knows, though {len(paired)} Java type(s) pair with C# types ({saw})"
        + (f"; {waiting} placeholder(s) pair with no Java method: name them under [mapping.methods]" if waiting
           else "") + "; `repotrans batch --dry-run` lists the Java methods the port lacks")
