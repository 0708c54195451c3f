"""Mutant schemata: the port compiled once with every selected member guarded by a runtime switch.

Validating a task asks two questions of the covering tests: does the ground truth pass them, and
does a placeholder fail them? Per task that is two library builds (26 s each on a 1,600-file
port). Here, as mutation-testing tools do (Untch's mutant schemata; PIT and Stryker compile all
mutants in one build), each guardable member's body becomes

    { if (global::RepotransSchemataSwitch.On(<id>)) throw new global::System.NotImplementedException(); <body>

and each project that compiles one is built once, with a small internal switch class reading the
switch number from REPOTRANS_SCHEMA_SWITCH. A task then costs two test runs and no compile: switch
off (the ground truth) and its own switch on (exactly the placeholder `{ throw new
NotImplementedException(); }`: constructor initialisers and base calls stay in both). The switch is
set per test command in the sandbox's environment; a test run sees one switch, its own.

A property or an indexer is guarded in each accessor, as its placeholder throws in each (datasets.masking):
`get { <body> }` opens with the guard, `get => e;` becomes `get { <guard> return e; }` (a setter's
`set { <guard> e; }`), and `P => e;` becomes `P { get { <guard> return e; } }`; a method's `=> e;` becomes
`{ <guard> return e; }` (`{ <guard> e; }` where it returns nothing). A member is left to the per-task path
(`unguarded`) when the guard would not behave as the placeholder or not compile: an event's accessors, an
accessor without a body, iterators (`yield` defers the throw to the first MoveNext), members without a body. A
file whose guarded text does not compile gives its members back to the per-task path too (bisection by file,
from the compiler's own diagnostics).
"""
from __future__ import annotations

import re
import shutil
import time
import uuid
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from repotrans.verdicts.results import TestResult, tail
from repotrans.execution.sandboxes import Sandbox
from repotrans.execution.toolchains import Limits, PatchedFile
from repotrans.execution.toolchains.api import compile_projects, parse_mcs, rel, run_tests
from repotrans.execution.workspace.apply import LineMap
from repotrans.execution.workspace.scratch import Workspace
from repotrans.execution.workspace.reach import Reachability
from repotrans.execution.workspace.selection import choose_tests, index_tests
from repotrans.index.model import Method
from repotrans.index.parse import thread_parser

SWITCH_VAR = "REPOTRANS_SCHEMA_SWITCH"
SWITCH_CLASS = "RepotransSchemataSwitch"   # internal in each guarded assembly; a project's own copy wins
OFF = -1
MAX_ROUNDS = 6                       # compile, give back the files that broke, again
_YIELD = re.compile(rb"\byield\s+(return|break)\b")
RECORD_VAR = "REPOTRANS_SCHEMA_RECORD"   # "1": note the guards each test reaches (schemata_runs)
_SWITCH_SOURCE = """// repotrans mutant schemata switch (generated)
internal static class {name}
{{
    static int active = Read("{var}", -1);
    static readonly bool recording = Read("{record}", 0) == 1;
    static readonly bool[] seen = new bool[{count}];
    static readonly System.Collections.Generic.List<string> hits = new System.Collections.Generic.List<string>();
    static int fired;
    static bool firedInInitializer;

    static int Read(string name, int otherwise)
    {{
        int value;
        return int.TryParse(System.Environment.GetEnvironmentVariable(name), out value) ? value : otherwise;
    }}

    public static bool On(int id)
    {{
        if (recording && !seen[id]) Saw(id);
        if (id != active) return false;
        System.Threading.Interlocked.Increment(ref fired);
        if (!firedInInitializer && InInitializer()) firedInInitializer = true;
        return true;
    }}

    static void Saw(int id)
    {{
        lock (hits)
        {{
            if (seen[id]) return;
            seen[id] = true;
            hits.Add(id + (InInitializer() ? "*" : ""));
        }}
    }}

    static bool InInitializer()
    {{
        var frames = new System.Diagnostics.StackTrace(false).GetFrames();
        if (frames == null) return false;
        foreach (var frame in frames)
        {{
            var method = frame.GetMethod();
            if (method != null && method.Name == ".cctor") return true;    // mono: IsConstructor is false for it
        }}
        return false;
    }}

    // driven by the runner's schemata batches (nunit_runner.cs), by reflection
    static void Set(int id) {{ active = id; fired = 0; firedInInitializer = false; }}

    static string Drain()
    {{
        lock (hits)
        {{
            foreach (var hit in hits) seen[int.Parse(hit.TrimEnd('*'))] = false;
            string text = string.Join(",", hits.ToArray());
            hits.Clear();
            return text;
        }}
    }}

    static string Fired() {{ return fired + " " + (firedInInitializer ? 1 : 0); }}
}}
"""


