"""End to end, a placeholder kept by the port for later never excuses a wrong body: real batches (`repotrans
batch`, mcs, the runner, NUnit) under both sandboxes on the sample with IsBlank and FormatNumber masked, and a
port hook added to the masked copy: `Deferred` keeps a callback in a static field, and the port runs it later,
where the caller is long gone (Preconditions.CheckArgument, which AbstractShape's constructor calls right after
IsBlank, runs it first; or a type initializer it touches runs it once).

IsBlank's wrong bodies are right on their own tests and wrong on shape names (a name is "blank"), and hand the
FormatNumber placeholder to the hook (a lambda calling it, the method group itself, the same for the type
initializer, or the delegate the port itself holds in `Deferred.Formatter`, naming no member on the chain), so
the shape tests stop in the placeholder's guard before their wrong ArgumentException: the chain the runner
records holds no frame of IsBlank (the method group, the port's delegate) or only a lambda's. The port's
delegate was judged blocked, then partial, before chain.Members.holders. Each is a failure and never written, in both orders with the
right body, with --write, --patch and --batch-candidates; the right body after it is `partial` while
FormatNumber stays a placeholder (held back), `passed` and written once FormatNumber is right."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.sample_masking import masked_sample
from tests.support.scripted_batch import (FORMAT, IS_BLANK, ScriptedModel, member_text, run_batch, same, sample_index,
                                          statuses, truth)

pytestmark = pytest.mark.slow
# the port hook: a callback kept in a static field, run later by the port (directly, or by a type initializer)
DEFERRED = """using System;

namespace Acme.Common
{
    /// <summary>Callbacks the port keeps and runs later.</summary>
    public static class Deferred
    {
        /// <summary>The port's own formatter, as a delegate.</summary>
        public static readonly Func<double, int, string> Formatter = StringUtils.FormatNumber;
        private static Func<double, int, string> pending;
        private static Func<double, int, string> once;

        public static void Keep(Func<double, int, string> callback) { pending = callback; }

        public static void KeepForInit(Func<double, int, string> callback) { once = callback; }

        public static string Flush()
        {
            var p = pending;
            pending = null;
            return p == null ? "" : p(1.0, 0);
        }

        internal static string FlushOnce() { var p = once; once = null; return p == null ? "" : p(2.0, 0); }
    }

    /// <summary>Runs the callback kept for initialization, once, when first touched.</summary>
    public static class Later
    {
        public static readonly string Value = Deferred.FlushOnce();

