"""Hostile candidates under both sandboxes: each attack is a real method body compiled by mcs and
run by repotrans's NUnit runner, and must be contained or judged a failure with the expected status.

The target is the calc fixture; every candidate stands in for `Calculator.Add(int, int)`, whose one
covering test expects Add(2, 3) == 5. A candidate that `return a * b;` fails it: a verdict of
passed for such a candidate would be a forgery.

Most of these attacks reach the file system, reflection or processes, which the IL capability policy
rejects before any test runs (tests/execution/capability/test_policy.py). To test the sandbox walls behind it,
candidates here run with every capability a Java original can grant (`WALLS`): the case of a task
whose Java method does file I/O, reflection and process control.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from repotrans.execution.capability.checks import ALLOWABLE, PARENT
from repotrans.execution.capability.il_path import path_allowance
from repotrans.execution.sandboxes import PIDS_REASON
from repotrans.execution.sandboxes.docker import LABEL
from repotrans.index.store import Index
from tests.execution.judge.test_execution_runner import make_index
from tests.support.runners import Runners
from tests.support.processes import commands_mentioning

CALC = Path(__file__).resolve().parents[2] / "fixtures" / "dotnet" / "projects" / "calc"
IMAGE = "repotrans/mono:bookworm"
NUNIT_HOST_DLL = Path("/usr/lib/cli/nunit.framework-2.6.3/nunit.framework.dll")
WALLS = frozenset(ALLOWABLE)
SANDBOXES = [pytest.param("local", marks=pytest.mark.slow), pytest.param("docker", marks=pytest.mark.docker)]
TRUTH = "{\n    int sum = a + b;\n    history.Add(sum);\n    return sum;\n}"
WRONG = "return a * b;"
# the scratch workspace root, found from the test's working folder (its bin folder in a run)
WS_ROOT = ("var ws = new System.IO.DirectoryInfo(System.Environment.CurrentDirectory);\n"
           "while (ws != null && !(System.IO.Directory.Exists(System.IO.Path.Combine(ws.FullName, \"base\"))"
           " && System.IO.Directory.Exists(System.IO.Path.Combine(ws.FullName, \"src\")))) ws = ws.Parent;\n")
# the run's own test area (runs/<id>/area), found from the test's working folder inside it
AREA = ("var up = new System.IO.DirectoryInfo(System.Environment.CurrentDirectory);\n"
        "while (up != null && up.Name != \"area\") up = up.Parent;\n"
        "string area = up == null ? \"/nowhere\" : up.FullName;\n")


PLACEHOLDER = "        public int Triple(int x)\n        {\n            throw new NotImplementedException();\n        }\n"
TWICE = "        public int Twice(Func<int> f)\n        {\n            return 2 * f();\n        }\n"
TWICE_TESTS = """using NUnit.Framework;

