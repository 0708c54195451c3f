"""A test passes only on facts the runner reads itself (nunit_declared.cs): its method returned, or threw exactly
the exception the test declares. NUnit's own Success (a type compared by name, a message the thrown object
writes, a handler run on it; no stack behind it) is not enough.

The port's Parser.Parse must throw FormatException on "" (Check.Strict turns it into the test assembly's own
Rejected), ArgumentNullException on null. The wrong bodies throw a type of their own named like the test's
Rejected, its Message what the test expects; past the IL checker (which keeps a candidate's types out of other
namespaces), NUnit counted each as a pass, with no stack. Real mcs, runner and NUnit 2.6, both sandboxes."""
from __future__ import annotations

import pytest

from repotrans.execution.capability import checks
from tests.support.mono_repos import judged_port

SANDBOXES = [pytest.param("local", marks=pytest.mark.slow), pytest.param("docker", marks=pytest.mark.docker)]
PARSER = """using System;

namespace Acme
{
    public class Parser
    {
        public int Parse(string s)
        {
            if (s == null) throw new ArgumentNullException("s");
            if (s.Length == 0) throw new FormatException("empty");
            return int.Parse(s);
        }
    }
}
"""
TESTS = """using System;
using NUnit.Framework;

namespace Acme.Tests
{
    public class Rejected : Exception
    {
        public Rejected(string message) : base(message) { }
    }

    public static class Check
    {
        public static int Strict(string s)
        {
            try { return new Parser().Parse(s); }
            catch (FormatException e) { throw new Rejected(e.Message); }
        }
    }

    [TestFixture]
    public class ParserTests
    {
        [Test] public void ParsesDigits() { Assert.AreEqual(42, new Parser().Parse("42")); }
        [Test, ExpectedException(typeof(ArgumentNullException))] public void NullIsRejected() { new Parser().Parse(null); }
        [Test, ExpectedException(typeof(Rejected), ExpectedMessage = "empty")] public void EmptyIsRejected() { Check.Strict(""); }
        [Test, ExpectedException("Acme.Tests.Rejected")] public void BlankIsRejected() { Check.Strict(""); }
    }
}
"""
TRUTH = "{\n    if (s == null) throw new ArgumentNullException(\"s\");\n    if (s.Length == 0) throw new FormatException(\"empty\");\n" \
        "    return int.Parse(s);\n}"
# the candidate closes its class and namespace to declare a type of the test's name in its own assembly
IMPOSTOR = ("\n}\n}\nnamespace Acme.Tests\n{\n    public class Rejected : System.Exception\n    {\n"
            "        public override string Message { get { return \"empty\"; } }\n    }\n}\nnamespace Acme\n{\n"
            "    public class ParserTail\n    {\n        public int Unused(string s) { return 0; }")
WRONG = [
    ("an impostor of the declared type, its Message the expected one",
     "{\n    if (s == null) throw new ArgumentNullException(\"s\");\n    if (s == \"42\") return 42;\n"
     "    throw new Acme.Tests.Rejected();\n}" + IMPOSTOR),
    ("an impostor thrown for every input but the one the plain test checks",
     "{\n    if (s == \"42\") return 42;\n    if (s == null) throw new ArgumentNullException(\"x\");\n"
     "    throw new Acme.Tests.Rejected();\n}" + IMPOSTOR),
]


@pytest.fixture(scope="module", params=SANDBOXES)
def env(request, tmp_path_factory):
    yield from judged_port(tmp_path_factory.mktemp(f"declared-{request.param}"), request.param, {"Parser.cs": PARSER}, {"ParserTests.cs": TESTS})


def run(env, code: str):
    index, runners = env
    [parse] = index.find_methods("target", "Parser.Parse")
    return runners.run(index, parse, code, java=parse)


def test_the_right_body_passes_on_what_each_test_declares(env):
    """Returned (ParsesDigits), threw exactly ArgumentNullException (declared by type), the test's own Rejected
    (declared by type, and by name): each a fact the runner saw."""
    result = run(env, TRUTH)
    assert result.status == "passed" and result.tests_run == 4, result.brief()


@pytest.mark.parametrize("attack", WRONG, ids=[a[0] for a in WRONG])
def test_a_success_with_nothing_the_runner_saw_behind_it_is_no_pass(env, attack, monkeypatch):
    name, code = attack
    monkeypatch.setattr(checks, "merged_verdict", lambda verdicts: checks.PolicyVerdict())    # past the checker
    result = run(env, code)
    assert result.status not in ("passed", "blocked"), (name, result.brief())
    said = " ".join(f.message for f in result.failures)
    assert "no pass: the test method threw Acme.Tests.Rejected (declared in Core)" in said, (name, said)
    assert {f.name.rsplit(".", 1)[1] for f in result.failures} == {"EmptyIsRejected", "BlankIsRejected"}, result.brief()
    monkeypatch.undo()
    assert run(env, TRUTH).status == "passed"


def test_a_test_that_declares_an_exception_fails_when_the_method_returns(env):
    result = run(env, "{\n    return s == null ? 0 : s.Length == 0 ? -1 : int.Parse(s);\n}")
    assert result.status == "test_failure", result.brief()
