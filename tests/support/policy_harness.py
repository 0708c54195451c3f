"""Shared helpers for the policy tests: run Java with `java`, translate, compile with mcs, run with mono."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from tree_sitter import Parser

from repotrans.translator.java2cs import JAVA, translate_method
from repotrans.translator.resolver import NameResolver

DATA = Path(__file__).resolve().parents[1] / "data" / "policy"
needs_toolchains = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("java", "mcs", "mono")), reason="java, mcs and mono are required")


def java_methods(source: str, class_name: str) -> list[str]:
    """Source text of every method and constructor declared directly in `class_name`."""
    tree = Parser(JAVA).parse(source.encode("utf-8"))
    for decl in tree.root_node.named_children:
        name = decl.child_by_field_name("name")
        if decl.type == "class_declaration" and name is not None and name.text.decode() == class_name:
            return [m.text.decode("utf-8") for m in decl.child_by_field_name("body").named_children
                    if m.type in ("method_declaration", "constructor_declaration")]
    raise ValueError(f"class {class_name} not found")


def run(cmd: list[str], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def java_output(java_file: Path, workdir: Path) -> str:
    target = workdir / java_file.name
    shutil.copy(java_file, target)
    proc = run(["java", target.name], workdir)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def compile_cs(code: str, workdir: Path, name: str = "Prog") -> subprocess.CompletedProcess:
    source = workdir / f"{name}.cs"
    source.write_text(code, encoding="utf-8")
    return run(["mcs", "-langversion:6", "-nowarn:162,164,168,219", "-r:System.Numerics.dll", f"-out:{name}.exe",
                source.name], workdir)


def translate_into_shell(java_file: Path, shell_file: Path, class_name: str, resolver: NameResolver | None) -> str:
    methods = java_methods(java_file.read_text(encoding="utf-8"), class_name)
    translated = "\n\n".join(translate_method(m, resolver) for m in methods)
    indented = "\n".join("    " + line if line else line for line in translated.split("\n"))
    return shell_file.read_text(encoding="utf-8").replace("    //@METHODS@", indented)


def tagged(output: str) -> dict[str, list[str]]:
    """Lines "tag: value" grouped by tag."""
    groups: dict[str, list[str]] = {}
    for line in output.splitlines():
        tag, sep, value = line.partition(": ")
        if sep:
            groups.setdefault(tag, []).append(value)
    return groups


def java_and_translation_outputs(name: str, workdir: Path) -> tuple[dict[str, list[str]], dict[str, list[str]], str]:
    """DATA/<name>.java run by java, and its methods translated (ConventionResolver) into DATA/<name>.shell.cs,
    compiled by mcs and run by mono: (java's lines by tag, the translation's lines by tag, the C# code)."""
    from repotrans.translator.resolver import ConventionResolver

    expected = java_output(DATA / f"{name}.java", workdir)
    code = translate_into_shell(DATA / f"{name}.java", DATA / f"{name}.shell.cs", name, ConventionResolver())
    compiled = compile_cs(code, workdir)
    assert compiled.returncode == 0, compiled.stdout + "\n" + code
    ran = run(["mono", "Prog.exe"], workdir)
    assert ran.returncode == 0, ran.stderr
    return tagged(expected), tagged(ran.stdout), code


def java_and_shell_outputs(java: str, class_name: str, shell: str, resolver: NameResolver | None,
                           workdir: Path) -> tuple[dict[str, list[str]], dict[str, list[str]], str]:
    """A Java program given as text run by java, and its methods but `main` translated into `shell` (at
    `//@METHODS@`), compiled by mcs and run by mono: (java's lines by tag, the translation's, the C# code)."""
    (workdir / "src").mkdir()
    (workdir / "src" / f"{class_name}.java").write_text(java, encoding="utf-8")
    expected = tagged(java_output(workdir / "src" / f"{class_name}.java", workdir))
    methods = [m for m in java_methods(java, class_name) if "void main(" not in m]
    code = shell.replace("//@METHODS@", "\n\n".join(translate_method(m, resolver) for m in methods))
    compiled = compile_cs(code, workdir)
    assert compiled.returncode == 0, compiled.stdout + "\n" + code
    ran = run(["mono", "Prog.exe"], workdir)
    assert ran.returncode == 0, ran.stderr
    return expected, tagged(ran.stdout), code
