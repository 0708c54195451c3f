"""Renames along a hierarchy (mapping.inherited): an abstract method and its overrides renamed together."""
from __future__ import annotations

from tests.support.indexes import mapped_pair

JAVA = {"p/Shape.java": "package p;\npublic abstract class Shape {\n  public abstract double computeSurface();\n"
                        "  public double twice() { return 2 * computeSurface(); }\n}\n",
        "p/Disc.java": "package p;\npublic class Disc extends Shape {\n  private double r;\n"
                       "  public Disc(double r) { this.r = r; }\n"
                       "  @Override public double computeSurface() { return Math.PI * r * r; }\n}\n",
        "p/Square.java": "package p;\npublic class Square extends Shape {\n  private double s;\n"
                         "  public Square(double s) { this.s = s; }\n"
                         "  @Override public double computeSurface() { return s * s; }\n}\n"}


def _cs(square: str = "public override double Area()") -> dict[str, str]:
    """The port: Area() for computeSurface(), Square's as `square` declares it."""
    return {"P/Shape.cs": "namespace P {\n public abstract class Shape {\n  public abstract double Area();\n"
                          "  public double Twice() { return 2 * Area(); }\n }\n}\n",
            "P/Disc.cs": "namespace P {\n public class Disc : Shape {\n  private double r;\n"
                         "  public Disc(double r) { this.r = r; }\n"
                         "  public override double Area() { return System.Math.PI * r * r; }\n }\n}\n",
            "P/Square.cs": "namespace P {\n public class Square : Shape {\n  private double s;\n"
                           "  public Square(double s) { this.s = s; }\n"
                           f"  {square} {{ return s * s; }}\n }}\n}}\n"}


def test_an_abstract_method_takes_the_name_its_overrides_were_given(tmp_path):
    mapping, _ = mapped_pair(tmp_path, JAVA, _cs())
    match = mapping.target_method("source:p.Shape.computeSurface()")
    assert match is not None and match.target_id == "target:P.Shape.Area()"
    assert match.reason == "inherited rename"
    assert match.evidence == ("overridden by Disc.computeSurface, the port's Area",
                              "overridden by Square.computeSurface, the port's Area")


def test_relatives_that_disagree_on_the_name_pair_nothing(tmp_path):
    mapping, _ = mapped_pair(tmp_path, JAVA, _cs("public double Size()"))
    assert mapping.target_method("source:p.Shape.computeSurface()") is None
