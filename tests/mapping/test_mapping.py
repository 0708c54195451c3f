"""Mapping (types, namespaces, members), its SQLite cache, the task resolver and `repotrans mapping`."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from repotrans.cli import main
from repotrans.errors import InputError
from repotrans.mapping import mapping_cache
from repotrans.mapping.mapping import TypeMatch, build_mapping
from repotrans.mapping.load import load_mapping
from repotrans.index.store import Index
from repotrans.mapping.task import TranslationTask, resolve_task
from repotrans.mapping.typenames import compat, java_param_type, parse_type

CIRCLE_J = "source:org.acme.geometry.shapes.Circle"
CIRCLE_C = "target:Acme.Geo.Shapes.Circle"


@pytest.fixture()
def index(tmp_path: Path, pair) -> Index:
    ix = Index.open(tmp_path / "work")
    ix.build(*pair, progress=False)
    return ix


def test_namespace_map_learned_by_majority(index):
    m = build_mapping(index)
    assert m.namespace_map == {
        "org.acme.geometry": "Acme.Geo",                 # Point is in Acme.Geo and Acme.Drawing: Vector decides
        "org.acme.geometry.shapes": "Acme.Geo.Shapes",
        "org.acme.text": "Acme.Text.Util",               # renamed package
    }
    assert m.namespace_votes["org.acme.geometry"] == {"Acme.Geo": 1.5, "Acme.Drawing": 0.5}
    assert m.namespace_votes["org.acme.misc"] == {"Acme.A": 0.5, "Acme.B": 0.5}   # tie: no entry


def test_type_matches_exact(index):
    m = build_mapping(index)
    got = {(t.source_id.split(":")[1], t.target_id.split(":")[1], t.confidence) for t in m.type_matches}
    assert got == {
        ("org.acme.geometry.Point", "Acme.Geo.Point", 1.0),
        ("org.acme.geometry.Vector", "Acme.Geo.Vector", 1.0),
        ("org.acme.geometry.shapes.Circle", "Acme.Geo.Shapes.Circle", 1.0),
        ("org.acme.geometry.shapes.Circle.Builder", "Acme.Geo.Shapes.Circle.Builder", 1.0),
        ("org.acme.geometry.shapes.Shape", "Acme.Geo.Shapes.IShape", 0.95),
        ("org.acme.geometry.shapes.Square", "Acme.Geo.Shapes.Square", 1.0),
        ("org.acme.text.Strings", "Acme.Text.Util.Strings", 1.0),
        ("org.acme.text.Tokenizer", "Acme.Text.Util.Tokenizer", 1.0),
    }
    assert m.unmatched_types == {
        "source:org.acme.misc.Helper": "ambiguous: target:Acme.A.Helper, target:Acme.B.Helper"}
    assert m.target_type("source:org.acme.misc.Helper") is None
    assert m.source_type("target:Acme.Geo.Shapes.IShape").source_id == "source:org.acme.geometry.shapes.Shape"


def test_member_rules_getter_setter_overloads(index):
    m = build_mapping(index)
    got = {(x.source_id, x.target_id, x.reason) for x in m.method_matches if x.source_id.startswith(CIRCLE_J + ".")
           and not x.source_id.startswith(CIRCLE_J + ".Builder")}
    assert got == {
        (f"{CIRCLE_J}.<init>(double)", f"{CIRCLE_C}.<init>(double)", "constructor"),
        (f"{CIRCLE_J}.<init>()", f"{CIRCLE_C}.<init>()", "constructor"),
        (f"{CIRCLE_J}.getArea()", f"{CIRCLE_C}.Area", "getter -> property"),
        (f"{CIRCLE_J}.getName()", f"{CIRCLE_C}.Name", "getter -> property"),
        (f"{CIRCLE_J}.isUnit()", f"{CIRCLE_C}.IsUnit", "getter -> property"),
        (f"{CIRCLE_J}.setLabel(String)", f"{CIRCLE_C}.Label", "setter -> property"),
        (f"{CIRCLE_J}.scale(double)", f"{CIRCLE_C}.Scale(double)", "PascalCase name"),
        (f"{CIRCLE_J}.scale(int)", f"{CIRCLE_C}.Scale(int)", "PascalCase name"),
        (f"{CIRCLE_J}.sum(List<Shape>)", f"{CIRCLE_C}.Sum(IList<IShape>)", "PascalCase name"),
        (f"{CIRCLE_J}.toString()", f"{CIRCLE_C}.ToString()", "PascalCase name"),
    }
    assert m.unmatched_methods[f"{CIRCLE_J}.debugDump()"] == "no C# member by the naming rules"
    assert m.unmatched_methods["source:org.acme.misc.Helper.twice(int)"] == "enclosing type unmatched"
    assert m.target_method("source:org.acme.text.Strings.join(String, String...)").target_id == \
        "target:Acme.Text.Util.Strings.Join(string, string[])"
    assert m.source_method(f"{CIRCLE_C}.Scale(int)").source_id == f"{CIRCLE_J}.scale(int)"


def test_overload_ambiguity_stays_unmatched(tmp_path, pair):
    """Two Java overloads that map to the same C# types (int and Integer) cannot both be placed by name;
    the body tells which one the C# method is."""
    java, cs = pair
    path = java / "src/org/acme/geometry/Vector.java"
    path.write_text(path.read_text().replace(
        "    public double length() {",
        "    public Vector times(int k) {\n        return new Vector(dx * k, dy * k);\n    }\n\n"
        "    public Vector times(Integer k) {\n        return times(k.intValue());\n    }\n\n"
        "    public double length() {"))
    cpath = cs / "Geo/Vector.cs"
    cpath.write_text(cpath.read_text().replace(
        "        public double Length()",
        "        public Vector Times(int k)\n        {\n            return new Vector(Dx * k, Dy * k);\n        }\n\n"
        "        public double Length()"))
    ix = Index.open(tmp_path / "w2")
    ix.build(java, cs, progress=False)
    m = build_mapping(ix)
    same = m.target_method("source:org.acme.geometry.Vector.times(int)")
    assert (same.target_id, same.reason) == ("target:Acme.Geo.Vector.Times(int)", "structural evidence")
    assert "body 1.00" in same.evidence
    sid = "source:org.acme.geometry.Vector.times(Integer)"
    assert m.target_method(sid) is None
    assert m.unmatched_methods[sid].startswith("several Java methods claim target:Acme.Geo.Vector.Times(int)")