def unguardable(method: Method, source: bytes) -> str | None:
    """Why `method` cannot be guarded (None: it can)."""
    if method.kind not in ("method", "constructor", "property", "indexer"):
        return f"a {method.kind}: its accessors are not guarded"
    if method.body_start_byte is None or method.body_end_byte is None:
        return "no body"
    body = source[method.body_start_byte:method.body_end_byte]
    if _YIELD.search(body):
        return "an iterator (yield): the guard would throw at the first MoveNext, the placeholder at the call"
    if _guard_edits(source, method, b"") is not None:
        return None
    return "an accessor without a body" if method.kind in ("property", "indexer") else "an expression body not found"


def guard_text(source: bytes, guards: list[tuple[Method, int]], switch_class: str) -> bytes:
    """`source` with each member's body (each accessor's, for a property or an indexer) opened by its
    switch's guard."""
    edits: list[tuple[int, int, bytes]] = []
    for method, switch in guards:
        guard = (f" if (global::{switch_class}.On({switch})) throw new global::System.NotImplementedException();"
                 ).encode()
        edits += _guard_edits(source, method, guard) or []
    for start, end, text in sorted(edits, reverse=True):
        source = source[:start] + text + source[end:]
    return source


def _guard_edits(source: bytes, method: Method, guard: bytes) -> list[tuple[int, int, bytes]] | None:
    """(start, end, text) replacing source[start:end] so that `method`'s body (each accessor of a property or an
    indexer) opens with `guard`; None when a body to guard is not found."""
    if method.kind in ("property", "indexer"):
        return _accessor_edits(source, method, guard)
    if source[method.body_start_byte:method.body_end_byte].lstrip().startswith(b"{"):
        brace = source.index(b"{", method.body_start_byte) + 1
        return [(brace, brace, guard)]
    edit = _arrow_edit(source, method, guard)
    return None if edit is None else [edit]


def _arrow_edit(source: bytes, method: Method, guard: bytes) -> tuple[int, int, bytes] | None:
    """(start, end, text) turning a method's or constructor's expression body into a block that opens with
    `guard`: `=> e;` becomes `{ guard return e; }`, or `{ guard e; }` where nothing is returned (void, a
    constructor, an async method of Task or ValueTask); None when the body is not found."""
    node = _body_node(source, method, ("arrow_expression_clause",))
    if node is None:
        return None
    value = _expression(node)
    returns = (method.return_type or "void").split("<")[0].split(".")[-1].strip()
    nothing = method.kind == "constructor" or returns == "void" or (
        "async" in method.modifiers and returns in ("Task", "ValueTask") and "<" not in (method.return_type or ""))
    statement = b" " + value + b";" if nothing else _returned(value)
    return node.start_byte, _with_semicolon(node), b"{" + guard + statement + b" }"


def _body_node(source: bytes, member: Method, kinds: tuple[str, ...]):
    """The syntax node of one of `kinds` that starts where `member`'s body starts (None: none does)."""
    node = _tree(source).root_node.descendant_for_byte_range(member.body_start_byte, member.body_start_byte)
    while node is not None and node.type not in kinds:
        node = node.parent
    return node if node is not None and node.start_byte == member.body_start_byte else None


@lru_cache(maxsize=8)
def _tree(source: bytes):
    """One file's syntax tree, parsed once for all its members (a big port's file holds hundreds of properties)."""
    return thread_parser("csharp").parse(source)


def _with_semicolon(arrow) -> int:
    """Where an arrow clause ends, with the `;` after it."""
    after = arrow.next_sibling
    return after.end_byte if after is not None and after.type == ";" else arrow.end_byte


