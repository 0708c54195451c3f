"""A translated constructor's base call is one the port's base class has (issue 45: HdrHistogram's copy
constructor Histogram(AbstractHistogram) calls super(source); HdrHistogram.NET's AbstractHistogram has only the
three-value constructor, so `: base(source)` was CS1729 and every body stayed a placeholder)."""
from __future__ import annotations

from repotrans.translator.base_calls import base_arguments
from repotrans.translator.steps import StepRequest, generate
from tests.support.indexes import mapped_pair

JAVA = {
    "p/Gauge.java": """package p;
public abstract class Gauge {
  private final long low;
  private final long high;
  public Gauge(long low, long high) { this.low = low; this.high = high; }
  Gauge(Gauge source) {
    this(source.getLow(), source.getHigh() * 2);
    System.out.println("copied");
  }
  public long getLow() { return low; }
  public long getHigh() { return high; }
}
""",
    "p/Meter.java": """package p;
public class Meter extends Gauge {
  private int reads;
  public Meter(long low, long high) { super(low, high); }
  public Meter(Gauge source) { super(source); reads = 1; }
}
""",
}
CS = {
    "P/Gauge.cs": """namespace P
{
   public abstract class Gauge
   {
      private readonly long low;
      private readonly long high;
      public Gauge(long low, long high) { this.low = low; this.high = high; }
      public Gauge(string name) { }
      public long getLow() { return low; }
      public long getHigh() { return high; }
   }
}
""",
    "P/Meter.cs": """namespace P
{
   public class Meter : Gauge
   {
      private int reads;
      public Meter(long low, long high) : base(low, high) { throw new System.NotImplementedException(); }
      public Meter(Gauge source) : base(source.getLow(), source.getHigh() * 2) { throw new System.NotImplementedException(); }
   }
}
""",
}


def _constructor(index, mapping, java_id: str):
    java = index.method("source:p." + java_id)
    return java, index.method(mapping.target_method(java.id).target_id)


def _generated(index, java, target) -> str:
    req = StepRequest(step="generate", java_method=java, target_method=target,
                      base_args=base_arguments(index, java, target))
    return generate(req).removeprefix("```csharp\n").removesuffix("\n```")


def test_a_super_call_the_ports_base_cannot_take_goes_through_javas_delegation(tmp_path):
    """Java's Gauge(Gauge) delegates to Gauge(long, long), which the port has; its one-argument Gauge(string)
    cannot take a Gauge (the types, not only the count, choose)."""
    mapping, index = mapped_pair(tmp_path, JAVA, CS)
    java, target = _constructor(index, mapping, "Meter.<init>(Gauge)")
    assert base_arguments(index, java, target) == ("source.getLow()", "source.getHigh() * 2")
    code = _generated(index, java, target)
    # no gathered context here: the calls are named by the conventions
    assert code.splitlines()[0] == "public Meter(Gauge source) : base(source.GetLow(), source.GetHigh() * 2)", code
    assert "reads = 1;" in code and "copied" not in code     # the base's statements after this(...) not carried


def test_a_super_call_the_ports_base_takes_is_kept(tmp_path):
    mapping, index = mapped_pair(tmp_path, JAVA, CS)
    java, target = _constructor(index, mapping, "Meter.<init>(long, long)")
    assert base_arguments(index, java, target) is None
    assert _generated(index, java, target).splitlines()[0] == "public Meter(long low, long high) : base(low, high)"
    cs = dict(CS, **{"P/Gauge.cs": CS["P/Gauge.cs"].replace("public Gauge(string name) { }",
                                                            "public Gauge(Gauge source) { }")})
    mapping, index = mapped_pair(tmp_path / "copy", JAVA, cs)      # a port whose base has the copy constructor
    java, target = _constructor(index, mapping, "Meter.<init>(Gauge)")
    assert base_arguments(index, java, target) is None
    assert _generated(index, java, target).splitlines()[0] == "public Meter(Gauge source) : base(source)"


def test_a_delegation_that_comes_back_to_its_arity_ends_and_keeps_the_call(tmp_path):
    """Gauge(Gauge) delegating to a one-argument constructor, while the port's base has none of one argument:
    the walk tries each arity once (here it would go on forever) and keeps Java's call, which the compiler
    then names, never a call of its own making."""
    java = dict(JAVA, **{"p/Gauge.java": JAVA["p/Gauge.java"].replace(
        "this(source.getLow(), source.getHigh() * 2);", "this(source.getLow());").replace(
        "public long getLow()", "Gauge(long low) { this.low = low; this.high = low; }\n  public long getLow()")})
    cs = dict(CS, **{"P/Gauge.cs": CS["P/Gauge.cs"].replace("public Gauge(string name) { }\n", "")})
    mapping, index = mapped_pair(tmp_path, java, cs)
    method, target = _constructor(index, mapping, "Meter.<init>(Gauge)")
    assert base_arguments(index, method, target) is None
    assert _generated(index, method, target).splitlines()[0] == "public Meter(Gauge source) : base(source)"