def test_param_type_table():
    def ok(j: str, c: str, varargs: bool = False) -> float:
        return compat(java_param_type(j, varargs), parse_type(c), {"Shape": {"IShape"}}, frozenset({"T"}),
                      frozenset({"T"}))
    assert ok("String", "string") == 1.0
    assert ok("boolean", "bool") == 1.0
    assert ok("java.util.List<String>", "IList<string>") == 1.0
    assert ok("Map<String, List<Shape>>", "Dictionary<string, List<IShape>>") == 1.0
    assert ok("String", "string[]", varargs=True) == 1.0
    assert ok("List", "List<T>") == 0.5                        # raw type: loose
    assert ok("T", "T") == 1.0
    assert ok("int", "long") == 0.0
    assert ok("Shape", "Shape") == 0.0                         # Shape became IShape in this port


def test_a_method_both_matched_and_named_unmatched_is_cached_as_matched(index):
    """A later claim on a matched method's target may also name it unmatched; the cache keeps the match
    (it used to fail the write with a UNIQUE constraint, and so every command on ICU4N)."""
    mapping = load_mapping(index)
    match = mapping.method_matches[0]
    mapping.unmatched_methods[match.source_id] = "several Java methods claim it"
    mapping_cache.write(index, "fp-both", mapping)
    cached = mapping_cache.read(index, "fp-both")
    assert cached.target_method(match.source_id) == match
    assert match.source_id not in cached.unmatched_methods


