"""Mapping hygiene on fixtures shaped like real ports (issue 19): a C# test type is never the
counterpart of a Java product type; one coincidental match never decides a package's namespace; a
contested C# type goes to the Java twin whose package maps to its namespace; a C# static
constructor has its own identity and is never an instance constructor's counterpart."""
from __future__ import annotations

from tests.support.indexes import mapped_pair, target_of


def test_test_project_types_are_never_counterparts_of_product_types(tmp_path):
    m, _ = mapped_pair(tmp_path, {
        "src/main/java/org/acme/ec/ECPoint.java": "package org.acme.ec; public class ECPoint {\n"
            "  public static class F2m { public int twice(int x) { return 2 * x; } } }",
        "src/main/java/org/acme/zip/Tree.java": "package org.acme.zip; public class Tree { public int depth() { return 0; } }",
        "src/test/java/org/acme/ec/ECPointTest.java": "package org.acme.ec; import org.junit.Test;\n"
            "public class ECPointTest { @Test public void twice() { } }",
    }, {
        "crypto/Crypto.csproj": '<Project Sdk="Microsoft.NET.Sdk"></Project>',
        "crypto/Ec/ECPoint.cs": "namespace Acme.Ec { public class ECPoint { } }",
        "tests/Crypto.Tests.csproj": '<Project Sdk="Microsoft.NET.Sdk"><ItemGroup><PackageReference Include="NUnit" '
                                     'Version="3.13.0" /></ItemGroup></Project>',
        "tests/Ec/ECPointTest.cs": "namespace Acme.Ec.Tests { public class ECPointTest {\n"
            "  [NUnit.Framework.Test] public void Twice() { }\n"
            "  public class F2m { public int Twice(int x) { return 2 * x; } } } }",
        "tests/Zip/Tree.cs": "namespace Acme.Tests.Utilities.Zlib { internal class Tree { public int Depth() { return 0; } } }",
    })
    assert target_of(m, "org.acme.ec.ECPoint") == "Acme.Ec.ECPoint"
    assert target_of(m, "org.acme.ec.ECPoint.F2m") is None            # not ECPointTest.F2m of the test project
    assert target_of(m, "org.acme.zip.Tree") is None                  # not the test project's Zlib.Tree
    assert target_of(m, "org.acme.ec.ECPointTest") == "Acme.Ec.Tests.ECPointTest"   # tests pair with tests


def test_one_match_never_decides_a_namespace(tmp_path):
    m, _ = mapped_pair(tmp_path, {
        "org/acme/pqc/Tree.java": "package org.acme.pqc; public class Tree { }",
        "org/acme/pqc/Signer.java": "package org.acme.pqc; public class Signer { }",
        "org/acme/pqc/Params.java": "package org.acme.pqc; public class Params { }",
    }, {"Util/Tree.cs": "namespace Acme.Utilities.Zlib { public class Tree { } }"})
    assert "org.acme.pqc" not in m.namespace_map
    assert m.namespace_votes["org.acme.pqc"] == {"Acme.Utilities.Zlib": 1.0}


def test_a_contested_type_goes_to_the_twin_whose_package_maps_to_its_namespace(tmp_path):
    """geo.Codec became Acme.Geo.CodecHelper (suffix added: 0.8); the unported impl.CodecHelper claims
    it by its exact name, but as the only candidate outside its package's namespace (also 0.8)."""
    m, _ = mapped_pair(tmp_path, {
        "org/acme/geo/Point.java": "package org.acme.geo; public class Point { }",
        "org/acme/geo/Line.java": "package org.acme.geo; public class Line { }",
        "org/acme/geo/Ring.java": "package org.acme.geo; public class Ring { }",
        "org/acme/geo/Codec.java": "package org.acme.geo; public class Codec { }",
        "org/acme/geo/impl/CodecHelper.java": "package org.acme.geo.impl; public class CodecHelper { }",   # unported
        "org/acme/geo/impl/Packed.java": "package org.acme.geo.impl; public class Packed { }",
        "org/acme/geo/impl/Sparse.java": "package org.acme.geo.impl; public class Sparse { }",
    }, {"Geo.cs": "namespace Acme.Geo { public class Point { } public class Line { } public class Ring { }"
                  " public class CodecHelper { } }",
        "Impl.cs": "namespace Acme.Geo.Impl { public class Packed { } public class Sparse { } }"})
    assert m.namespace_map["org.acme.geo"] == "Acme.Geo"
    assert target_of(m, "org.acme.geo.Codec") == "Acme.Geo.CodecHelper"
    assert target_of(m, "org.acme.geo.impl.CodecHelper") is None


def test_a_static_constructor_is_not_an_instance_constructor(tmp_path):
    m, ix = mapped_pair(tmp_path, {
        "p/Tables.java": "package p; public final class Tables {\n  private Tables() { }\n"
                         "  static final int[] T = new int[4];\n  public static int at(int i) { return T[i]; } }",
    }, {"Tables.cs": "namespace P { public static class Tables {\n  static readonly int[] T;\n"
                     "  static Tables() { T = new int[4]; }\n  public static int At(int i) { return T[i]; } } }"})
    ids = sorted(meth.id for meth in ix.methods("target:P.Tables"))
    assert ids == ["target:P.Tables.<clinit>()", "target:P.Tables.At(int)"]
    assert target_of(m, "p.Tables.at(int)") == "P.Tables.At(int)"
    assert target_of(m, "p.Tables.<init>()") is None
