"""The runner's CHAIN lines (nunit_chain.cs): the call chains that reached a placeholder's guard, per test.

A test's chains are those recorded under its own name and under each suite above it (a fixture's set-up runs
before its tests). A record the runner had to cut (too many distinct chains) is one incomplete chain: nothing
it left out may be taken as absent.
"""
from __future__ import annotations

import base64
import binascii

from repotrans.verdicts.results import Chain, TestFailure

CUT, COMPLETE = "2", "1"
INITIALIZER = "..cctor"       # a type initializer's frame
RERUNS = 24                   # failing tests run again alone, at most, per candidate run


def read_chains(stdout: str, nonce: str, locate=None) -> dict[str, list[Chain]]:
    """Name (a test or a suite) -> the chains the runner recorded under it; lines not tagged with `nonce`
    are ignored (test output); frames' locations rewritten by `locate` (path, line) -> text."""
    prefix = f"@@RT {nonce} CHAIN "
    found: dict[str, list[Chain]] = {}
    for line in stdout.splitlines():
        if not line.startswith(prefix):
            continue
        parts = line[len(prefix):].split(" ")
        try:
            name, flag = _b64(parts[0]), parts[1]
            frames = [_locate(f, locate) for f in _b64(parts[2]).splitlines() if f]
        except (IndexError, ValueError, binascii.Error):
            continue            # a malformed line is no record: the test then has none (no placeholder's blame)
        chain = Chain(frames=[] if flag == CUT else frames, complete=flag == COMPLETE)
        found.setdefault(name, []).append(chain)
    return found


def attach(failures: list[TestFailure], chains: dict[str, list[Chain]], suites: dict[str, list[str]]) -> None:
    """Each failure's chains: its own, then its suites' (`suites`: test -> the suites above it)."""
    for failure in failures:
        failure.chains = [c for name in [failure.name, *suites.get(failure.name, [])] for c in chains.get(name, [])]


def _locate(frame: str, locate) -> str:
    head, sep, where = frame.rpartition(" at ")
    path, _, line = where.rpartition(":")
    if not sep or not path or not line.isdigit():
        return frame
    return f"{head} at " + (locate(path, int(line)) if locate else f"{path.rsplit('/', 1)[-1]}:{line}")


def _b64(text: str) -> str:
    return base64.b64decode(text, validate=True).decode("utf-8", "replace")


def rerun_after_initializers(failures: list[TestFailure], run_alone) -> None:
    """A type initializer fails once per process: the first test that touches the type records the guard's chain
    through the initializer, later tests only get the runtime's TypeInitializationException (no guard fires
    again). When a recorded chain ran through a type initializer, each failing test with no chain runs again
    alone (`run_alone(name)` -> its failures: a fresh process, where the initializer runs again under that test)
    and takes the chains the runner recorded for it there; at most RERUNS tests, the others keep none."""
    if not any(INITIALIZER in frame for f in failures for c in f.chains for frame in c.frames):
        return
    for failure in [f for f in failures if not f.chains][:RERUNS]:
        for again in run_alone(failure.name):
            if again.name == failure.name and again.chains:
                failure.chains = again.chains