def _accessor_edits(source: bytes, member: Method, guard: bytes) -> list[tuple[int, int, bytes]] | None:
    """(start, end, text) replacing source[start:end] so that each accessor of the property or indexer
    `member` opens with `guard`; None when one has no body (an auto accessor) or the body is not found."""
    node = _body_node(source, member, ("accessor_list", "arrow_expression_clause"))
    if node is None:
        return None
    if node.type == "arrow_expression_clause":            # P => e;  ->  P { get { guard return e; } }
        return [(node.start_byte, _with_semicolon(node), b"{ get {" + guard + _returned(_expression(node)) + b" } }")]
    edits = []
    for accessor in (c for c in node.named_children if c.type == "accessor_declaration"):
        body = accessor.child_by_field_name("body")
        if body is None:
            return None
        if body.type == "block":
            edits.append((body.start_byte + 1, body.start_byte + 1, guard))
        else:                                             # get => e;  ->  get { guard return e; }
            value = _expression(body)
            statement = _returned(value) if accessor.child_by_field_name("name").text == b"get" else b" " + value + b";"
            edits.append((body.start_byte, accessor.end_byte, b"{" + guard + statement + b" }"))
    return edits


def _expression(arrow) -> bytes:
    """The expression of an arrow clause (`=> e`: e, as written)."""
    return arrow.text[2:].strip() if arrow.text.startswith(b"=>") else arrow.text


def _returned(value: bytes) -> bytes:
    """A getter's statement for its arrow's expression: `return e;`, or `throw x;` for a throw expression."""
    return b" " + value + b";" if re.match(rb"throw\b", value) else b" return " + value + b";"


@dataclass
class Schemata:
    """One build of the port with every guarded member behind its switch."""
    ws: Workspace
    folder: Path                                   # guarded sources, switch classes, outputs
    switches: dict[str, int] = field(default_factory=dict)       # method id -> switch
    unguarded: dict[str, str] = field(default_factory=dict)      # method id -> why (per-task path)
    built: dict[str, Path] = field(default_factory=dict)         # project name -> outputs
    changed: dict[str, list] = field(default_factory=dict)       # file path -> projects compiling it
    seconds: float = 0.0
    routes: dict[str, int] = field(default_factory=dict)         # how many tasks each way decided
    phases: dict[str, float] = field(default_factory=dict)       # validation step -> its wall seconds
    reach: Reachability = field(default_factory=Reachability)    # the call graph behind covering tests

    def count(self, route: str) -> None:
        self.routes[route] = self.routes.get(route, 0) + 1

    def switch(self, method_id: str) -> int | None:
        return self.switches.get(method_id)


def build_schemata(tc, ws: Workspace, index, methods: list[Method], sandbox: Sandbox, limits: Limits,
                   reach: Reachability | None = None) -> Schemata:
    """Guard every guardable method and compile each project holding one once (after the baseline);
    `reach`: the call graph its covering tests are (or are being) selected with."""
    started = time.monotonic()
    tc.baseline(ws, sandbox, limits)
    projects = tc.plan(ws).chosen
    schemata = Schemata(ws, ws.root / "schemata" / uuid.uuid4().hex[:12], reach=reach or Reachability())
    by_file: dict[str, list[Method]] = {}
    for method in methods:
        source = (ws.src / method.path).read_bytes()
        why = unguardable(method, source)
        compiling = [p for p in projects if (ws.src / method.path).resolve() in p.sources]
        if why is None and not compiling:
            why = "its file is compiled by no project"
        if why is not None:
            schemata.unguarded[method.id] = why
            continue
        by_file.setdefault(method.path, []).append(method)
        schemata.changed[method.path] = compiling
    next_id = 0
    for path in sorted(by_file):
        for method in by_file[path]:
            schemata.switches[method.id] = next_id
            next_id += 1
    for _ in range(MAX_ROUNDS):
        broken = _compile(tc, schemata, by_file, projects, sandbox, limits)
        if not broken:
            break
        for path, why in broken.items():                # give these files' members to the per-task path
            for method in by_file.pop(path):
                schemata.switches.pop(method.id, None)
                schemata.unguarded[method.id] = f"its guarded file does not compile: {why}"
            schemata.changed.pop(path, None)
    else:
        for path in list(by_file):
            for method in by_file.pop(path):
                schemata.switches.pop(method.id, None)
                schemata.unguarded[method.id] = "the schemata build did not compile"
        schemata.built = {}
    schemata.seconds = time.monotonic() - started
    return schemata


