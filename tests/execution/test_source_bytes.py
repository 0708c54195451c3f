"""A port's file that is not UTF-8 (Windows-1252, as many ports older than .NET Core keep theirs) is
read for patching as the index reads it (index.parse.source_text: its byte offsets index that text's
UTF-8), patched where the index says, and judged for real; the port itself is never touched. (A UTF-8
decode of the raw bytes failed with UnicodeDecodeError before any build: ZXing.Net's WifiResultParser.cs.)"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from repotrans.execution.workspace.apply import apply_candidate
from repotrans.index.parse import source_text
from repotrans.index.store import Index
from tests.execution.judge.test_execution_runner import ADD_TRUTH, CALC, make_index
from tests.support.runners import Runners

COMMENT = "/// <summary>Integer arithmetic used by the tests of the runner.</summary>"
CP1252 = "/// <summary>Integer arithmetic (r\xe9sum\xe9: 10 \u20ac) used by the tests of the runner.</summary>"


def _port(root: Path) -> Path:
    shutil.copytree(CALC, root, ignore=shutil.ignore_patterns("bin", "obj"))
    calc = root / "src" / "Acme.Calc" / "Calculator.cs"
    calc.write_bytes(calc.read_text().replace(COMMENT, CP1252).encode("cp1252"))
    return calc


def test_a_windows_1252_file_is_patched_where_the_index_says(tmp_path):
    calc = _port(tmp_path / "port")
    index = make_index(tmp_path, tmp_path / "port")
    try:
        [add] = index.find_methods("target", "Calculator.Add")
    finally:
        index.close()
    text = source_text(calc.read_bytes())
    patched, _ = apply_candidate(text, add, "{\n    return a + b + 0;\n}")
    before, after = text.encode("utf-8"), patched.encode("utf-8")
    assert after[:add.body_start_byte] == before[:add.body_start_byte]
    assert after.endswith(before[add.body_end_byte:])
    assert "return a + b + 0;" in patched and "r\xe9sum\xe9: 10 \u20ac" in patched


@pytest.mark.slow
def test_a_windows_1252_file_is_judged(tmp_path):
    if shutil.which("mcs") is None:
        pytest.skip("mono is not installed")
    calc = _port(tmp_path / "port")
    before = calc.read_bytes()
    index: Index = make_index(tmp_path, tmp_path / "port")
    try:
        [add] = index.find_methods("target", "Calculator.Add")
        with Runners(tmp_path / "wd", sandbox="local", timeout=60.0) as runners:
            assert runners.run(index, add, ADD_TRUTH).status == "passed"
            assert runners.run(index, add, ADD_TRUTH.replace("a + b", "a - b")).status == "test_failure"
    finally:
        index.close()
    assert calc.read_bytes() == before
