"""The file-system allowance narrowed to the paths the Java original names (il_path.py, cecil_path.cs): with a
Java original that does file I/O, its translation may open paths built from its parameters, the Java method's
literals and the port's own fields, and nothing else. Each way of turning the allowance toward the test area
(the test assembly's location, the current, base or temporary directory, a literal the Java original never
names, a char array, a string builder, a path laundered through a field, a helper's parameter, a lambda or an
array) is denied `file_scope` by both checkers with the same denials; the member's own file I/O stays open."""
from __future__ import annotations

import pytest

from repotrans.execution.capability import checks
from repotrans.execution.capability.checks import MemberRef
from repotrans.execution.capability.checks import PARENT
from repotrans.execution.capability.il_path import literals, path_allowance
from tests.execution.capability.test_il_check import compile_calc
from tests.execution.capability.test_typesafe import built  # noqa: F401  (the fixture)
from tests.support.cecil import both_checkers

LOAD = MemberRef("Acme.Calc.Calculator", ("Load",), 1, ("String",))
ADD = "public int Add(int a, int b)\n{\n    int sum = a + b;\n    history.Add(sum);\n    return sum;\n}\n"
IO = "System.IO."
# what the Java original names: `new File(dir, "data")`, `name + ".txt"`, `'/'`
JAVA_LITERALS = ("data", ".txt", "/")
ALLOWED = frozenset({"file_system", *map(path_allowance, JAVA_LITERALS)})


def load(body: str, extra: str = "") -> str:
    return ADD + "public string Load(string path)\n" + body + "\n" + extra


OWN = [
    ("the parameter itself", load("{ return " + IO + "File.ReadAllText(path); }")),
    ("the parameter combined with the Java original's literals",
     load("{ return " + IO + "File.ReadAllText(" + IO + "Path.Combine(path, \"data\") + \".txt\"); }")),
    ("the files of the directory it is given", load("{ string all = \"\";\n  foreach (var f in " + IO +
                                                    "Directory.GetFiles(path)) all += " + IO + "File.ReadAllText(f);\n"
                                                    "  return all; }")),
    ("a FileInfo's directory (the Java original climbs)", load("{ var d = new " + IO + "FileInfo(path).Directory;\n  return " + IO +
                                    "File.Exists(d.FullName + '/' + \"data\") ? \"y\" : \"n\"; }")),
    ("a long concatenation with a number", load("{ int n = path.Length;\n  return " + IO + "File.ReadAllText(path + "
                                                "\"/\" + \"data\" + \"/\" + n + \".txt\"); }")),
    ("a reader over the parameter, and a helper it hands the path to",
     load("{ using (var r = new " + IO + "StreamReader(path)) return r.ReadLine() + Peek(path); }",
          "private static string Peek(string p) { return " + IO + "File.Exists(p) ? \"\" : \"-\"; }")),
    ("a text it writes to the path it is given", load("{ " + IO + "File.WriteAllText(path, \"x\" + history.Count);"
                                                      " return path; }")),
]
FOREIGN = [
    ("a data file by a literal the Java original never names", load("{ return " + IO + "File.ReadAllText(\"expected.txt\"); }")),
    ("the current directory enumerated", load("{ return string.Join(\",\", " + IO + "Directory.GetFiles(" + IO +
                                              "Directory.GetCurrentDirectory())); }")),
    ("a path spelled in a char array", load("{ return " + IO + "File.ReadAllText(new string(new[] { 'o', 'u', 't' })); }")),
    ("the parameter's folder and a name the Java original never names",
     load("{ return " + IO + "File.ReadAllText(" + IO + "Path.Combine(" + IO + "Path.GetDirectoryName(path), "
          "\"expected.txt\")); }")),
    ("the environment's current directory", load("{ return " + IO + "File.ReadAllText(System.Environment.CurrentDirectory"
                                                 " + \"/data.txt\"); }")),
    ("a file written to the temporary folder for the next candidate",
     load("{ " + IO + "File.WriteAllText(" + IO + "Path.GetTempPath() + \"data\", path); return path; }")),
    ("a path laundered through a field", load("{ seen = " + IO + "Directory.GetCurrentDirectory();\n"
                                              "  return " + IO + "File.ReadAllText(seen + \"/data.txt\"); }",
                                              "private string seen;")),
    ("a path handed to a helper of its own", load("{ return Read(" + IO + "Path.GetTempPath()); }",
                                                  "private static string Read(string p) { return " + IO +
                                                  "File.ReadAllText(p + \"data\"); }")),
    ("a path through a lambda's parameter", load("{ System.Func<string, string> f = p => " + IO + "File.ReadAllText(p);\n"
                                                 "  return f(" + IO + "Directory.GetCurrentDirectory()); }")),
    ("a path built in a string builder", load("{ return " + IO + "File.ReadAllText(new System.Text.StringBuilder(path)"
                                              ".Append(\"/../expected\").ToString()); }")),
    ("the test assembly's bytes by its location", load("{ return " + IO + "File.ReadAllBytes(typeof(Calculator)"
                                                       ".Assembly.Location).Length + path; }")),
    ("a foreign element in an array of path parts", load("{ return " + IO + "File.ReadAllText(" + IO + "Path.Combine("
                                                          "new[] { path, \"data\", " + IO + "Path.GetTempPath() })); }")),
    ("the folder above the parameter, enumerated", load("{ return string.Join(\",\", " + IO + "Directory.GetFiles("
                                                        + IO + "Path.GetDirectoryName(path))); }")),
    ("a path returned by a helper of its own", load("{ return " + IO + "File.ReadAllText(Here() + \"data\"); }",
                                                    "private static string Here() { return " + IO +
                                                    "Directory.GetCurrentDirectory(); }")),
]


@pytest.fixture(scope="module")
def loading(built, tmp_path_factory):  # noqa: F811
    exe, base, _ = built
    tmp = tmp_path_factory.mktemp("paths")
    base = compile_calc(tmp, "base", load("{ return path; }"))
    return exe, base, {name: compile_calc(tmp, f"p{n}", code) for n, (name, code) in enumerate(OWN + FOREIGN)}


def test_an_allowance_carries_the_java_originals_literals():
    assert literals(ALLOWED) == frozenset(JAVA_LITERALS)
    assert literals(frozenset({path_allowance("tab\there, é")})) == {"tab\there, é"}


@pytest.mark.slow
@pytest.mark.parametrize("case", OWN, ids=[c[0] for c in OWN])
def test_the_member_opens_the_paths_it_is_given_and_the_java_original_names(loading, case):
    for verdict in both_checkers(loading, LOAD, case[0], ALLOWED | {PARENT}):
        assert verdict.ok, (case[0], verdict.log())


@pytest.mark.slow
@pytest.mark.parametrize("case", FOREIGN, ids=[c[0] for c in FOREIGN])
def test_the_file_allowance_reaches_no_other_path(loading, case):
    for verdict in both_checkers(loading, LOAD, case[0], ALLOWED | frozenset(checks.GRANTS)):
        assert "file_scope" in {d.capability for d in verdict.denials}, (case[0], verdict.log())


@pytest.mark.slow
def test_a_parent_folder_is_open_only_when_the_java_original_climbs(loading):
    for verdict in both_checkers(loading, LOAD, "the folder above the parameter, enumerated", ALLOWED | {PARENT}):
        assert verdict.ok, verdict.log()