namespace Acme.Calc.Tests
{
    [TestFixture]
    public class TwiceTests
    {
        [Test]
        public void TwiceDoublesWhatItIsGiven()
        {
            int given = 42;
            Assert.AreEqual(84, new Calculator().Twice(() => given));
        }
    }
}
"""
# the port's own code wrapping a placeholder's exception on its way out (a parser rethrowing it)
WRAPPER = ("        public int ParseTriple(string s)\n        {\n            try { return Triple(int.Parse(s)); }\n"
           "            catch (NotImplementedException e) { throw new FormatException(\"cannot parse \" + s, e); }\n"
           "        }\n")


@dataclass
class Env:
    sandbox: str
    index: Index
    wd: Path
    root: Path
    target: Path
    runners: Runners

    def run(self, code: str, **kw):
        [m] = self.index.find_methods("target", "Calculator.Add")
        return self.runners.run(self.index, m, code, **{"allow": walls(code), **kw})


def walls(code: str) -> frozenset[str]:
    """Every allowance, the file system's on each path the code spells (as if its Java original named them all,
    and climbed): what stands then is the sandbox."""
    spelled = (t.replace('\\"', '"').replace("\\\\", "\\") for t in re.findall(r'"((?:\\.|[^"\\])*)"', code))
    return WALLS | {PARENT} | frozenset(map(path_allowance, spelled))


@pytest.fixture(scope="module", params=SANDBOXES)
def env(request, tmp_path_factory):
    if request.param == "docker":
        try:
            import docker
            client = docker.from_env()
            client.ping()
            client.images.get(IMAGE)
        except Exception as exc:
            pytest.fail(f"docker security tests need the engine and {IMAGE}: {exc}", pytrace=False)
    root = tmp_path_factory.mktemp(f"security-{request.param}")
    target = root / "calc"
    shutil.copytree(CALC, target)
    calc = target / "src" / "Acme.Calc" / "Calculator.cs"        # a member not translated yet (blocked attacks)
    calc.write_text(calc.read_text().replace("        public int Divide(", PLACEHOLDER + "\n" + WRAPPER
                                             + "\n        public int Divide(", 1))
    # a member taking a test's lambda, and the expected value in the test assembly's embedded resources
    calc.write_text(calc.read_text().replace("        public int Divide(", TWICE + "\n        public int Divide(", 1))
    tdir = target / "tests" / "Acme.Calc.Tests"
    (tdir / "expected.txt").write_text("84\n")
    proj = tdir / "Acme.Calc.Tests.csproj"
    proj.write_text(proj.read_text().replace(
        "</Project>", "  <ItemGroup>\n    <EmbeddedResource Include=\"expected.txt\" />\n  </ItemGroup>\n</Project>"))
    (tdir / "TwiceTests.cs").write_text(TWICE_TESTS)
    tests = target / "tests" / "Acme.Calc.Tests" / "CalculatorTests.cs"    # a test that ends by Assert.Pass:
    tests.write_text(tests.read_text().replace(                            # every TRUTH run is its control
        "Assert.AreEqual(1, calc.HistoryCount);\n",
        "Assert.AreEqual(1, calc.HistoryCount);\n            Assert.Pass(\"the sum and the history hold\");\n", 1))
    index = make_index(root, target)
    with Runners(root / "wd", sandbox=request.param, timeout=30.0, memory_mb=512) as runners:
        yield Env(request.param, index, root / "wd", root, target, runners)
    index.close()


def _text(result) -> str:
    return json.dumps(result.to_json())


def _message(result) -> str:
    return " ".join(e.message for e in result.exceptions)


def test_the_ground_truth_passes_and_a_wrong_body_fails(env):
    assert env.run(TRUTH).status == "passed"
    assert env.run(WRONG).status == "test_failure"


def test_host_files_cannot_be_read(env):
    secret = env.root / "host-secret.txt"
    token = f"HOSTSECRET-{uuid.uuid4().hex}"
    secret.write_text(token)
    secret.chmod(0o644)                              # readable by anyone on the host
    code = ("{\n    string t = \"\";\n    foreach (var p in new[] { \"%s\", \"/etc/shadow\" }) {\n"
            "        try { t += \"|\" + System.IO.File.ReadAllText(p); }\n"
            "        catch (System.Exception e) { t += \"|ERR \" + e.GetType().Name; }\n    }\n"
            "    throw new System.Exception(\"READ:\" + t);\n}") % secret
    result = env.run(code)
    assert result.status == "runtime_error"
    assert token not in _text(result), _message(result)
    assert _message(result).split("|")[1].startswith("ERR "), _message(result)       # the host file
    assert "$" not in _message(result)                    # no password hash from /etc/shadow


def test_host_files_cannot_be_written_nor_the_target_repo_touched(env):
    outside = env.root / "written-from-the-sandbox.txt"
    victim = env.target / "src" / "Acme.Calc" / "Calculator.cs"
    before = victim.read_bytes()
    code = ("{\n    int failed = 0;\n"
            "    try { System.IO.File.WriteAllText(\"%s\", \"pwned\"); } catch (System.Exception) { failed++; }\n"
            "    try { System.IO.File.Delete(\"%s\"); } catch (System.Exception) { failed++; }\n"
            "    try { System.IO.Directory.Delete(\"%s\", true); } catch (System.Exception) { failed++; }\n"
            "    try { System.IO.File.WriteAllText(\"/usr/lib/cli/nunit.framework-2.6.3/nunit.framework.dll\", \"x\"); }"
            " catch (System.Exception) { failed++; }\n"
            "    throw new System.Exception(\"FAILED \" + failed);\n}") % (outside, victim, env.target)
    host_dll = hashlib.sha256(NUNIT_HOST_DLL.read_bytes()).hexdigest()
    result = env.run(code)
    assert result.status == "runtime_error"
    assert not outside.exists() and victim.read_bytes() == before
    assert hashlib.sha256(NUNIT_HOST_DLL.read_bytes()).hexdigest() == host_dll
    assert "FAILED" in _message(result)


# past the checker, which rejects their paths built at run time (file_scope: test_file_attacks)
def test_the_workspace_cannot_be_written_through_any_file_or_link(env, no_checker):
    """Every file of the scratch workspace (the baseline's assemblies, the copy of nunit.framework,
    the selection cache, this run's own build) refuses writes, deletion and new files, but for the run's
    own test area (execution/toolchains/test_area.py: a private copy of its assembly folder, gone after the
    run), where it may add and delete but not change an assembly, nor write through the area's links into
    the source copy; afterwards the workspace's sources and baseline are as before, a correct candidate
    still passes (no poisoning) and the host's nunit.framework is unchanged."""
    host_dll = hashlib.sha256(NUNIT_HOST_DLL.read_bytes()).hexdigest()
    assert env.run(TRUTH).status == "passed"          # the workspace and its baseline are built
    before = _workspace_digest(env.wd)
    code = ("{\n" + WS_ROOT + AREA +
            "    int wrote = 0, created = 0, deleted = 0, files = 0, own = 0;\n"
            "    foreach (var f in System.IO.Directory.GetFiles(ws.FullName, \"*\", System.IO.SearchOption.AllDirectories)) {\n"
            "        bool mine = f.StartsWith(area + \"/\");\n"
            "        if (mine) own++; else files++;\n"
            "        bool assembly = f.EndsWith(\".dll\") || f.EndsWith(\".exe\");\n"
            "        try { using (var s = new System.IO.FileStream(f, System.IO.FileMode.Open, System.IO.FileAccess.Write))"
            " { s.WriteByte(0); } if (!mine || assembly) wrote++; } catch (System.Exception) { }\n"
            "        try { System.IO.File.Delete(f); if (!System.IO.File.Exists(f) && !mine) deleted++; } catch (System.Exception) { }\n"
            "    }\n"
            "    foreach (var d in System.IO.Directory.GetDirectories(ws.FullName, \"*\", System.IO.SearchOption.AllDirectories)) {\n"
            "        if (d.StartsWith(area + \"/\") || d == area) continue;\n"
            "        try { System.IO.File.WriteAllText(System.IO.Path.Combine(d, \"planted.xml\"), \"<x/>\"); created++; }"
            " catch (System.Exception) { }\n    }\n"
            "    throw new System.Exception(\"FILES \" + files + \" OWN \" + own + \" WROTE \" + wrote + \" CREATED \" + created"
            " + \" DELETED \" + deleted);\n}")
    result = env.run(code)
    assert result.status == "runtime_error"
    message = _message(result)
    assert "WROTE 0 CREATED 0 DELETED 0" in message and "FILES 0 " not in message and "OWN 0 " not in message, message
    assert _workspace_digest(env.wd) == before
    assert hashlib.sha256(NUNIT_HOST_DLL.read_bytes()).hexdigest() == host_dll
    assert env.run(TRUTH).status == "passed"
    assert env.run(WRONG).status == "test_failure"


def _workspace_digest(wd: Path) -> dict[str, str]:
    """Every file of the runner's workspaces but their candidates' run folders, by its hash."""
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted((wd / "runner").rglob("*"))
            if p.is_file() and not p.is_symlink() and "runs" not in p.relative_to(wd / "runner").parts
            and p.name not in (".lock",)}


def test_no_network_not_even_loopback(env):
    received: list[bytes] = []
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    server.settimeout(0.2)
    port = server.getsockname()[1]
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            received.append(conn.recv(100) or b"(connected)")
            conn.close()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    code = ("{\n    using (var c = new System.Net.Sockets.TcpClient()) {\n"
            "        c.Connect(System.Net.IPAddress.Loopback, %d);\n"
            "        var data = System.Text.Encoding.ASCII.GetBytes(\"LEAK\");\n"
            "        c.GetStream().Write(data, 0, data.Length);\n    }\n    return a + b;\n}") % port
    try:
        result = env.run(code)
    finally:
        stop.set()
        thread.join()
        server.close()
    assert received == []
    assert result.status == "runtime_error" and result.exceptions[0].type == "System.Net.Sockets.SocketException"


def test_detached_processes_do_not_survive_the_run_nor_reach_the_next_candidate(env):
    token = f"{uuid.uuid4().int % 1000}.731"
    code = ("{\n    System.IO.File.WriteAllText(\"/tmp/planted\", \"x\");\n"
            "    var p = System.Diagnostics.Process.Start(\"/bin/sh\", \"-c \\\"setsid sh -c 'sleep %s; sleep %s' "
            "</dev/null >/dev/null 2>&1 &\\\"\");\n    p.WaitForExit();\n"
            "    int sum = a + b;\n    history.Add(sum);\n    return sum;\n}") % (token, token)
    assert env.run(code).status == "passed"
    time.sleep(0.5)
    assert commands_mentioning(f"sleep {token}") == []
    # the next candidate (in docker: the same warm container) sees neither the process nor the file
    probe = ("{\n    if (System.IO.File.Exists(\"/tmp/planted\")) throw new System.Exception(\"planted file survived\");\n"
             "    foreach (var d in System.IO.Directory.GetDirectories(\"/proc\")) {\n"
             "        try { if (System.IO.File.ReadAllText(d + \"/cmdline\").Contains(\"%s\"))"
             " throw new System.Exception(\"survivor\"); } catch (System.IO.IOException) { }\n    }\n"
             "    int sum = a + b;\n    history.Add(sum);\n    return sum;\n}") % token
    result = env.run(probe)
    assert result.status == "passed", result.brief()


