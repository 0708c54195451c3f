"""The deleted-class benchmark cannot overstate (issue 34): every test file of a class is hidden, and the
member comparison sees parameter types, static-ness and accessibility, not only kind, name and arity."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _bench(name: str = "bench_whole_types"):
    """A script as a module (bench_whole_types imports its sibling whole_types_api from scripts/, as when it runs)."""
    sys.path.insert(0, str(SCRIPTS))
    try:
        spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(SCRIPTS))


def test_every_test_file_of_the_class_is_its_own():
    own = _bench().own_test_file
    for name in ("BitSourceTestCase.cs", "BitSourceTests.cs", "BitSourceEdgeTest.cs", "TestBitSource.cs",
                 "TestBitSourceLarge.cs"):
        assert own("BitSource", name), name
    assert not own("BitSource", "BitSource.cs") and not own("BitSource", "BitSourceBuilder.cs")
    assert not own("BitSource", "BitArrayTestCase.cs")


def test_member_shape_includes_parameter_types_static_and_access():
    shape = _bench("whole_types_api").shape
    assert shape(["public", "static"], ["System.String", "int[]"]) == (("string", "int[]"), True, "public")
    assert shape(["public"], ["String"]) != shape(["public", "static"], ["String"])
    assert shape(["internal"], ["long"]) != shape(["public"], ["DateTime"])
    assert shape([], ["IList<Int32>"])[0] == ("IList<int>",) and shape([], [])[2] == "(default)"
    assert shape(["public", "const"], [])[1] is True