@pytest.mark.parametrize("older", [
    "CREATE TABLE mapping_meta (fingerprint TEXT NOT NULL, namespace_votes TEXT NOT NULL)",          # no counts
    "CREATE TABLE mapping_match (kind TEXT, source_id TEXT, target_id TEXT, confidence REAL, reason TEXT)",
])
def test_a_cache_table_of_any_older_layout_is_no_cache_and_replaced(index, older):
    """Whichever table an older version made, reading answers 'no cache' and writing replaces them all."""
    mapping = load_mapping(index)
    for table in ("mapping_meta", "mapping_namespace", "mapping_match"):
        index.conn.execute(f"DROP TABLE IF EXISTS {table}")
    index.conn.execute(older)
    assert mapping_cache.read(index, "fp") is None
    mapping_cache.write(index, "fp", mapping)
    assert mapping_cache.read(index, "fp").method_matches == mapping.method_matches


def test_cache_roundtrip_and_invalidation(index, pair):
    first = load_mapping(index)
    fp = mapping_cache.fingerprint(index)
    cached = mapping_cache.read(index, fp)
    assert cached is not None
    assert cached.render(verbose=True) == first.render(verbose=True)
    assert cached.method_matches == first.method_matches and cached.counts == first.counts
    started = time.perf_counter()
    load_mapping(index)
    assert time.perf_counter() - started < 0.5
    java, cs = pair
    (cs / "Geo/Vector.cs").write_text((cs / "Geo/Vector.cs").read_text().replace("Length()", "Norm()"))
    index.build(java, cs, progress=False)
    new_fp = mapping_cache.fingerprint(index)
    assert new_fp != fp and mapping_cache.read(index, new_fp) is None
    rebuilt = load_mapping(index)
    renamed = rebuilt.target_method("source:org.acme.geometry.Vector.length()")   # found again by its body
    assert (renamed.target_id, renamed.reason) == ("target:Acme.Geo.Vector.Norm()", "structural evidence")
    assert mapping_cache.read(index, mapping_cache.fingerprint(index)) is not None


# --- task resolver ------------------------------------------------------------------------------

@pytest.mark.parametrize("signature, expected", [
    ("Acme.Geo.Shapes.Circle.Area", ("Circle.Area", "Circle.getArea()")),
    ("Circle.Scale(double)", ("Circle.Scale(double)", "Circle.scale(double)")),
    ("org.acme.geometry.shapes.Circle.getArea()", ("Circle.Area", "Circle.getArea()")),
    ("Circle.setLabel(String)", ("Circle.Label", "Circle.setLabel(String)")),
    ("target:Acme.Geo.Shapes.Circle.<init>()", ("Circle.<init>()", "Circle.<init>()")),
])
def test_resolve_task(index, signature, expected):
    task = resolve_task(index, load_mapping(index), signature)
    assert task == TranslationTask(f"target:Acme.Geo.Shapes.{expected[0]}",
                                   f"source:org.acme.geometry.shapes.{expected[1]}")


@pytest.mark.parametrize("signature, message, suggestions", [
    ("Circle.Scale", "'Circle.Scale' matches 2 methods; add the namespace or the parameter types",
     ["Acme.Geo.Shapes.Circle.Scale(double)", "Acme.Geo.Shapes.Circle.Scale(int)"]),
    ("Circle.Aera", "no method matches 'Circle.Aera'", None),
    ("Circle.debugDump()", "Java method org.acme.geometry.shapes.Circle.debugDump() has no C# counterpart "
                           "(no C# member by the naming rules)", []),
    ("IShape.Area", "C# member Acme.Geo.Shapes.IShape.Area has no body to translate "
                    "(abstract, extern, interface member or auto-property)", []),
    ("  ", "empty function signature", []),
])
def test_resolve_task_errors(index, signature, message, suggestions):
    with pytest.raises(InputError) as err:
        resolve_task(index, load_mapping(index), signature)
    assert err.value.message == message
    if suggestions is None:
        assert err.value.did_you_mean[0] == "Acme.Geo.Shapes.Circle.Area"
    else:
        assert err.value.did_you_mean == suggestions