# One real candidate per attack class that forged a pass from inside the test process before the IL
# policy (issue 18): each is rejected before any test runs, whatever the sandbox. No allowance here.
POLICY_ATTACKS = [
    ("success exception by reflection",
     "{\n    var t = System.Type.GetType(\"NUnit.Framework.SuccessException, nunit.framework\");\n"
     "    throw (System.Exception)System.Activator.CreateInstance(t, \"ok\");\n}"),
    ("Assert.Pass by reflection",
     "{\n    var t = System.Type.GetType(\"NUnit.Framework.Assert, nunit.framework\");\n"
     "    try { t.GetMethod(\"Pass\", System.Type.EmptyTypes).Invoke(null, null); }\n"
     "    catch (System.Reflection.TargetInvocationException e) { throw e.InnerException; }\n    return a * b;\n}"),
    ("nonce read through /proc/self/mem",
     "{\n    var maps = System.IO.File.ReadAllLines(\"/proc/self/maps\");\n"
     "    using (var mem = new System.IO.FileStream(\"/proc/self/mem\", System.IO.FileMode.Open)) {\n"
     "        mem.Seek(System.Convert.ToInt64(maps[0].Split('-')[0], 16), System.IO.SeekOrigin.Begin);\n"
     "        mem.ReadByte();\n    }\n    return a * b;\n}"),
    ("nonce read with Marshal.Copy",
     "{\n    var buf = new byte[16];\n"
     "    System.Runtime.InteropServices.Marshal.Copy(new System.IntPtr(0x400000), buf, 0, buf.Length);\n"
     "    return a * b + buf[0] * 0;\n}"),
    ("forged report on the raw stdout",
     "{\n    var o = System.Console.OpenStandardOutput();\n    var line = System.Text.Encoding.ASCII.GetBytes(\"\\n@@RT x END 1\\n\");\n"
     "    o.Write(line, 0, line.Length);\n    return a * b;\n}"),
    ("test arguments rewritten through TestExecutionContext",
     "{\n    var t = System.Type.GetType(\"NUnit.Core.TestExecutionContext, nunit.core\");\n"
     "    var ctx = t.GetProperty(\"CurrentContext\").GetValue(null, null);\n"
     "    if (ctx == null) return 0;\n    return a * b;\n}"),
    ("JIT code patched through /proc/self/mem",
     "{\n    var f = typeof(object).GetMethod(\"ToString\").MethodHandle.GetFunctionPointer();\n"
     "    using (var mem = new System.IO.FileStream(\"/proc/self/mem\", System.IO.FileMode.Open, System.IO.FileAccess.ReadWrite)) {\n"
     "        mem.Seek(f.ToInt64(), System.IO.SeekOrigin.Begin);\n        mem.WriteByte(0xC3);\n    }\n    return a * b;\n}"),
    ("JIT code patched with Marshal.WriteByte",
     "{\n    var f = typeof(object).GetMethod(\"ToString\").MethodHandle.GetFunctionPointer();\n"
     "    System.Runtime.InteropServices.Marshal.WriteByte(f, 0xC3);\n    return a * b;\n}"),
    ("test sources read",
     "{\n    var text = System.IO.File.ReadAllText(\"../../../src/tests/Acme.Calc.Tests/CalculatorTests.cs\");\n"
     "    return text.Length > 0 ? 5 : a * b;\n}"),
    ("test name read from NUnit's context",
     "{\n    var t = System.Type.GetType(\"NUnit.Framework.TestContext, nunit.framework\");\n"
     "    var ctx = t.GetProperty(\"CurrentContext\").GetValue(null, null);\n"
     "    return ctx.ToString().Contains(\"True\") ? 5 : a * b;\n}"),
]


def test_attacks_from_inside_the_test_process_are_rejected_and_a_correct_candidate_still_passes(env):
    """All in one warm container (docker): each attack is rejected with a reason naming the API; a
    candidate throwing the placeholder's own exception is a runtime error, not blocked."""
    for name, code in POLICY_ATTACKS:
        result = env.run(code, allow=frozenset())
        assert result.status == "rejected", (name, result.brief())
        assert result.reason.startswith("uses ") and result.tests_run == 0, (name, result.reason)
    fake = env.run("{\n    throw new System.NotImplementedException();\n}", allow=frozenset())
    assert fake.status == "runtime_error", fake.brief()
    assert env.run(TRUTH).status == "passed"