def _compile(tc, schemata: Schemata, by_file: dict[str, list[Method]], projects: list, sandbox: Sandbox,
             limits: Limits) -> dict[str, str]:
    """Build every project compiling a guarded file; returns {file: first error} for files that broke."""
    ws = schemata.ws
    shutil.rmtree(schemata.folder, ignore_errors=True)
    swap: dict[Path, Path] = {}
    for path, methods in by_file.items():
        guarded = schemata.folder / "patched" / path
        guarded.parent.mkdir(parents=True, exist_ok=True)
        guarded.write_bytes(guard_text((ws.src / path).read_bytes(),
                                       [(m, schemata.switches[m.id]) for m in methods],
                                       SWITCH_CLASS))
        swap[(ws.src / path).resolve()] = guarded
    touched = {p.path for ps in schemata.changed.values() for p in ps if any(s in swap for s in p.sources)}
    order = [p for p in projects if p.path in touched]
    switch_file = schemata.folder / "switch" / f"{SWITCH_CLASS}.cs"
    switch_file.parent.mkdir(parents=True, exist_ok=True)
    switch_file.write_text(_SWITCH_SOURCE.format(name=SWITCH_CLASS, var=SWITCH_VAR, record=RECORD_VAR,
                                                 count=max(schemata.switches.values(), default=0) + 1))
    build = compile_projects(ws, sandbox, limits, projects, order, schemata.folder / "out", swap=swap,
                             extra={p.path: [switch_file] for p in order}, scan=tc.guard_scan)
    schemata.built = build.built
    if build.ok:
        return {}
    broken: dict[str, str] = {}
    prefix = rel(schemata.folder / "patched", ws) + "/"
    for diag in parse_mcs(build.output, ws, None):
        if diag.severity == "error" and diag.file.startswith(prefix):
            broken.setdefault(diag.file[len(prefix):], f"{diag.code} {diag.message}")
    if not broken:                              # an error outside the guarded files: give this project's back
        why = "mcs timed out" if build.timed_out else f"mcs exit {build.exit_code}"
        broken = {path: why for path in by_file if (ws.src / path).resolve() in build.failed.sources}
    return broken


def covering_tests(tc, schemata: Schemata, index, method: Method):
    """The runner's selection of `method`'s covering tests (execution.selection)."""
    return covering_selections(tc, schemata.ws, index, [method], schemata.reach)[method.id]


def covering_selections(tc, ws: Workspace, index, methods: list[Method], reach: Reachability,
                        scanned: dict | None = None) -> dict[str, object]:
    """Method id -> the runner's selection of its covering tests, with the call graph `reach` (needs no
    build: a caller may run it beside the schemata build, whose compilers run outside Python); `scanned`:
    test files read beforehand (selection.scan_test_files)."""
    from repotrans.execution.judge.runner import covering_names, member_tokens

    fixtures = index_tests(ws, tc.test_projects(ws), scanned)
    return {m.id: choose_tests(index, m, fixtures, covering_names(index, m), member_tokens(index, m), reach)
            for m in methods}


def run_switch(tc, schemata: Schemata, index, method: Method, switch: int, sandbox: Sandbox, limits: Limits,
               chosen=None) -> TestResult:
    """The covering tests of `method` (`chosen`, else selected here) on the schemata build with one
    switch on (OFF: none)."""
    ws = schemata.ws
    started = time.monotonic()
    chosen = chosen or covering_tests(tc, schemata, index, method)
    limits = replace(limits, timeout=chosen.timeout(limits.timeout))
    projects = tc.plan(ws).chosen
    changed = [p for p in projects if p.name in schemata.built and (ws.src / method.path).resolve() in p.sources]
    with ws.run_dir() as run_dir:
        cand = PatchedFile(path=method.path, text="", line_map=LineMap(), surface_changed=False, run_dir=run_dir)
        verdict = run_tests(ws, cand, projects, changed, schemata.built, chosen.tests, sandbox, limits,
                            env={SWITCH_VAR: str(switch)})
    return TestResult(status=verdict.status, diagnostics=verdict.diagnostics, failures=verdict.failures,
                      exceptions=verdict.exceptions, tests_run=verdict.tests_run, tests_failed=verdict.tests_failed,
                      timings={"total": round(time.monotonic() - started, 3), **verdict.timings},
                      log_tail=tail(verdict.log), reason=verdict.reason, selected=chosen.tests or [],
                      selection=chosen.describe(), translated=list(chosen.translated), left_out=dict(verdict.left_out))