        public static void Touch() { }
    }
}
"""
CHECK = "        public static void CheckArgument(bool condition, string message)\n        {\n"
WRONG = """public static bool IsBlank(string text)
{
    if (text == null || text.Trim().Length == 0)
    {
        return true;
    }
    %s
    return !text.Contains(" ");
}"""
FORMS = {"lambda": "Deferred.Keep((v, d) => FormatNumber(v, d));", "group": "Deferred.Keep(FormatNumber);",
         "initializer": "Deferred.KeepForInit(FormatNumber);", "port's delegate": "Deferred.Keep(Deferred.Formatter);"}
MARKS = tuple(FORMS.values()) + ("return value.ToString();",)
WRONG_FORMAT = "public static string FormatNumber(double value, int maxDecimals)\n{\n    return value.ToString();\n}"


def wrong(name: str, kind: str) -> str:
    """FormatNumber's wrong body fails its tests; IsBlank's wrong body of `kind` is one of FORMS."""
    return WRONG_FORMAT if name == "FormatNumber" else WRONG % FORMS[kind]


@pytest.fixture(scope="module")
def full(tmp_path_factory):
    yield from sample_index(tmp_path_factory)


@pytest.fixture(scope="module")
def workdirs(tmp_path_factory) -> dict[str, Path]:
    return {s: tmp_path_factory.mktemp(f"deferred-{s}") for s in ("local", "docker")}


def hooked(root: Path) -> tuple[Path, Path]:
    """The masked sample with the port hook: Deferred.cs, and CheckArgument running what is kept."""
    java, cs = masked_sample(root, IS_BLANK, FORMAT)
    common = cs / "src" / "Acme.Geo" / "Common"
    (common / "Deferred.cs").write_text(DEFERRED)
    pre = common / "Preconditions.cs"
    text = pre.read_text()
    assert CHECK in text
    pre.write_text(text.replace(CHECK, CHECK + "            Deferred.Flush();\n            Later.Touch();\n"))
    return java, cs


def batch(full, workdir: Path, tmp: Path, sandbox: str, scripts: dict[str, list[str]], *flags: str):
    java, cs = hooked(tmp)
    config = ("[agents]\nrag = false\nmax_repair_rounds = 1\n[model]\nmax_retries = 0\n"
              f"[execution]\nsandbox = \"{sandbox}\"\n")
    rc, summary = run_batch(ScriptedModel(full, scripts, wrong), java, cs, tmp, config, workdir, *flags)
    return rc, summary, cs


SCENARIOS = [
    # (id, scripts, flags, final statuses, members written with their right body, exit status)
    *[(f"{form} then right, --write --batch-candidates", {"IsBlank": [form, "right"], "FormatNumber": ["wrong"]},
       ["--write", "--batch-candidates"], {"IsBlank": "partial", "FormatNumber": "failed"}, [], 3) for form in FORMS],
    # both tasks pending at once share one compile and one test process (--jobs 2 --batch-candidates): the kept
    # callback of one candidate runs in tests judging the other's, whichever comes first
    *[(f"{form} and the callee's wrong body in one run, then both right, --jobs 2 --batch-candidates --write --patch",
       {"IsBlank": [form, "right"], "FormatNumber": ["wrong", "right"]},
       ["--jobs", "2", "--batch-candidates", "--write", "--patch"], {"IsBlank": "passed", "FormatNumber": "passed"},
       ["IsBlank", "FormatNumber"], 0) for form in FORMS],
    ("always the lambda, --write --patch --batch-candidates", {"IsBlank": ["lambda"], "FormatNumber": ["wrong"]},
     ["--write", "--patch", "--batch-candidates"], {"IsBlank": "failed", "FormatNumber": "failed"}, [], 0),
    ("the callee right, the method group then right, --write --patch",
     {"IsBlank": ["group", "right"], "FormatNumber": ["right"]}, ["--write", "--patch"],
     {"IsBlank": "passed", "FormatNumber": "passed"}, ["IsBlank", "FormatNumber"], 0),
]
SANDBOXED = [pytest.param(s, "local", id=f"local: {s[0]}") for s in SCENARIOS] + [
    pytest.param(s, "docker", id=f"docker: {s[0]}", marks=pytest.mark.docker) for s in SCENARIOS]


@pytest.mark.parametrize(("scenario", "sandbox"), SANDBOXED)
def test_a_placeholder_the_port_keeps_for_later_excuses_nothing(full, workdirs, tmp_path, scenario, sandbox):
    name, scripts, flags, expected, right, status = scenario
    flags = [f if f != "--patch" else "--patch=" + str(tmp_path / "change.diff") for f in flags]
    rc, summary, cs = batch(full, workdirs[sandbox], tmp_path, sandbox, scripts, *flags)
    assert statuses(tmp_path) == expected, (name, summary["problems"])
    assert rc == status, (name, summary)
    for member in ("IsBlank", "FormatNumber"):
        now = member_text(cs, member)
        if "--write" in flags and member in right:
            assert same(now, truth(member)), (name, member, now)
        else:
            assert "NotImplementedException" in now, (name, member, now)
        assert not any(mark in now for mark in MARKS), (name, member, now)
    patch = tmp_path / "change.diff"
    if patch.exists():
        diff = patch.read_text()
        assert not any(mark in diff for mark in MARKS), (name, diff)
        assert all(f"{m}(" in diff for m in right), (name, diff)
