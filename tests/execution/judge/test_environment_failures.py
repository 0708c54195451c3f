"""Tests that fail here before any change (fixture written for this test, compiled by mcs and run by
repotrans's NUnit runner for real): a Windows time-zone id and an unreachable server beside tests that
judge the member. The original body passes, judged on the tests that can pass here; a wrong body still
fails; a placeholder's own exception is never taken for the environment."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from repotrans.execution.toolchains.environment import CACHE, cause
from tests.support.mono_repos import core_and_tests, judging, needs_mono, with_body, write_tree

BODY = "return 2 * x;"
FILES = core_and_tests(
    {"Codec.cs": "namespace Acme { public static class Codec { public static int Twice(int x) { %s } } }"},
    {"CodecTests.cs": """using System;
using NUnit.Framework;
namespace Acme.Tests {
  [TestFixture] public class CodecTests {
    [Test] public void TwiceOfTwo() { Assert.AreEqual(4, Codec.Twice(2)); }
    [Test] public void TwiceOfThree() { Assert.AreEqual(6, Codec.Twice(3)); }
    [Test] public void InBerlinTime() {
      Assert.AreEqual(8, Codec.Twice(4));
      var zone = TimeZoneInfo.FindSystemTimeZoneById("W. Europe Standard Time");
      Assert.IsNotNull(zone);
    }
    [Test] public void FromTheServer() {
      Assert.AreEqual(10, Codec.Twice(5));
      using (var client = new System.Net.Sockets.TcpClient()) client.Connect("127.0.0.1", 1);
    }
  }
}"""})


def _judge(tmp_path: Path, bodies: list[str]):
    with judging(write_tree(tmp_path / "repo", with_body(FILES, "src/Core/Codec.cs", BODY)), tmp_path / "work") as judge:
        return judge.workspace, [judge.run("src/Core/Codec.cs", FILES["src/Core/Codec.cs"] % body) for body in bodies]


@pytest.mark.slow
def test_tests_failing_here_before_any_change_are_left_out_and_counted(tmp_path):
    needs_mono()
    ws, (original, wrong, placeholder, again) = _judge(
        tmp_path, [BODY, "return 3 * x;", "throw new System.NotImplementedException();", BODY])
    assert original.status == "passed", (original.reason, original.failures)
    assert original.tests_run == 2
    assert original.reason == "judged on 2 of 4 tests; 2 fail in this environment before any change"
    assert original.left_out == {"T:Acme.Tests.CodecTests.InBerlinTime": "a time zone",
                                 "T:Acme.Tests.CodecTests.FromTheServer": "a server"}
    # a wrong body fails the two environment tests' own assertions first: they judge it too
    assert wrong.status == "test_failure" and wrong.tests_run == 4 and not wrong.left_out, wrong.reason
    # the placeholder throws before the environment is reached: all four judge it
    assert placeholder.status == "runtime_error" and placeholder.tests_run == 4 and not placeholder.left_out
    assert again.status == "passed" and again.left_out == original.left_out
    recorded = json.loads((ws.root / CACHE).read_text())["tests"]
    assert recorded == {"T:Acme.Tests.CodecTests.InBerlinTime": "a time zone",
                        "T:Acme.Tests.CodecTests.FromTheServer": "a server"}


@pytest.mark.parametrize("message, expected", [
    ("System.TimeZoneNotFoundException : Exception of type 'System.TimeZoneNotFoundException' was thrown.",
     "a time zone"),
    ("System.IO.FileNotFoundException : Could not find file \"/w/data/in.txt\"", "a file"),
    ("System.IO.DirectoryNotFoundException : Could not find a part of the path \"/w/..\\..\\Source\\x\".",
     "a Windows path"),
    ("System.Net.Sockets.SocketException : Connection refused", "a server"),
    ("System.Exception : Couldn't create thread. Error 0x0", "the sandbox's thread limit"),
    ("System.NotImplementedException : The method or operation is not implemented.", ""),
    ("System.InvalidOperationException : wrapped\n  ----> System.NotImplementedException : x", ""),
    ("  Expected: 4\n  But was:  6\n", ""),
    ("System.NullReferenceException : Object reference not set to an instance of an object", ""),
    # BCrypt.Net's max-work-factor test on the untouched port was "an assertion (Test exceeded Timeout value...)"
    ("Test exceeded Timeout value of 120000ms", "the per-test time limit"),
    ("  Expected: 2\n  But was: 3\n  Test exceeded Timeout value of 5ms", ""),
])
def test_causes(message, expected):
    assert cause(message) == expected


@pytest.mark.slow
@pytest.mark.parametrize("body", [BODY, "throw new System.NotImplementedException();"])
def test_doctor_lists_them_with_causes_and_never_says_ok_beside_an_error(tmp_path, body):
    needs_mono()
    from repotrans.execution.judge.build_report import build_section, render
    from repotrans.execution.settings import ExecutionConfig

    write_tree(tmp_path / "repo", with_body(FILES, "src/Core/Codec.cs", body))
    title, lines = build_section(tmp_path / "repo", ExecutionConfig(sandbox="local"), workdir=tmp_path / "wd")
    text = render(title, lines)
    for ok, line in lines:
        assert not (ok and any(word in line for word in ("error", "timeout", "not run"))), text
    [run] = [line for line in lines if line[1].startswith("untouched run")]
    [tests] = [line for line in lines if line[1].startswith("tests: T:")]
    if body == BODY:
        assert run[0] is True and tests[0] is True, text
        assert "judged on 2 of 4 tests; 2 fail in this environment before any change" in run[1], text
        failing = [line for ok, line in lines if line.startswith("failing before any change")]
        assert failing == ["failing before any change: 2 tests (1 a server, 1 a time zone)",
                           "failing before any change: Acme.Tests.CodecTests.FromTheServer: a server",
                           "failing before any change: Acme.Tests.CodecTests.InBerlinTime: a time zone"], text
    else:
        assert run[0] is None and tests[0] is None and "runtime_error" in tests[1], text
        assert "4 run, 0 passed" in tests[1] and not any("left out" in line for _, line in lines), text


POOL = """using System.Threading;
using NUnit.Framework;
namespace Acme.Tests {
  [TestFixture] public class PoolTests {
    // a suite's own worker pool (a scheduler's thread pools): 150 threads at once
    [Test] public void AWorkerPool() {
      var threads = new Thread[150];
      int done = 0;
      for (int i = 0; i < threads.Length; i++) {
        threads[i] = new Thread(() => { Thread.Sleep(300); Interlocked.Increment(ref done); });
        threads[i].Start();
      }
      foreach (var t in threads) t.Join();
      Assert.AreEqual(150, done);
    }
    // a thread bomb still ends at the process limit
    [Test] public void ABomb() {
      for (int i = 0; i < 5000; i++) new Thread(() => Thread.Sleep(60000)) { IsBackground = true }.Start();
    }
  }
}"""


@pytest.mark.slow
def test_a_suites_thread_pool_fits_and_a_bomb_still_fails_fast(tmp_path):
    needs_mono()
    import time
    from repotrans.execution.sandboxes import PIDS_REASON

    files = {k: v for k, v in with_body(FILES, "src/Core/Codec.cs", BODY).items() if k != "tests/T/CodecTests.cs"}
    files["tests/T/PoolTests.cs"] = POOL
    verdicts = {}
    with judging(write_tree(tmp_path / "repo", files), tmp_path / "work") as judge:
        for test in ("AWorkerPool", "ABomb"):
            started = time.monotonic()
            verdicts[test] = (judge.run("src/Core/Codec.cs", files["src/Core/Codec.cs"], [f"T:Acme.Tests.PoolTests.{test}"]),
                              time.monotonic() - started)
    pool, _ = verdicts["AWorkerPool"]
    assert (pool.status, pool.tests_run) == ("passed", 1), (pool.reason, pool.failures)
    bomb, seconds = verdicts["ABomb"]
    assert bomb.status == "runtime_error" and bomb.reason == PIDS_REASON and seconds < 30, (bomb.reason, seconds)


def test_a_saved_result_keeps_the_tests_left_out():
    from repotrans.verdicts.results import TestResult

    result = TestResult("passed", tests_run=2, reason="judged on 2 of 4 tests; 2 fail in this environment before any change",
                        left_out={"T:Acme.Tests.CodecTests.InBerlinTime": "a time zone"})
    assert TestResult.from_json(result.to_json()).left_out == result.left_out