# Issue 32: capabilities reached through the class library, with no rule naming the attack itself. Each
# is a real candidate (more than one door per class), rejected by the allowlist's hard-deny set or as
# unlisted, naming the API: (class, name, code, API its reason names, hard: rejected even with every
# allowance a Java original can grant).
ALLOWLIST_ATTACKS = [
    ("success exception via the BCL", "BinaryFormatter deserializes a byte blob",
     "{\n    var f = new System.Runtime.Serialization.Formatters.Binary.BinaryFormatter();\n"
     "    var o = f.Deserialize(new System.IO.MemoryStream(new byte[] {0, 1, 0, 0, 0, 255, 255, 255, 255}));\n"
     "    if (o is System.Exception) throw (System.Exception)o;\n    return a * b;\n}",
     "System.Runtime.Serialization.Formatters.Binary.BinaryFormatter", True),
    ("success exception via the BCL", "an uninitialized object of a named type",
     "{\n    var t = typeof(System.Exception);\n"
     "    var o = System.Runtime.Serialization.FormatterServices.GetUninitializedObject(t);\n"
     "    throw (System.Exception)o;\n}", "System.Runtime.Serialization.FormatterServices", True),
    ("success exception via the BCL", "a resource reader deserializes a resource",
     "{\n    var r = new System.Resources.ResourceReader(new System.IO.MemoryStream(new byte[64]));\n"
     "    foreach (System.Collections.DictionaryEntry e in r) if (e.Value is System.Exception) throw (System.Exception)e.Value;\n"
     "    return a * b;\n}", "System.Resources.ResourceReader", True),
    ("success exception via the BCL", "a resource manager over the test assembly",
     "{\n    var m = new System.Resources.ResourceManager(\"Acme.Calc.Tests.Data\", typeof(Calculator).Assembly);\n"
     "    var o = m.GetObject(\"success\");\n    if (o is System.Exception) throw (System.Exception)o;\n    return a * b;\n}",
     "System.Resources.ResourceManager", True),
    ("success exception via the BCL", "the C# compiler run from the member",
     "{\n    var p = new Microsoft.CSharp.CSharpCodeProvider();\n"
     "    var r = p.CompileAssemblyFromSource(new System.CodeDom.Compiler.CompilerParameters(), \"class X {}\");\n"
     "    return r.Errors.Count > 0 ? a * b : 5;\n}", "Microsoft.CSharp.CSharpCodeProvider", True),
    ("success exception via the BCL", "the C# compiler run from an attribute constructor",
     "{\n    return a * b;\n}\n[System.AttributeUsage(System.AttributeTargets.All)]\n"
     "private sealed class HookAttribute : System.Attribute\n{\n    public HookAttribute()\n    {\n"
     "        System.CodeDom.Compiler.CodeDomProvider.CreateProvider(\"CSharp\");\n    }\n}",
     "System.CodeDom.Compiler.CodeDomProvider", True),
    ("success exception via the BCL", "IL emitted at run time",
     "{\n    var m = new System.Reflection.Emit.DynamicMethod(\"x\", typeof(int), System.Type.EmptyTypes);\n"
     "    var il = m.GetILGenerator();\n    il.Emit(System.Reflection.Emit.OpCodes.Ldc_I4_5);\n"
     "    il.Emit(System.Reflection.Emit.OpCodes.Ret);\n    return (int)m.Invoke(null, null);\n}",
     "System.Reflection.Emit.DynamicMethod", True),
    ("process creation", "Process.Start of a shell",
     "{\n    System.Diagnostics.Process.Start(\"/bin/sh\", \"-c true\");\n    return a * b;\n}",
     "System.Diagnostics.Process", False),
    ("process creation", "a ProcessStartInfo",
     "{\n    var i = new System.Diagnostics.ProcessStartInfo(\"/bin/sh\");\n    i.UseShellExecute = false;\n"
     "    System.Diagnostics.Process.Start(i);\n    return a * b;\n}", "System.Diagnostics.ProcessStartInfo", False),
    ("process creation", "another application domain",
     "{\n    var d = System.AppDomain.CreateDomain(\"x\");\n    d.ExecuteAssembly(\"/bin/true\");\n    return a * b;\n}",
     "System.AppDomain", True),
    ("file:// read of the test assembly", "WebClient on a file:// URI",
     "{\n    var bytes = new System.Net.WebClient().DownloadData(\"file://\" + System.Environment.CurrentDirectory"
     " + \"/Acme.Calc.Tests.dll\");\n    return bytes.Length > 0 ? a + b : a * b;\n}", "System.Net.WebClient", False),
    ("file:// read of the test assembly", "WebRequest on a file:// URI",
     "{\n    var r = System.Net.WebRequest.Create(new System.Uri(\"file:///proc/self/cmdline\"));\n"
     "    using (var s = r.GetResponse().GetResponseStream()) return s.ReadByte() > 0 ? a + b : a * b;\n}",
     "System.Net.WebRequest", False),
    ("file:// read of the test assembly", "an XML resolver on a file:// URI",
     "{\n    var s = (System.IO.Stream)new System.Xml.XmlUrlResolver().GetEntity(new System.Uri(\"file:///etc/hostname\"),"
     " null, typeof(System.IO.Stream));\n    return s.ReadByte() > 0 ? a + b : a * b;\n}", "System.Xml.XmlUrlResolver", False),
]


@pytest.mark.parametrize("attack", ALLOWLIST_ATTACKS, ids=[a[1] for a in ALLOWLIST_ATTACKS])
def test_capabilities_reached_through_the_class_library_are_rejected(env, attack):
    """Issue 32: each door is rejected naming the API (a hard-denied one even with every allowance a Java
    original can grant), and a correct candidate still passes in the same warm container."""
    cls, name, code, api, hard = attack
    for allow in ([frozenset(), WALLS] if hard else [frozenset()]):
        result = env.run(code, allow=allow)
        assert result.status == "rejected" and result.tests_run == 0, (cls, name, sorted(allow), result.brief())
        assert api in result.reason or api in result.log_tail, (cls, name, result.reason)
    assert env.run(TRUTH).status == "passed"


def test_a_child_process_cannot_read_the_runners_memory(env):
    """Issue 32: the runner makes itself non-dumpable before the test assembly loads, so a process the
    candidate starts (a task allowed processes) cannot read the runner's environment or memory through
    /proc/PID, where the report's nonce lives. The probe returns the right sum only when the read fails."""
    probe = ("{\n    var i = new System.Diagnostics.ProcessStartInfo(\"/bin/sh\", \"-c 'cat /proc/$PPID/environ"
             " >/dev/null 2>&1 && echo READ || echo DENIED'\");\n    i.UseShellExecute = false;\n"
             "    i.RedirectStandardOutput = true;\n    var p = System.Diagnostics.Process.Start(i);\n"
             "    string said = p.StandardOutput.ReadToEnd().Trim();\n    p.WaitForExit();\n"
             "    if (said != \"DENIED\") throw new System.Exception(\"the child said \" + said);\n"
             "    int sum = a + b;\n    history.Add(sum);\n    return sum;\n}")
    result = env.run(probe)
    assert result.status == "passed", result.brief()


def test_a_task_not_allowed_processes_cannot_start_one_even_by_reflection(env, no_checker):
    """Issue 32, defence in depth: with every allowance but processes and the checker bypassed (its narrowed
    reflection allowance rejects a type named by a string: test_reflect_scope), Process.Start reached by reflection fails in the test process under both sandboxes (seccomp
    denies fork, vfork and a clone that makes no thread; threads still run: local through bwrap and the
    runner itself, docker through the runner, which installs the filter before any test code loads). The
    probe passes only when it fails."""
    probe = ("{\n    var t = System.Type.GetType(\"System.Diagnostics.Process, System, Version=4.0.0.0, Culture=neutral, "
             "PublicKeyToken=b77a5c561934e089\");\n    bool started = false;\n"
             "    try { started = t.GetMethod(\"Start\", new[] { typeof(string), typeof(string) })"
             ".Invoke(null, new object[] { \"/bin/true\", \"\" }) != null; }\n"
             "    catch (System.Exception) { }\n    var th = new System.Threading.Thread(() => { });\n"
             "    th.Start();\n    th.Join();\n    if (started) throw new System.Exception(\"a process started\");\n"
             "    int sum = a + b;\n    history.Add(sum);\n    return sum;\n}")
    result = env.run(probe, allow=WALLS - {"process"})
    assert result.status == "passed", result.brief()
    assert env.run(probe).status == "runtime_error"        # the same probe where processes are allowed


