"""Compiler warnings that prove a candidate's line lost a value in translation.

A C# compiler proves some expressions constant and some statements empty. Java's compiler accepts the
same text with a meaning that is not constant: Java's `byte` is signed (C#'s is not, so `b == -1` is
never true), a boxed `Integer` can be null (a C# `int` cannot, so `x == null` is never true). In a
candidate such a warning is a translation error that the tests may never reach, so it is judged as a
compile error, as a project with these codes in `WarningsAsErrors` would: the diagnostic becomes an
error the refine agent reads. Only warnings located in the candidate's own lines count; the port's
own code is never judged by them."""
from __future__ import annotations

from dataclasses import replace

from repotrans.verdicts.status import COMPILE_ERROR, REJECTED
from repotrans.execution.toolchains import Verdict

# code -> what the compiler proved (the same codes in mcs, csc and Roslyn)
PROOFS = {
    "CS0652": "a comparison with a constant outside the variable's range is always false "
              "(Java's byte is signed, C#'s byte is not: use sbyte or int)",
    "CS0472": "a value type compared with null: the result is constant "
              "(a Java boxed value can be null; use a nullable type)",
    "CS0464": "a comparison with null of a nullable value type is always false",
    "CS0458": "the result of the expression is always null",
    "CS0184": "an `is` test that can never be true (the type mapping of an instanceof is wrong)",
    "CS1717": "an assignment of a variable to itself does nothing (a lost `this.` or a renamed field)",
}


def proven_wrong(verdict: Verdict) -> Verdict:
    """`verdict` judged again as a compile error when the compiler proved a candidate line wrong (a
    warning of PROOFS located in the candidate); else unchanged. A verdict that did not build or was
    rejected by the capability check keeps its cause."""
    if verdict.status in (COMPILE_ERROR, REJECTED):
        return verdict
    proofs = [d for d in verdict.diagnostics if d.code in PROOFS and d.candidate_line is not None]
    if not proofs:
        return verdict
    first = proofs[0]
    diagnostics = [replace(d, severity="error") if d in proofs else d for d in verdict.diagnostics]
    return replace(verdict, status=COMPILE_ERROR, diagnostics=diagnostics,
                   reason=f"the compiler proves candidate line {first.candidate_line} wrong: {first.code} "
                          f"{PROOFS[first.code]}" + (f" (and {len(proofs) - 1} more)" if len(proofs) > 1 else ""))
