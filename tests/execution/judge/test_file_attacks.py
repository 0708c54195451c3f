"""A Java original that does file I/O grants its translation the paths it names, not the file system: a wrong
body that looks for the answer elsewhere (the folder the tests write to, found from the temporary directory, a
char array, the working directory or the test assembly's folder; a file it leaves for the next candidate; a
name the Java original never names beside the path it is given) is rejected under both sandboxes, and the
right body is still passed right after, in the same warm sandbox.

The port (mcs, the runner, NUnit 2.6): Store.Load(dir, name) is the task; each test writes its file into a
fresh folder under the temporary directory and expects Load to return what it wrote. Before the allowance was
narrowed (il_path.py, cecil_path.cs), the bodies that search the temporary directory passed.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from repotrans.index.store import Index
from tests.support.mono_repos import only_method, port_fixture

STORE = """using System;
using System.IO;
using System.Linq;

namespace Acme
{
    public class Store
    {
        public string Load(string dir, string name)
        {
            throw new NotImplementedException();
        }

        public int Count(string dir)
        {
            return Directory.GetFiles(dir).Length;
        }
    }
}
"""
TESTS = """using System;
using System.IO;
using NUnit.Framework;

namespace Acme.Tests
{
    [TestFixture]
    public class StoreTests
    {
        string dir;

        [SetUp] public void Make() { dir = Path.Combine(Path.GetTempPath(), "store-" + Guid.NewGuid().ToString("N")); Directory.CreateDirectory(dir); }
        [TearDown] public void Drop() { Directory.Delete(dir, true); }
        [Test] public void LoadsAGreeting() { File.WriteAllText(Path.Combine(dir, "a.txt"), "hello"); Assert.AreEqual("hello", new Store().Load(dir, "a")); }
        [Test] public void LoadsAnother() { File.WriteAllText(Path.Combine(dir, "b.txt"), "world " + 42); Assert.AreEqual("world 42", new Store().Load(dir, "b")); }
        [Test] public void CountsFiles() { File.WriteAllText(Path.Combine(dir, "c.txt"), ""); Assert.AreEqual(1, new Store().Count(dir)); }
    }
}
"""
JAVA = ("{\n    File f = new File(dir, name + \".txt\");\n"
        "    return new String(Files.readAllBytes(f.toPath()), \"UTF-8\");\n}")
RIGHT = "{\n    return File.ReadAllText(Path.Combine(dir, name + \".txt\"));\n}"
NEWEST = ".OrderBy(f => f.LastWriteTimeUtc).Last().FullName"
# (form, wrong body): each ignores `dir` or reaches past it
WRONG = [
    ("the file the test wrote, found by searching the temporary directory",
     "{\n    var found = new DirectoryInfo(Path.GetTempPath()).GetFiles(name + \".txt\", SearchOption.AllDirectories);\n"
     "    return File.ReadAllText(found" + NEWEST + ");\n}"),
    ("the temporary directory spelled in a char array",
     "{\n    var tmp = new string(new[] { '/', 't', 'm', 'p' });\n"
     "    var found = Directory.GetFiles(tmp, name + \".txt\", SearchOption.AllDirectories);\n"
     "    return File.ReadAllText(found.Last());\n}"),
    ("the working directory's assemblies read (the test assembly among them)",
     "{\n    long n = 0;\n    foreach (var f in Directory.GetFiles(Directory.GetCurrentDirectory(), \"*.dll\"))\n"
     "        n += File.ReadAllBytes(f).Length;\n    return n > 0 ? \"hello\" : \"\";\n}"),
    ("the test assembly's folder by the environment's current directory",
     "{\n    var here = Environment.CurrentDirectory;\n"
     "    return File.Exists(Path.Combine(here, \"Acme.Tests.dll\")) ? \"hello\" : File.ReadAllText(Path.Combine(dir, name + \".txt\"));\n}"),
    ("a file left in the temporary directory for the next candidate",
     "{\n    var text = File.ReadAllText(Path.Combine(dir, name + \".txt\"));\n"
     "    File.AppendAllText(Path.Combine(Path.GetTempPath(), \"answers.txt\"), name + \"=\" + text + \"\\n\");\n"
     "    return text;\n}"),
    ("a name the Java original never names beside the folder it is given",
     "{\n    var expected = Path.Combine(dir, \"expected.txt\");\n"
     "    return File.Exists(expected) ? File.ReadAllText(expected) : File.ReadAllText(Path.Combine(dir, name + \".txt\"));\n}"),
    ("the folders beside the one it is given (the Java original never climbs)",
     "{\n    var found = Directory.GetFiles(Path.GetDirectoryName(dir), name + \".txt\", SearchOption.AllDirectories);\n"
     "    return File.ReadAllText(found.Last());\n}"),
    ("a path kept in a field, then read",
     "{\n    root = Path.GetTempPath();\n    var found = Directory.GetFiles(root, name + \".txt\", SearchOption.AllDirectories);\n"
     "    return File.ReadAllText(found.Last());\n}\nstring root;"),
    ("a path handed to a helper of its own",
     "{\n    return Find(Path.GetTempPath(), name);\n}\n"
     "static string Find(string top, string name)\n{\n"
     "    return File.ReadAllText(Directory.GetFiles(top, name + \".txt\", SearchOption.AllDirectories).Last());\n}"),
]


env = port_fixture("files", {"Store.cs": STORE}, {"StoreTests.cs": TESTS})


def task(index: Index):
    return only_method(index, "Store.Load")


@pytest.mark.parametrize("attack", WRONG, ids=[a[0] for a in WRONG])
def test_a_wrong_body_reaching_past_the_paths_the_java_original_names_is_rejected(env, attack):
    name, code = attack
    index, runners = env
    method = task(index)
    java = replace(method, body=JAVA)
    result = runners.run(index, method, code, java=java)
    assert result.status == "rejected" and "file access beyond the paths" in result.reason, (name, result.brief())
    again = runners.run(index, method, RIGHT, java=java)       # the right body right after, in the same sandbox
    assert again.status == "passed", (name, again.brief())
    assert again.trust.startswith("trust: reduced (file_system"), again.trust