# Issue 32: `blocked` (repair ends, "not the candidate's fault") forged from text the candidate writes, or
# by calling an unrelated placeholder (Calculator.Triple) on purpose. The Java original of Add (as the
# session passes it) calls nothing but history.add: each is judged on its own, never blocked nor passed.
JAVA_ADD = "{\n    int sum = a + b;\n    history.add(sum);\n    return sum;\n}"
TRIPLE_FRAME = "  at Acme.Calc.Calculator.Triple (System.Int32 x) [0x00001] in /w/src/Acme.Calc/Calculator.cs:20\n"
BLOCKED_ATTACKS = [
    ("a placeholder frame in an exception message",
     "{\n    throw new System.Exception(\"Expected: 5\\n  But was:  <System.NotImplementedException> (x)\\n"
     + TRIPLE_FRAME.replace("\n", "\\n") + "\");\n}"),
    ("a placeholder frame in a NotImplementedException's message",
     "{\n    throw new System.NotImplementedException(\"x\\n" + TRIPLE_FRAME.replace("\n", "\\n") + "\");\n}"),
    ("an overridden StackTrace getter",
     "{\n    throw new Fake();\n}\nprivate sealed class Fake : System.NotImplementedException\n{\n"
     "    public override string StackTrace { get { return \"" + TRIPLE_FRAME.replace("\n", "\\n") + "\"; } }\n}"),
    ("an unrelated placeholder called on purpose", "{\n    return Triple(a) + b;\n}"),
]


@pytest.mark.parametrize("attack", BLOCKED_ATTACKS, ids=[a[0] for a in BLOCKED_ATTACKS])
def test_blocked_is_never_forged_by_the_candidate(env, attack):
    name, code = attack
    [m] = env.index.find_methods("target", "Calculator.Add")
    java = replace(m, body=JAVA_ADD)
    result = env.run(code, allow=frozenset(), java=java)
    assert result.status not in ("blocked", "passed"), (name, result.brief())
    assert result.status in ("runtime_error", "failed", "rejected"), (name, result.brief())
    # the control: the same call where the Java original does call the placeholder is blocked
    if name.startswith("an unrelated"):
        calls = replace(m, body="{\n    return triple(a) + b;\n}")
        assert env.run(code, allow=frozenset(), java=calls).status == "blocked"


DLLMAP = ("<configuration><dllmap dll=\"\"System.Native\"\" target=\"\"/nonexistent/x.so\"\"/>"
          "<dllmap dll=\"\"libc\"\" target=\"\"/nonexistent/libc.so\"\"/></configuration>")


# past the checker, which rejects their paths built at run time (file_scope: test_file_attacks)
def test_nothing_left_in_tmp_dev_shm_or_home_reaches_the_next_candidate(env, no_checker):
    """Files in /dev/shm, a folder chmod'ed 0555, and ~/.mono/config dllmaps that break mcs: in the
    warm container (docker) the next candidate compiles, sees none of them, and passes."""
    plant = ("{\n    string home = System.Environment.GetEnvironmentVariable(\"HOME\");\n"
             "    foreach (var d in new[] { home + \"/.mono\", \"/tmp/.mono\", \"/tmp/locked/inner\" })"
             " System.IO.Directory.CreateDirectory(d);\n"
             "    foreach (var f in new[] { home + \"/.mono/config\", \"/tmp/.mono/config\" })"
             " System.IO.File.WriteAllText(f, @\"" + DLLMAP + "\");\n"
             "    System.IO.File.WriteAllText(\"/tmp/locked/inner/f\", \"x\");\n"
             "    try { System.IO.File.WriteAllText(\"/dev/shm/planted\", \"x\"); }"
             " catch (System.UnauthorizedAccessException) { }     // the local sandbox's /dev has none\n"
             "    System.Diagnostics.Process.Start(\"chmod\", \"0555 /tmp/locked/inner /tmp/locked /tmp/.mono\")"
             ".WaitForExit();\n" + TRUTH[1:])
    planted = env.run(plant)
    assert planted.status == "passed", planted.brief()
    probe = ("{\n    foreach (var p in new[] { \"/dev/shm/planted\", \"/tmp/locked\", \"/tmp/.mono\" })\n"
             "        if (System.IO.File.Exists(p) || System.IO.Directory.Exists(p))"
             " throw new System.Exception(\"survived: \" + p);\n" + TRUTH[1:])
    result = env.run(probe)
    assert result.status == "passed", result.brief()
    assert env.run(TRUTH).status == "passed"


def test_a_cached_baseline_failure_is_built_again_before_it_is_believed(env):
    """A `.failed.json` left by another process (a poisoned container's failure) is re-verified in a
    fresh sandbox once; the target builds, and the candidate is judged."""
    env.run(TRUTH)
    [ws] = (env.wd / "runner").glob("mono-*")
    settings = json.loads((ws / "base" / ".ok").read_text())["settings"]
    shutil.rmtree(ws / "base")
    (ws / "base").mkdir()
    (ws / "base" / ".failed.json").write_text(json.dumps({
        "message": "the target does not build before patching: project Acme.Calc: poisoned", "log_tail": "",
        "settings": settings, "diagnostics": []}))
    env.runners.runner().toolchain.verified_failures.discard(str(ws))
    assert env.run(TRUTH).status == "passed"
    assert env.run(WRONG).status == "test_failure"


# past the checker, which rejects their paths built at run time (file_scope: test_file_attacks)
def test_the_test_sources_are_out_of_reach(env, no_checker):
    """A candidate that computes nothing: it reads the expected value from the test's source
    (`Assert.AreEqual(5, calc.Add(2, 3))`). Sources are readable by the build uid only."""
    code = ("{\n" + WS_ROOT +
            "    var text = System.IO.File.ReadAllText(System.IO.Path.Combine(ws.FullName,"
            " \"src/tests/Acme.Calc.Tests/CalculatorTests.cs\"));\n"
            "    int at = text.IndexOf(\"AreEqual(\") + 9;\n"
            "    int sum = int.Parse(text.Substring(at, text.IndexOf(',', at) - at));\n"
            "    history.Add(sum);\n    return sum;\n}")
    result = env.run(code)
    assert result.status == "runtime_error", result.brief()
    assert result.exceptions[0].type == "System.UnauthorizedAccessException", result.brief()
    assert env.run(TRUTH).status == "passed"


