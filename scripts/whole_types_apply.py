"""Which regenerated bodies bench_whole_types writes into the port: those that passed their tests in the batch,
then, class by class, the compiled bodies of a class together when the class's translated JUnit tests pass
with all of them (a body of a regenerated class is judged while its siblings are placeholders: BitSource's
constructor test calls available(), whose test needs the constructor; each alone ends in the other's
NotImplementedException), then the classes that failed alone all together (classes that call each other),
with the compiled bodies of the classes that have no translated test of their own (judged by every translated
test when no class failed alone).
A set of bodies is applied when no translated test fails with it except by stopping in a placeholder (a member
left out or whose body failed: a NotImplementedException, no assertion failed), and every translated file that
built before the bodies still builds. Only translated tests judge here, never the port's hidden ones.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Callable

from repotrans.execution.workspace.apply import apply_candidate
from repotrans.runs.store import RunStore
from repotrans.index.store import Index

Judge = Callable[[Path, list[str], Path], tuple[int, int, str, list[str]]]


def stopped_in_placeholders(count: int) -> str:
    """A judge's reason when every failing test stopped in a NotImplementedException (no assertion failed)."""
    return f"{count} test(s) stopped in a placeholder (NotImplementedException), no assertion failed"


def _uncontradicted(ran: int, failed: int, why: str, not_built: list[str], unbuilt_before: set[str]) -> bool:
    """The translated tests ran and none contradicts the bodies: all pass, or the failing ones only stop in
    placeholders, and every translated file that built before the bodies still builds (one the translation left
    unbuildable, HdrHistogram's HistogramTest with its JDK buffers, says nothing about them)."""
    return bool(ran) and not set(not_built) - unbuilt_before and (not failed or why == stopped_in_placeholders(failed))


def own_test_file(cls: str, file_name: str) -> bool:
    """Whether a test file is one of the class's own: `<Class>*Test*.cs` or `Test<Class>*.cs`."""
    return re.fullmatch(re.escape(cls) + r"\w*Test\w*\.cs|Test" + re.escape(cls) + r"\w*\.cs", file_name) is not None


def apply_bodies(run_dir: Path, port: Path, source: Path, translated: list[str], judge: Judge,
                 work: Path) -> tuple[int, int, Counter]:
    """Write the passing bodies into the port, then each class's other compiled bodies together when its
    translated tests (`translated`, judged by `judge`) all pass with them; (passed alone, applied as a class,
    the compiled ones left as placeholders by verdict)."""
    store = RunStore(run_dir)
    records = [r for r in store.records() if r.compiled and r.code]
    store.close()
    index = Index.open(run_dir / "applied-index")
    index.build(source, port, progress=False)
    applied, left, rest = 0, Counter(), []
    for rec in sorted(records, key=lambda r: r.task_id):
        m = index.method("target:" + rec.task_id)
        if m is None:
            left["not found"] += 1
        elif rec.status != "passed":
            rest.append(rec)
        else:
            _write(port, [(m, rec.code)])
            index.build(source, port, progress=False)
            applied += 1
    unbuilt_before = set(judge(port, translated, work / "before-bodies")[3]) if translated and rest else set()
    joint, failing, untested = 0, [], []
    groups: dict[str, list] = {}
    for rec in rest:                    # a nested class's bodies go with its outer class: the class's tests reach them
        groups.setdefault(_outermost(index, index.method("target:" + rec.task_id).type_id), []).append(rec)
    for number, (type_id, recs) in enumerate(sorted(groups.items())):
        name = type_id.rsplit(".", 1)[-1]
        tests = [t for t in translated if own_test_file(name, Path(t).name)]
        if not tests:
            untested.append(recs)
            continue
        pairs = [(index.method("target:" + r.task_id), r.code) for r in recs]
        saved = {m.path: (port / m.path).read_text(encoding="utf-8") for m, _ in pairs}
        _write(port, pairs)
        ran, failed, why, not_built = judge(port, tests, work / f"class-{number}")
        print(f"  {name}: its translated tests pass {ran - failed}/{ran} with its {len(recs)} other compiled bodies"
              + (f" ({why})" if why else "") + (f"; not built: {', '.join(not_built)}" if not_built else ""))
        if _uncontradicted(ran, failed, why, not_built, unbuilt_before):
            joint += len(recs)
        else:
            for rel, text in saved.items():
                (port / rel).write_text(text, encoding="utf-8")
            failing.append((name, recs, tests))
        index.build(source, port, progress=False)
    joint += _together(failing, index, port, source, judge, work, left, [r for recs in untested for r in recs],
                       unbuilt_before, translated)
    index.close()
    return applied, joint, left


def _outermost(index: Index, type_id: str) -> str:
    """The top-level type holding `type_id` (itself when it is one): libphonenumber's RegexCache.LRUCache is
    RegexCache's."""
    t = index.type(type_id)
    while t is not None and t.outer_id is not None:
        type_id, t = t.outer_id, index.type(t.outer_id)
    return type_id


def _together(failing: list, index: Index, port: Path, source: Path, judge: Judge, work: Path,
              left: Counter, untested: list | None = None, unbuilt_before: set[str] | None = None,
              translated: list[str] | None = None) -> int:
    """The classes that failed alone, all together with the compiled bodies of the classes that have no
    translated test of their own (`untested`: HdrHistogram's HistogramData tests stop in HistogramIterationValue,
    which has none), their bodies in at once, judged by all the failing classes' translated tests (a TextNode body
    calls StringUtil's, whose tests reach TextNode's), or by every translated test when no class failed alone
    (HdrHistogram's iterators beside an applied Histogram); the bodies applied, or none."""
    untested = untested or []
    recs = [r for _, rs, _ in failing for r in rs] + untested
    tests = sorted({t for _, _, ts in failing for t in ts}) if failing else sorted(translated or [])
    if not tests or not untested and len(failing) < 2:
        left.update(r.status for r in recs)
        return 0
    pairs = [(index.method("target:" + r.task_id), r.code) for r in recs]
    saved = {m.path: (port / m.path).read_text(encoding="utf-8") for m, _ in pairs}
    _write(port, pairs)
    ran, failed, why, not_built = judge(port, tests, work / "classes-together")
    names = ", ".join([name for name, _, _ in failing] + (["the untested classes"] if untested else []))
    print(f"  {names} together: their translated tests pass {ran - failed}/{ran} with their {len(recs)} other "
          f"compiled bodies" + (f" ({why})" if why else "") + (f"; not built: {', '.join(not_built)}" if not_built else ""))
    if _uncontradicted(ran, failed, why, not_built, unbuilt_before or set()):
        index.build(source, port, progress=False)
        return len(recs)
    for rel, text in saved.items():
        (port / rel).write_text(text, encoding="utf-8")
    left.update(r.status for r in recs)
    index.build(source, port, progress=False)
    return 0


def _write(port: Path, pairs: list) -> None:
    """Apply (method, code) pairs, bottom-up within each file so earlier offsets stay put."""
    for m, code in sorted(pairs, key=lambda p: (p[0].path, -p[0].start_byte)):
        path = port / m.path
        text, _ = apply_candidate(path.read_text(encoding="utf-8"), m, code)
        path.write_text(text, encoding="utf-8")
