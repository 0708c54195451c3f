"""C#'s local scopes where Java's differ (issue 34): jsoup's HtmlTreeBuilder.insert declares `Element el` in an
if block and again after it, which Java allows and C# rejects (CS0136, NSoup's Insert(Token.StartTag)). The
nested declaration takes a fresh name; a for loop's variable alike; sibling blocks keep theirs."""
from __future__ import annotations

import pytest

from repotrans.translator.java2cs import translate_method
from tests.support.policy_harness import compile_cs, needs_toolchains

JAVA = """int insert(int tag) {
    if (tag < 0) {
        int el = -tag;
        return el + 1;
    }
    for (int i = 0; i < tag; i++) { tag--; }
    if (tag > 10) { int other = 1; tag += other; } else { int other = 2; tag += other; }
    int el = tag * 2;
    int i = el;
    return el + i;
}"""

SHELL = """public static class Program
{
//@CANDIDATE@
    public static void Main() { System.Console.WriteLine(Insert(-3) + " " + Insert(4) + " " + Insert(20)); }
}
"""


def test_a_nested_local_the_enclosing_block_declares_again_is_renamed():
    code = translate_method(JAVA, None, "public static int Insert(int tag)")
    assert "int el2 = -tag;" in code and "return el2 + 1;" in code, code
    assert "for (int i2 = 0; i2 < tag; i2++)" in code, code
    assert code.count("int other = ") == 2                   # sibling blocks: no conflict
    assert "int el = tag * 2;" in code and "int i = el;" in code


@needs_toolchains
@pytest.mark.slow
def test_the_renamed_locals_compile_and_run_as_java(tmp_path):
    from tests.support.policy_harness import run

    code = translate_method(JAVA, None, "public static int Insert(int tag)")
    proc = compile_cs(SHELL.replace("//@CANDIDATE@", code), tmp_path, "Scopes")
    assert proc.returncode == 0, proc.stdout + proc.stderr + code
    assert run(["mono", "Scopes.exe"], tmp_path).stdout.split() == ["4", "16", "48"]     # as Java computes it