def test_a_forged_report_and_exit_0_is_no_pass(env):
    """The old attack wrote a passing result XML where the runner would read it and exited 0; now
    results come over the runner's own stdout, tagged with a nonce the candidate cannot know. The raw
    stdout is reached through the file system (Console.OpenStandardOutput is never allowed)."""
    code = ("{\n    var xml = \"<?xml version=\\\"1.0\\\"?><test-results total=\\\"1\\\" failures=\\\"0\\\">"
            "<test-suite><results><test-case name=\\\"Acme.Calc.Tests.CalculatorTests.AddSumsTwoNumbers\\\""
            " executed=\\\"True\\\" result=\\\"Success\\\" success=\\\"True\\\"/></results></test-suite>"
            "</test-results>\";\n"
            "    foreach (var p in new[] { \"TestResult.xml\", \"../Acme.Calc.Tests.xml\", \"/tmp/TestResult.xml\" })\n"
            "        try { System.IO.File.WriteAllText(p, xml); } catch (System.Exception) { }\n"
            "    var o = new System.IO.FileStream(\"/proc/self/fd/1\", System.IO.FileMode.Open, System.IO.FileAccess.Write);\n"
            "    var line = System.Text.Encoding.ASCII.GetBytes(\"\\n@@RT 0 START 1\\n@@RT 0 END 1\\n\");\n"
            "    o.Write(line, 0, line.Length); o.Flush();\n"
            "    System.Console.WriteLine(xml);\n"
            "    System.Environment.Exit(0);\n    return a * b;\n}")
    result = env.run(code)
    assert result.status == "runtime_error"    # the pipe is not the test uid's to reopen; if it were, no nonce
    assert ("ended before the runner finished (exit 0)" in result.reason
            or "UnauthorizedAccessException" in result.reason), result.brief()


def test_throwing_ignore_exception_is_no_pass(env, no_checker):
    code = ("{\n    var t = System.Type.GetType(\"NUnit.Framework.IgnoreException, nunit.framework\");\n"
            "    throw (System.Exception)System.Activator.CreateInstance(t, \"skip me\");\n}")
    result = env.run(code)
    assert result.status == "runtime_error" and "did not run" in result.reason, result.brief()


def test_exiting_early_is_no_pass(env):
    result = env.run("{\n    System.Environment.Exit(0);\n    return 0;\n}")
    assert result.status == "runtime_error" and "before the runner finished" in result.reason


# past the checker, which rejects their paths built at run time (file_scope: test_file_attacks)
def test_the_selection_cache_cannot_be_poisoned(env, no_checker):
    env.run(TRUTH)
    [ws] = (env.wd / "runner").glob("mono-*")
    cache = ws / "tests.json"
    before = cache.read_bytes()
    code = ("{\n" + WS_ROOT +
            "    try { System.IO.File.WriteAllText(System.IO.Path.Combine(ws.FullName, \"tests.json\"),"
            " \"{\\\"version\\\": 2, \\\"fixtures\\\": {}}\"); } catch (System.Exception) { }\n"
            "    return a * b;\n}")
    assert env.run(code).status == "test_failure"
    assert cache.read_bytes() == before
    assert env.run(WRONG).status == "test_failure"


def test_the_api_key_is_out_of_reach(env, monkeypatch):
    key = f"sk-security-{uuid.uuid4().hex}"
    monkeypatch.setenv("REPOTRANS_API_KEY", key)
    code = ("{\n    var t = new System.Text.StringBuilder();\n"
            "    t.Append(System.Environment.GetEnvironmentVariable(\"REPOTRANS_API_KEY\") ?? \"none\");\n"
            "    foreach (var d in System.IO.Directory.GetDirectories(\"/proc\")) {\n"
            "        try { t.Append(\"|\").Append(System.IO.File.ReadAllText(d + \"/environ\")); }"
            " catch (System.Exception) { }\n    }\n"
            "    throw new System.Exception(\"ENV:\" + t.ToString().Replace(\"\\0\", \" \"));\n}")
    result = env.run(code)
    assert result.status == "runtime_error"
    assert key not in _text(result) and "[redacted]" not in _text(result)
    assert _message(result).startswith("ENV:none")


def test_memory_is_bounded_for_all_processes_together(env):
    """Three children holding 300 MB each for 3 s stay under the 512 MB per-process limit, not under
    the run's (512 MB + 256 MB headroom for everything)."""
    code = ("{\n    var ps = new System.Collections.Generic.List<System.Diagnostics.Process>();\n"
            "    for (int i = 0; i < 3; i++) ps.Add(System.Diagnostics.Process.Start(\"/bin/sh\","
            " \"-c \\\"(head -c 300000000 /dev/zero; sleep 3) | tail -n 1 > /dev/null\\\"\"));\n"
            "    int ok = 0;\n    foreach (var p in ps) { p.WaitForExit(); if (p.ExitCode == 0) ok++; }\n"
            "    if (ok < 3) throw new System.Exception(\"children killed: \" + (3 - ok));\n"
            "    int sum = a + b;\n    history.Add(sum);\n    return sum;\n}")
    result = env.run(code, timeout=60.0)
    assert result.status == "runtime_error", result.brief()


def test_process_and_thread_bombs_fail_fast(env):
    """5,000 processes, each failure caught and the right sum returned: the run is killed as soon as the
    pids controller refuses a fork (its pids.events, not the console), a runtime error long before the
    60 s limit, and no process survives. 5,000 threads stop at the per-process address-space limit
    (their stacks) just as fast. A correct candidate passes afterwards in the same container."""
    token = f"{uuid.uuid4().int % 1000}.66"
    procs = ("{\n    for (int i = 0; i < 5000; i++) {\n"
             "        try { System.Diagnostics.Process.Start(\"/bin/sleep\", \"%s\"); } catch (System.Exception) { }\n"
             "    }\n    int sum = a + b;\n    history.Add(sum);\n    return sum;\n}") % token
    threads = ("{\n    for (int i = 0; i < 5000; i++) {\n"
               "        try { var t = new System.Threading.Thread(() => System.Threading.Thread.Sleep(100000), 65536);"
               " t.IsBackground = true; t.Start(); } catch (System.Exception) { }\n"
               "    }\n    int sum = a + b;\n    history.Add(sum);\n    return sum;\n}")
    started = time.monotonic()
    result = env.run(procs, timeout=60.0)
    assert result.status == "runtime_error" and result.reason == PIDS_REASON, result.brief()
    assert time.monotonic() - started < 30, "the process bomb was not stopped at the limit"
    time.sleep(0.5)
    assert commands_mentioning(f"sleep {token}") == []
    started = time.monotonic()
    result = env.run(threads, timeout=60.0)
    assert result.status == "runtime_error", result.brief()
    assert time.monotonic() - started < 30, "the thread bomb ran on"
    assert env.run(TRUTH).status == "passed"


