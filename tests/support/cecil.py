"""The Cecil checker (execution/capability/cecil_checker.cs) built with the real mcs, and job lines run
through it, for the capability tests that compare it with the Python checker or read its verdicts; the small
calc project compiled with one member replaced, the assemblies those tests check."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from repotrans.execution.capability import checks
from repotrans.execution.capability.checks import MemberRef
from repotrans.execution.capability.il_job import check_assembly

CALC = Path(__file__).resolve().parents[1] / "fixtures" / "dotnet" / "projects" / "calc" / "src" / "Acme.Calc"
ADD = "        public int Add(int a, int b)\n        {\n            int sum = a + b;\n            history.Add(sum);\n            return sum;\n        }\n"


def build_checker(folder: Path, name: str = "cecil_checker.exe") -> Path:
    """The checker compiled into `folder`, its rules beside it (it reads them there)."""
    exe = Path(folder) / name
    shutil.copyfile(checks.RULES, Path(folder) / checks.RULES.name)
    done = subprocess.run(checks.build_argv(str(exe), str(checks.SOURCE)), capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return exe


def cecil_verdicts(exe: Path, lines: list[str], timeout: float = 300) -> list[checks.PolicyVerdict]:
    """One verdict per checks.job_line, from one run of the checker."""
    def run(argv, stdin):
        done = subprocess.run(argv, input=stdin, capture_output=True, timeout=timeout)
        return done.returncode, done.stdout.decode(), False

    return checks.run_checker(run, str(exe), lines)


def compile_calc_with(folder: Path, name: str, member: str | None, refs: tuple[str, ...] = ()) -> Path:
    """Acme.Calc compiled by mcs into folder/name with Calculator.Add replaced by `member` (None: as it is),
    System.Core and `refs` referenced."""
    out = folder / name
    out.mkdir()
    sources = []
    for src in (CALC / "Calculator.cs", CALC / "Text" / "Greeter.cs"):     # what the project compiles
        text = src.read_text()
        if src.name == "Calculator.cs" and member is not None:
            text = text.replace(ADD, member + "\n")
        (out / src.name).write_text(text)
        sources.append(str(out / src.name))
    dll = out / "Acme.Calc.dll"
    done = subprocess.run(["mcs", "-target:library", "-unsafe", "-debug-", "-nowarn:618", f"-out:{dll}",
                           "-r:System.Core.dll", *(f"-r:{r}" for r in refs), *sources], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return dll


def both_checkers(compiled: tuple[Path, Path, dict[str, Path]], member: MemberRef, name: str,
                  allowed: frozenset[str] = frozenset()) -> list[checks.PolicyVerdict]:
    """The Cecil checker's and the Python checker's verdicts on case `name` of `compiled` (the checker, the base
    assembly, case -> assembly) against the base, asserted to name the same denials."""
    exe, base, dlls = compiled
    [cecil] = cecil_verdicts(exe, [checks.job_line(str(dlls[name]), str(base), member, allowed)])
    ours = check_assembly(dlls[name], base, member, allowed)
    assert not cecil.error and not ours.error, (cecil.error, ours.error)
    assert sorted((d.capability, d.api, d.where) for d in ours.denials) == sorted(
        (d.capability, d.api, d.where) for d in cecil.denials), (name, ours.log(), cecil.log())
    return [cecil, ours]
