"""Placeholder detection, the run store, metrics and dependency ordering."""
import sqlite3

import pytest

from repotrans.reports.metrics import intersections, overlap, rate_rows
from repotrans.runs.ordering import dependency_graph, java_calls, order_levels
from repotrans.runs.store import RunStore, TaskRecord
from repotrans.index.model import Method, Param
from repotrans.index.placeholders import is_placeholder


@pytest.mark.parametrize("body", [
    "{ throw new NotImplementedException(); }",
    "{\n  throw new System.NotImplementedException(\"todo\");\n}",
    "{ return default(T); }", "{ return default(IList<int>); }", "{ return default; }",
    "{return null;}", "{ return 0; }", "{ return false; } // later", "{ return; }",
    "{ }", "=> throw new NotImplementedException();", "=> default(T);",
])
def test_placeholder_bodies(body):
    assert is_placeholder(body)


@pytest.mark.parametrize("body", [
    None, "{ return x; }", "{ return 1; }", "{ throw new ArgumentException(\"x\"); }",
    "{ Foo(); }", "=> x * 2;", "{ get { return count; } }", "{ return null ?? y; }",
])
def test_real_bodies_are_not_placeholders(body):
    assert not is_placeholder(body)


def _rec(config, task, status, dataset="d", **kw):
    return TaskRecord(config=config, dataset=dataset, task_id=task, status=status, **kw)


def test_run_store_round_trip_and_replace(tmp_path):
    store = RunStore(tmp_path)
    store.add(_rec("full", "t1", "compile_error", prompt_tokens=10, result={"status": "compile_error"}))
    store.add(_rec("full", "t1", "passed", prompt_tokens=20, code="int F() { return 1; }"))
    store.add(_rec("full", "t2", "timeout"))
    store.close()
    store = RunStore(tmp_path)
    recs = store.records()
    assert [(r.task_id, r.status, r.prompt_tokens) for r in recs] == [("t1", "passed", 20), ("t2", "timeout", 0)]
    assert store.done("full", "d") == {"t1", "t2"} and store.done("full", "other") == set()
    with pytest.raises(ValueError):
        store.add(_rec("full", "t3", "great"))


def test_run_store_rejects_other_schema(tmp_path):
    db = sqlite3.connect(tmp_path / "results.sqlite")
    db.execute("PRAGMA user_version=99")
    db.close()
    with pytest.raises(RuntimeError, match="schema 99"):
        RunStore(tmp_path)


def test_rates_errors_and_overlap():
    recs = [
        _rec("full", "a", "passed", prompt_tokens=100), _rec("full", "b", "passed", prompt_tokens=50),
        _rec("full", "c", "test_failure"), _rec("full", "d", "compile_error", prompt_tokens=30),
        _rec("direct", "a", "passed"), _rec("direct", "b", "compile_error"),
        _rec("direct", "c", "timeout"), _rec("direct", "d", "runtime_error"),
    ]
    rows = {r.config: r for r in rate_rows(recs)}
    full, direct = rows["full"], rows["direct"]
    assert (full.tasks, full.compiled, full.passed) == (4, 3, 2)
    assert full.compile_rate == 0.75 and full.pass_rate == 0.5
    assert full.errors == {"test failure": 1, "compilation error": 1}
    assert full.prompt_tokens == 45.0
    assert direct.errors == {"compilation error": 1, "non-termination": 1, "runtime error": 1}
    ov = overlap(recs)
    assert ov["solved"] == {"full": 2, "direct": 1}
    assert ov["pairs"] == {"direct & full": 1}
    assert ov["unique"] == {"full": ["d/b"], "direct": []}
    assert intersections(recs) == [(frozenset({"full", "direct"}), 1), (frozenset({"full"}), 1)]


def test_rates_add_an_all_row_over_datasets():
    recs = [_rec("full", "a", "passed", dataset="x"), _rec("full", "a", "compile_error", dataset="y")]
    rows = [(r.config, r.dataset, r.passed, r.tasks) for r in rate_rows(recs)]
    assert rows == [("full", "x", 1, 1), ("full", "y", 0, 1), ("full", "all", 1, 2)]


def test_java_calls_names_and_arity():
    body = "{ int x = foo(1, 2); bar(); this.baz(x); List<A> l = new ArrayList<>(); return new Point(1, 2).len(); }"
    assert java_calls(body) == {("foo", 2), ("bar", 0), ("baz", 1), ("<init>:ArrayList", 0),
                                ("<init>:Point", 2), ("len", 0)}


def _m(type_id, name, params, body, kind="method"):
    return Method(id=f"{type_id}.{name}", side="source", type_id=type_id, kind=kind, name=name,
                  params=[Param(p, "int", varargs=p.startswith("...")) for p in params],
                  return_type="int", modifiers=[], annotations=[], type_params=[], signature="",
                  body=body, path="X.java", start_line=1, end_line=1, start_byte=0, end_byte=0)


def test_dependency_order_callees_first_and_cycles_share_a_level():
    tasks = {
        "area": _m("source:P.Shape", "area", [], "{ return width() * height(); }"),
        "width": _m("source:P.Shape", "width", [], "{ return w; }"),
        "height": _m("source:P.Shape", "height", [], "{ return clamp(h); }"),
        "clamp": _m("source:P.Util", "clamp", ["v"], "{ return v; }"),
        "even": _m("source:P.Util", "even", ["n"], "{ return n == 0 ? 1 : odd(n - 1); }"),
        "odd": _m("source:P.Util", "odd", ["n"], "{ return n == 0 ? 0 : even(n - 1); }"),
        "sum": _m("source:P.Util", "sum", ["...xs"], "{ return 0; }"),
        "total": _m("source:P.Util", "total", [], "{ return sum(1, 2, 3) + clamp(1, 2); }"),
        "ctor": _m("source:P.Box", "<init>", ["a"], "{ }", kind="constructor"),
        "make": _m("source:P.Util", "make", [], "{ return new Box(1).hashCode(); }"),
    }
    deps = dependency_graph(tasks)
    assert deps["area"] == {"width", "height"} and deps["height"] == {"clamp"}
    assert deps["total"] == {"sum"}          # clamp(1, 2) has the wrong arity
    assert deps["make"] == {"ctor"}
    levels = order_levels(deps)
    assert levels == [["clamp", "ctor", "even", "odd", "sum", "width"], ["height", "make", "total"], ["area"]]


def test_calls_on_a_jdk_receiver_are_no_edges_to_project_methods_of_that_name():
    """Issue 34: `StringBuilder.toString()` was linked to the port's `Patch.toString()` and `String.equals`
    to `Key.equals`, putting tasks in the wrong level."""
    tasks = {
        "describe": _m("source:P.Report", "describe", [], "{ StringBuilder sb = new StringBuilder(); String s = \"a\";"
                       " return sb.toString() + s.equals(\"b\") + Math.max(1, 2); }"),
        "show": _m("source:P.Report", "show", ["p"], "{ Patch q = p; return q.toString() + q.equals(p); }"),
        "toString": _m("source:P.Patch", "toString", [], "{ return \"\"; }"),
        "equals": _m("source:P.Key", "equals", ["o"], "{ return false; }"),
        "max": _m("source:P.Range", "max", ["a", "b"], "{ return a; }"),
    }
    deps = dependency_graph(tasks)
    assert deps["describe"] == set()
    assert deps["show"] == {"toString", "equals"}     # a project receiver (or an unknown one) keeps its edges