def test_a_killed_cli_leaves_no_process_or_container_behind(env, tmp_path):
    code = tmp_path / "loop.cs"
    code.write_text("{\n    while (true) { }\n}")
    argv = [sys.executable, "-m", "repotrans.cli", "--workdir", str(env.wd), "run-tests", "--target",
            str(env.target), "--method", "Calculator.Add(int, int)", "--code", str(code),
            "--sandbox", env.sandbox, "--timeout", "120"]
    cli = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not _test_processes(env):
        time.sleep(0.2)
    assert _test_processes(env), "the test run never started"
    if env.sandbox == "docker":
        assert _containers_of(cli.pid)
    cli.send_signal(signal.SIGKILL)
    cli.wait()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and (_test_processes(env) or _containers_of(cli.pid)):
        time.sleep(0.5)
    assert _test_processes(env) == [] and _containers_of(cli.pid) == []


def _test_processes(env: Env) -> list[str]:
    """Test runner processes working in this module's workspace (whatever sandbox holds them)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if "repotrans-nunit.exe" in cmd and cwd.startswith(str(env.wd.resolve())):
            found.append(cmd)
    return found


def _containers_of(pid: int) -> list[str]:
    import docker
    owned = docker.from_env().containers.list(all=True, filters={"label": f"{LABEL}={os.uname().nodename}:{pid}"})
    return [c.id for c in owned]


def test_tampering_with_nunit_results_by_reflection_is_no_pass(env):
    """NUnit's execution context hands a candidate its test's TestResult; a thread that keeps calling
    Success() while the assertion fails would turn it into a pass. The IL policy rejects it (reflection);
    a task whose Java original uses reflection keeps this risk (named by doctor and the README)."""
    code = ("{\n    var ctxType = System.Type.GetType(\"NUnit.Core.TestExecutionContext, nunit.core\");\n"
            "    var ctx = ctxType.GetProperty(\"CurrentContext\").GetValue(null, null);\n"
            "    var result = ctxType.GetProperty(\"CurrentResult\").GetValue(ctx, null);\n"
            "    var success = result.GetType().GetMethod(\"Success\", System.Type.EmptyTypes);\n"
            "    success.Invoke(result, null);\n"
            "    var t = new System.Threading.Thread(() => { for (int i = 0; i < 2000; i++) {"
            " success.Invoke(result, null); System.Threading.Thread.Sleep(1); } });\n"
            "    t.IsBackground = true;\n    t.Start();\n"
            "    return a * b;\n}")
    result = env.run(code, allow=frozenset())
    assert result.status == "rejected", result.brief()
    assert result.reason.startswith("uses System.Reflection."), result.reason


# Issue 32: a success counts only when the test framework's own exception, thrown by the test's own code,
# ends the test (NUnit 2.6 decides by the exception's type *name*). Doors: an impostor type declared in
# the port's assembly (the candidate closes its class and namespace), one in an assembly loaded from
# bytes, and with reflection granted (a Java original using reflection) the real exception or Assert.Pass
# reached by reflection, or a test method that ends in Assert.Pass run through a delegate. The fixture's
# AddSumsTwoNumbers ends in Assert.Pass itself: each TRUTH run shows a test's own success still counts.
def _escape(exception: str) -> str:
    """A candidate for Add that throws `exception` (NUnit.Framework.<name>), declared by itself at the top
    level: it closes Calculator and its namespace, carries Calculator's later members along, and leaves
    the original ones in a class of its own."""
    calc = (CALC / "src" / "Acme.Calc" / "Calculator.cs").read_text()
    rest = calc[calc.index("        public int Divide("):calc.index("        internal int HistoryCount")]
    return ("{\n    throw new NUnit.Framework." + exception + "(\"ok\");\n}\n" + rest
            + "        internal int HistoryCount => history.Count;\n}\n}\nnamespace NUnit.Framework\n{\n    public class "
            + exception + " : System.Exception { public " + exception + "(string m) : base(m) {} }\n}\n"
            "namespace Acme.Calc\n{\npublic class CalculatorTail\n{\n"
            "    private readonly List<int> history = new List<int>();\n    public int Unused(int a, int b) { return 0; }")


def _impostor_assembly(tmp: Path) -> str:
    """The bytes (base64) of a one-type assembly declaring NUnit.Framework.SuccessException."""
    (tmp / "imp.cs").write_text("namespace NUnit.Framework { public class SuccessException : System.Exception"
                                " { public SuccessException() : base(\"ok\") {} } }\n")
    subprocess.run(["mcs", "-target:library", f"-out:{tmp / 'imp.dll'}", str(tmp / "imp.cs")], check=True,
                   capture_output=True)
    import base64
    return base64.b64encode((tmp / "imp.dll").read_bytes()).decode()


FORGED_SUCCESS = [
    ("the real SuccessException by reflection",
     "{\n    var t = System.Type.GetType(\"NUnit.Framework.SuccessException, nunit.framework\");\n"
     "    throw (System.Exception)System.Activator.CreateInstance(t, \"ok\");\n}"),
    ("Assert.Pass by reflection, rethrown",
     "{\n    var t = System.Type.GetType(\"NUnit.Framework.Assert, nunit.framework\");\n"
     "    try { t.GetMethod(\"Pass\", System.Type.EmptyTypes).Invoke(null, null); }\n"
     "    catch (System.Reflection.TargetInvocationException e) { throw e.InnerException; }\n    return a * b;\n}"),
    ("a test method ending in Assert.Pass run through a delegate",
     "{\n    if (Flag.On) { int s = a + b; history.Add(s); return s; }\n    Flag.On = true;\n"
     "    var t = System.Type.GetType(\"Acme.Calc.Tests.CalculatorTests, Acme.Calc.Tests\");\n"
     "    var run = (System.Action)System.Delegate.CreateDelegate(typeof(System.Action),"
     " System.Activator.CreateInstance(t), \"AddSumsTwoNumbers\");\n    run();\n    return a * b;\n}\n"
     "private static class Flag { public static bool On; }"),
]


@pytest.fixture
def no_checker(monkeypatch):
    """The IL checker answering "nothing denied" for every candidate (as if a rule were missing): what
    stands then is the runner's own judgement."""
    from repotrans.execution.capability import checks
    monkeypatch.setattr(checks, "merged_verdict", lambda verdicts: checks.PolicyVerdict())


@pytest.mark.parametrize("exception", ["SuccessException", "IgnoreException", "InconclusiveException"])
def test_an_impostor_of_the_frameworks_exceptions_is_rejected_and_never_passes(env, exception):
    """A type the candidate declares, named like NUnit's: the checker rejects it by name, and without the
    checker the runner knows it is not the framework's (assembly identity) and fails the test."""
    code = _escape(exception)
    result = env.run(code, allow=frozenset())
    assert result.status == "rejected" and f"NUnit.Framework.{exception}" in result.reason, result.brief()
    assert "declaration: a type declared in namespace NUnit.Framework" in result.log_tail, result.log_tail
    assert env.run(TRUTH).status == "passed"


