"""A type initializer fails once per process: later tests touching the type get no guard chain, so each
failing test with no chain, in a run where a chain ran through a type initializer, runs again alone and takes
the chain the runner records for it there (toolchains.chains.rerun_after_initializers)."""
from __future__ import annotations

from repotrans.execution.toolchains.chains import RERUNS, rerun_after_initializers
from repotrans.verdicts.results import Chain, TestFailure

INIT = Chain(["Geo.Vector..ctor (System.Double x, System.Double y) at V.cs:5", "Geo.Vector..cctor () at V.cs:3",
              "Geo.Tests.VectorTests.SetUp () at T.cs:9"])
PLAIN = Chain(["Geo.Vector.AngleTo (Geo.Vector other) at V.cs:6", "Geo.Tests.VectorTests.Angle () at T.cs:12"])


def _failure(name: str, *chains: Chain) -> TestFailure:
    return TestFailure(name=f"Geo.Tests.VectorTests.{name}", message="x", chains=list(chains))


def test_chainless_failures_after_a_failed_initializer_run_again_alone_and_take_their_own_chain():
    asked: list[str] = []

    def alone(name: str) -> list[TestFailure]:
        asked.append(name)
        return [TestFailure(name=name, message="x", chains=[INIT])] if name.endswith("Dot") else []

    first, dot, passes_alone = _failure("Cross", INIT), _failure("Dot"), _failure("Add")
    rerun_after_initializers([first, dot, passes_alone], alone)
    assert asked == ["Geo.Tests.VectorTests.Dot", "Geo.Tests.VectorTests.Add"]
    assert dot.chains == [INIT] and passes_alone.chains == []     # a test that passes alone has no chain to take


def test_nothing_runs_again_without_an_initializer_on_a_chain_and_at_most_reruns_tests():
    asked: list[str] = []
    rerun_after_initializers([_failure("Angle", PLAIN), _failure("Dot")], lambda n: asked.append(n) or [])
    assert asked == []
    many = [_failure("Cross", INIT)] + [_failure(f"T{i}") for i in range(RERUNS + 5)]
    rerun_after_initializers(many, lambda n: asked.append(n) or [])
    assert len(asked) == RERUNS