# --- CLI ------------------------------------------------------------------------------------------

def test_cli_mapping(tmp_path, pair, capsys):
    work = tmp_path / "cli"
    assert main(["--workdir", str(work), "index", "--source", str(pair[0]), "--target", str(pair[1]),
                 "--quiet"]) == 0
    capsys.readouterr()
    assert main(["--workdir", str(work), "mapping"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "package -> namespace (share of name-matched types):",
        "  org.acme.geometry -> Acme.Geo  (1.5/2)",
        "  org.acme.geometry.shapes -> Acme.Geo.Shapes  (3/3)",
        "  org.acme.misc -> (no majority: Acme.A, Acme.B)",
        "  org.acme.text -> Acme.Text.Util  (2/2)",
        "types:   8 matched of 9 Java types (11 C# types), 1 unmatched",
        "methods: 26 matched of 29 Java methods (28 C# members), 3 unmatched",
    ]
    assert main(["--workdir", str(work), "mapping", "--verbose"]) == 0
    verbose = capsys.readouterr().out
    assert ("  source:org.acme.geometry.Point.getX() -> target:Acme.Geo.Point.X  [0.95 getter -> property]"
            in verbose.splitlines())


def test_cli_mapping_without_index(tmp_path, capsys):
    assert main(["--workdir", str(tmp_path / "none"), "mapping"]) == 2
    assert "no index in" in capsys.readouterr().err


# --- the sample pair ------------------------------------------------------------------------------

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"


def test_sample_pair_port_patterns(tmp_path):
    """Extension methods for a Java enum, a static factory moved to a companion class, get(int) -> indexer,
    boundingBox() -> GetBoundingBox(), iterator() -> the generic GetEnumerator, Predicate<T> -> Func<T, bool>."""
    ix = Index.open(tmp_path)
    ix.build(SAMPLE / "java", SAMPLE / "csharp", progress=False)
    m = build_mapping(ix)
    assert m.namespace_map == {"org.acme.geometry": "Acme.Geo", "org.acme.geometry.shapes": "Acme.Geo.Shapes",
                               "org.acme.geometry.units": "Acme.Geo.Measure", "org.acme.util": "Acme.Common"}
    assert not m.unmatched_types

    def pair(java: str) -> tuple[str, str, float, str]:
        x = m.target_method("source:" + java)
        return (x.target_id.split(":")[1], x.reason, x.confidence) if x else None

    units, shapes = "org.acme.geometry.units.", "org.acme.geometry.shapes."
    assert pair(units + "LengthUnit.getSymbol()") == (
        "Acme.Geo.Measure.LengthUnitExtensions.Symbol(LengthUnit)",
        "getter -> property, extension method in LengthUnitExtensions", 0.855)
    assert pair(units + "LengthUnit.convert(double, LengthUnit)") == (
        "Acme.Geo.Measure.LengthUnitExtensions.Convert(LengthUnit, double, LengthUnit)",
        "PascalCase name, extension method in LengthUnitExtensions", 0.9)
    assert pair(units + "LengthUnit.fromSymbol(String)") == (
        "Acme.Geo.Measure.LengthUnitExtensions.FromSymbol(string)", "PascalCase name, moved to LengthUnitExtensions",
        0.9)
    assert pair("org.acme.util.Pair.of(A, B)") == (
        "Acme.Common.Pairs.Of(TFirst, TSecond)", "PascalCase name, moved to Pairs", 0.9)
    assert pair(shapes + "ShapeCollection.get(int)") == (
        "Acme.Geo.Shapes.ShapeCollection.this[int]", "getter -> indexer", 0.9)
    assert pair(shapes + "Circle.boundingBox()") == (
        "Acme.Geo.Shapes.Circle.GetBoundingBox()", "method -> Get method", 0.85)
    assert pair(shapes + "ShapeCollection.iterator()") == (
        "Acme.Geo.Shapes.ShapeCollection.GetEnumerator()", "renamed member", 0.95)
    assert pair(shapes + "ShapeCollection.filter(Predicate<? super T>)") == (
        "Acme.Geo.Shapes.ShapeCollection.Filter(Func<T, bool>)", "PascalCase name, raw/generic parameter types", 0.8)
    assert pair(shapes + "Shape.describe()") == (
        "Acme.Geo.Shapes.ShapeExtensions.Describe(IShape)", "PascalCase name, extension method in ShapeExtensions",
        0.9)
    assert pair("org.acme.geometry.GeometryException.<init>(String, Throwable)") == (
        "Acme.Geo.GeometryException.<init>(string, Exception)", "constructor", 1.0)
    # private constructors of Java utility classes and the Java enum's constructor have no C# counterpart
    assert sorted(m.unmatched_methods) == [
        "source:org.acme.geometry.GeometryMath.<init>()",
        "source:org.acme.geometry.units.LengthUnit.<init>(String, double, boolean)",
        "source:org.acme.util.CollectionUtils.<init>()",
        "source:org.acme.util.Preconditions.<init>()",
        "source:org.acme.util.StringUtils.<init>()",
    ]


def test_nested_type_moved_to_top_level(tmp_path):
    (tmp_path / "j/p").mkdir(parents=True)
    (tmp_path / "c").mkdir()
    (tmp_path / "j/p/Tokenizer.java").write_text(
        "package p;\npublic class Tokenizer {\n"
        "    public static final class Token {\n        private final String text;\n"
        "        public Token(String text) { this.text = text; }\n"
        "        public String getText() { return text; }\n    }\n"
        "    public Token next(Token previous) { return new Token(\"x\"); }\n}\n")
    (tmp_path / "c/Tokenizer.cs").write_text(
        "namespace P\n{\n    public sealed class TokenizerToken\n    {\n        private readonly string text;\n"
        "        public TokenizerToken(string text) { this.text = text; }\n"
        "        public string Text { get { return text; } }\n    }\n\n"
        "    public class Tokenizer\n    {\n"
        "        public TokenizerToken Next(TokenizerToken previous) { return new TokenizerToken(\"x\"); }\n"
        "        public TokenizerToken Next(string previous) { return new TokenizerToken(previous); }\n    }\n}\n")
    ix = Index.open(tmp_path / "w")
    ix.build(tmp_path / "j", tmp_path / "c", progress=False)
    m = build_mapping(ix)
    assert m.target_type("source:p.Tokenizer.Token") == TypeMatch(
        "source:p.Tokenizer.Token", "target:P.TokenizerToken", 0.85,
        "nested type moved out as TokenizerToken, namespace P")
    # the overload is told apart through the type mapping Token -> TokenizerToken
    assert m.target_method("source:p.Tokenizer.next(Token)").target_id == "target:P.Tokenizer.Next(TokenizerToken)"
    assert m.target_method("source:p.Tokenizer.Token.getText()").target_id == "target:P.TokenizerToken.Text"


def test_cache_key_covers_every_file_of_the_index_and_mapping_packages():
    """The code digest reads the packages as installed: every module and data file (queries, name
    table) is in it, so no hand-kept list can forget one."""
    import pkgutil
    from importlib import resources

    import repotrans.index
    import repotrans.mapping

    hashed = {rel for package in mapping_cache.CODE_PACKAGES
              for rel, _ in mapping_cache._package_files(resources.files(package), package)}
    for package in (repotrans.index, repotrans.mapping):
        for mod in pkgutil.iter_modules(package.__path__):
            assert f"{package.__name__}/{mod.name}.py" in hashed
    assert "repotrans.mapping/data/java_cs_names.json" in hashed
    assert any(rel.startswith("repotrans.index/queries/") for rel in hashed)
    assert not any("__pycache__" in rel for rel in hashed)