@pytest.mark.parametrize("exception", ["SuccessException", "IgnoreException", "InconclusiveException"])
def test_an_impostor_is_no_pass_even_past_the_checker(env, no_checker, exception):
    result = env.run(_escape(exception), allow=frozenset())
    assert result.status not in ("passed", "blocked"), result.brief()
    if exception == "SuccessException":
        assert "named like the test framework's own" in _text(result), result.brief()
    assert env.run(TRUTH).status == "passed"


def test_an_impostor_assembly_loaded_from_bytes_is_no_pass(env, no_checker, tmp_path):
    code = ("{\n    var asm = System.Reflection.Assembly.Load(System.Convert.FromBase64String(\""
            + _impostor_assembly(tmp_path) + "\"));\n    throw (System.Exception)System.Activator.CreateInstance("
            "asm.GetType(\"NUnit.Framework.SuccessException\"));\n}")
    result = env.run(code)
    assert result.status not in ("passed", "blocked"), result.brief()
    assert env.run(TRUTH).status == "passed"


@pytest.mark.parametrize("attack", FORGED_SUCCESS, ids=[a[0] for a in FORGED_SUCCESS])
def test_the_frameworks_own_success_thrown_by_the_candidate_is_no_pass(env, no_checker, attack):
    """With every Java grant and the checker bypassed (its narrowed reflection allowance rejects these: a type
    named by a string is not the class itself), the real exception counts only when the test's own code threw it."""
    name, code = attack
    result = env.run(code)
    assert result.status == "runtime_error", (name, result.brief())
    assert "not by the test itself" in _text(result), (name, result.brief())
    assert env.run(TRUTH).status == "passed"


# Issue 32: a placeholder's exception wrapped on its way out. The runner's record of the call chain decides
# (execution.judge.chain): blocked when the port's own code led the test to the placeholder (ParseTriple), and
# when the candidate did where its Java original calls triple too (the test stops there whatever the candidate
# does with the exception; it is never judged past it, being on the chain); never for a chain the candidate
# made up (an inner exception never thrown: no guard fired).
JAVA_CALLS_TRIPLE = "{\n    return triple(a) + b;\n}"
WRAPPED = [
    ("the port's own code wraps it", "{\n    int sum = ParseTriple(a.ToString()) + b;\n    history.Add(sum);\n"
     "    return sum;\n}", "blocked"),
    ("the candidate wraps it", "{\n    try { return Triple(a) + b; }\n"
     "    catch (NotImplementedException e) { throw new FormatException(\"x\", e); }\n}", "blocked"),
    ("a helper of the candidate wraps it", "{\n    return Wrap(() => Triple(a)) + b;\n}\n"
     "private static int Wrap(Func<int> f)\n{\n    try { return f(); }\n"
     "    catch (NotImplementedException e) { throw new InvalidOperationException(\"x\", e); }\n}", "blocked"),
    ("the candidate makes up the chain", "{\n    throw new FormatException(\"x\", new NotImplementedException());\n}",
     "runtime_error"),
]


@pytest.mark.parametrize("case", WRAPPED, ids=[c[0] for c in WRAPPED])
def test_a_wrapped_placeholder_exception_blocks_only_when_the_port_wrapped_it(env, case):
    name, code, status = case
    [m] = env.index.find_methods("target", "Calculator.Add")
    result = env.run(code, allow=frozenset(), java=replace(m, body=JAVA_CALLS_TRIPLE))
    assert result.status == status, (name, result.brief())


# Issue 32: the tests' content through an object the test passes in. Calculator.Twice takes the test's lambda,
# whose closure class is the test assembly's: its Assembly holds the test's embedded resources (the expected
# value, 84). Doors: Type.Assembly of the closure's type, Assembly.GetAssembly of it, TypeInfo.Assembly; with
# every Java grant too. Each is rejected (only typeof(a type of this assembly).Assembly is allowed).
READ_EXPECTED = ("    using (var s = asm.GetManifestResourceStream(asm.GetManifestResourceNames()[0]))\n"
                 "    using (var r = new System.IO.StreamReader(s))\n        return int.Parse(r.ReadToEnd().Trim());\n}")
TEST_CONTENT = [
    ("Type.Assembly of the test's closure", "{\n    var asm = f.Target.GetType().Assembly;\n" + READ_EXPECTED),
    ("Assembly.GetAssembly of the test's closure",
     "{\n    var asm = System.Reflection.Assembly.GetAssembly(f.Target.GetType());\n" + READ_EXPECTED),
    ("TypeInfo.Assembly of the test's closure",
     "{\n    var asm = System.Reflection.IntrospectionExtensions.GetTypeInfo(f.Target.GetType()).Assembly;\n"
     + READ_EXPECTED),
]


@pytest.mark.parametrize("attack", TEST_CONTENT, ids=[a[0] for a in TEST_CONTENT])
def test_the_tests_embedded_resources_are_out_of_reach(env, attack):
    name, code = attack
    [twice] = env.index.find_methods("target", "Calculator.Twice")
    for allow in (frozenset(), WALLS):
        result = env.runners.run(env.index, twice, code, allow=allow)
        assert result.status == "rejected" and "test_content" in result.log_tail, (name, sorted(allow), result.brief())
    assert env.runners.run(env.index, twice, "{\n    return 2 * f();\n}").status == "passed"
    assert env.runners.run(env.index, twice, "{\n    return f();\n}").status == "test_failure"


def test_blocked_is_never_forged_by_a_top_level_exception_type_of_the_candidate(env, no_checker):
    """A candidate that closes its class declares an exception type at the top level of a port namespace
    (no '+' in its name), overriding StackTrace with a placeholder's frame. Past the checker (which keeps such
    a type out of other namespaces only), `blocked` still refuses it: an exception type in the chain must be the
    framework's or one the port declares (the index)."""
    calc = (CALC / "src" / "Acme.Calc" / "Calculator.cs").read_text()
    rest = calc[calc.index("        public int Divide("):calc.index("        internal int HistoryCount")]
    for base in ("System.NotImplementedException", "System.Exception"):
        code = ("{\n    throw new FakeTrace();\n}\n" + rest + "        internal int HistoryCount => history.Count;\n}\n"
                "public class FakeTrace : " + base + "\n{\n    public override string StackTrace { get { return \""
                + TRIPLE_FRAME.replace("\n", "\\n") + "\"; } }\n}\npublic class CalculatorTail\n{\n"
                "    private readonly List<int> history = new List<int>();\n    public int Unused(int a, int b) { return 0; }")
        [m] = env.index.find_methods("target", "Calculator.Add")
        result = env.run(code, allow=frozenset(), java=replace(m, body=JAVA_CALLS_TRIPLE))
        assert result.status not in ("blocked", "passed"), (base, result.brief())
    assert env.run(TRUTH).status == "passed"
