"""Which candidates may share a build behind switches, and the switched text's line maps
(execution.candidate_schemata; no compiler: test_judge_batch compiles them)."""
from __future__ import annotations

from pathlib import Path

import pytest

from repotrans.execution.workspace.apply import plan_patch
from repotrans.execution.switches.candidate_schemata import SWITCH_CLASS, Switchable, combine, why_alone
from repotrans.index.store import Index

PAIR = Path(__file__).resolve().parents[2] / "fixtures" / "switched_pair"


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    index = Index.open(tmp_path_factory.mktemp("schemata_text"))
    index.build(PAIR / "java", PAIR, progress=False)
    yield index
    index.close()


def form(index, query: str, code: str):
    [m] = index.find_methods("target", query)
    original = (PAIR / m.path).read_bytes()
    return why_alone(original, m, plan_patch(original.decode(), m, code))


@pytest.mark.parametrize("code, why", [
    ("public int Add(int a, int b)\n{\n    return a + b;\n}\nprivate int Helper() { return 1; }",
     "it adds members (helpers) or is not one member"),
    ("public long Add(int a, int b)\n{\n    return a + b;\n}",
     "it changes the member's declaration"),
    ("[System.Obsolete] public int Add(int a, int b)\n{\n    return a + b;\n}",
     "it changes the member's declaration"),
    ("using System.Linq;\npublic int Add(int a, int b)\n{\n    return new[] { a, b }.Sum();\n}",
     "it changes its file outside the member (using directives)"),
    ("=> a + b;", "its body is not one block (an expression body)"),
    ("{\n    System.Func<int> f = () => a + b;\n    return f();\n}", "its body has a lambda"),
    ("{\n    return new { S = a + b }.S;\n}", "its body has an anonymous type"),
    ("{\n    int Local() { return a + b; }\n    return Local();\n}", "its body has a local function"),
    ("{\n#if DEBUG\n    return a;\n#endif\n    return a + b;\n}", "its body has a preprocessor directive"),
    ("{\n    dynamic d = a;\n    return d + b;\n}", "its body has dynamic"),
    ("{\n    return @Repotrans\\u0043andidateSwitch.On(1) ? 1 : a + b;\n}", "its body has the switches' own class"),
    ("{\n    return a + b; }\n    public int Extra() { return 0;\n}", "it adds members (helpers)"),
])
def test_what_cannot_share_a_build_is_named(index, code, why):
    found = form(index, "Arith.Add", code)
    assert isinstance(found, str) and found.startswith(why), found


def test_a_whole_declaration_with_the_same_head_shares_like_a_body(index):
    body = form(index, "Arith.Add", "{\n    return a + b;\n}")
    whole = form(index, "Arith.Add", "// sums\npublic   int Add(int a,\n    int b)\n{\n    return a + b;\n}")
    assert isinstance(body, Switchable) and isinstance(whole, Switchable)
    assert body.bodies[0][2] == whole.bodies[0][2] == b"{\n    return a + b;\n}"


def test_accessor_bodies_are_switched_and_expression_bodies_stay_alone(index):
    getter = form(index, "Words.Size", "{\n    return 3;\n}")
    assert isinstance(getter, Switchable) and [b[2] for b in getter.bodies] == [b"{\n\n    return 3;\n\n}"]
    assert form(index, "Words.Size", "public int Size\n{\n    get { return 3; }\n    set { }\n}").startswith(
        "it changes the member's declaration")
    assert form(index, "Words.Size", "public int Size => 3;").startswith("it changes the member's declaration")
    assert form(index, "Words.Twin", "{\n    return text;\n}") == \
        "its member has an expression body or an accessor without a body"
    assert isinstance(form(index, "Words.Echo", "{\n    return text + text;\n}"), Switchable)
    [plus] = [m for m in index.all_methods("target") if m.type_id.endswith("Arith") and "operator" in m.name]
    original = (PAIR / plus.path).read_bytes()
    assert why_alone(original, plus, plan_patch(original.decode(), plus, "{\n    return a;\n}")).startswith(
        "an operator or conversion")


def test_switched_lines_map_to_each_candidates_own_file(index):
    [add] = index.find_methods("target", "Arith.Add")
    [twice] = index.find_methods("target", "Arith.Twice")
    original = (PAIR / add.path).read_bytes()
    a = form(index, "Arith.Add", "{\n    int s = a + b;\n\n    return s;\n}")          # two lines longer
    t = form(index, "Arith.Twice", "{\n    return a * 2;\n}")
    switched = combine(original, [(a, 0), (t, 1)])
    text = switched.text.decode().splitlines()
    assert f"{{ if (!global::{SWITCH_CLASS}.On(0)) {{" in switched.text.decode()
    def lines_of(block: bytes) -> range:
        first = switched.text.count(b"\n", 0, switched.text.index(block)) + 1
        return range(first, first + block.count(b"\n") + 1)

    others = {0: lines_of(t.bodies[0][2]), 1: lines_of(a.bodies[0][2])}     # lines of the other switch's candidate
    for switch, cand in ((0, a), (1, t)):
        own = cand.patched.decode().splitlines()
        for line, mine in switched.lines[switch].items():        # every mapped line holds the own line's code
            if line not in others[switch]:
                assert own[mine - 1].strip() in text[line - 1] or own[mine - 1].strip() in ("}", "{")
        return_line = next(i for i, s in enumerate(own, 1) if "return" in s and ("s;" in s or "* 2" in s))
        assert return_line in switched.lines[switch].values()
    # mono names a placeholder's last throw by the next statement's line: the other candidate's first
    twice_line = next(n for n in others[0] if "return a * 2;" in text[n - 1])
    throws = [n for n, s in enumerate(original.decode().splitlines(), 1) if "throw new" in s]
    assert switched.lines[0][twice_line] == throws[1] + 2          # Twice's throw, below Add's two new lines
    assert switched.original_lines[twice_line] == throws[1]
    # the unpatched file's lines (frames in members of this file reached from another file's candidate)
    last = original.decode().splitlines()
    assert switched.original_lines[len(text)] == len(last) and text[-1] == last[-1]
