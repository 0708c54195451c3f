"""The C# declaration is the contract at a class's boundary (issue 34, item 6): a value Java's subclass
computes on demand that the port's base class stores in a field its property returns (ZXing.Net's
ParsedResult.DisplayResult over `displayResultValue`, filled by each subclass's constructor)."""
from __future__ import annotations

from repotrans.translator.boundary import stored_values
from repotrans.translator.steps import StepRequest, generate
from tests.support.indexes import mapped_pair

JAVA = {
    "p/Shown.java": """package p;
public abstract class Shown {
  protected Shown() { }
  public abstract String getText();
}
""",
    "p/Mail.java": """package p;
public final class Mail extends Shown {
  private final String to;
  private final String subject;
  public Mail(String to) { this(to, null); }
  public Mail(String to, String subject) { this.to = to; this.subject = subject; }
  public String getTo() { return to; }
  @Override
  public String getText() {
    StringBuilder result = new StringBuilder(30);
    result.append(to);
    result.append(subject);
    return result.toString();
  }
}
""",
    "p/Card.java": """package p;
public final class Card extends Shown {
  private final String name;
  public Card(String name) { this.name = name; }
  @Override
  public String getText() { return "card " + name; }
}
""",
    "p/Plain.java": """package p;
public final class Plain extends Shown {
  private final String text;
  public Plain(String text) { this.text = text; }
  @Override
  public String getText() { return text; }
}
""",
}
CS = {
    "P/Shown.cs": """namespace P
{
   public abstract class Shown
   {
      protected string textValue;
      protected Shown() { }
      public virtual string Text { get { return textValue; } }
   }
}
""",
    "P/Mail.cs": """namespace P
{
   public sealed class Mail : Shown
   {
      private readonly string to;
      private readonly string subject;
      public Mail(string to) : this(to, null) { }
      public Mail(string to, string subject)
      {
         this.to = to;
         this.subject = subject;
         var result = new System.Text.StringBuilder(30);
         result.Append(to);
         result.Append(subject);
         textValue = result.ToString();
      }
      public string To { get { return to; } }
   }
}
""",
    "P/Card.cs": """namespace P
{
   public sealed class Card : Shown
   {
      private readonly string name;
      public Card(string name) { this.name = name; textValue = getText(); }
      private string getText() { return "card " + name; }
   }
}
""",
    "P/Plain.cs": """namespace P
{
   public sealed class Plain : Shown
   {
      private readonly string text;
      public Plain(string text) { this.text = text; }
      public override string Text { get { return text; } }
   }
}
""",
}


def _generated(index, mapping, java_id: str) -> str:
    java = index.method("source:p." + java_id)
    target = index.method(mapping.target_method(java.id).target_id)
    req = StepRequest(step="generate", java_method=java, target_method=target,
                      stored=stored_values(index, mapping, java, target))
    return generate(req).removeprefix("```csharp\n").removesuffix("\n```")


def test_a_value_the_ports_base_stores_is_computed_in_the_constructor(tmp_path):
    mapping, index = mapped_pair(tmp_path, JAVA, CS)
    mail = _generated(index, mapping, "Mail.<init>(String, String)")
    # the override's statements, its return stored; the field it reads is not the parameter of that name
    assert mail.endswith("    this.subject = subject;\n"
                         "    StringBuilder result = new StringBuilder(30);\n"
                         "    result.Append(this.to);\n"
                         "    result.Append(this.subject);\n"
                         "    textValue = result.ToString();\n}"), mail
    # the port kept the override as a method of its own: the constructor calls it
    card = _generated(index, mapping, "Card.<init>(String)")
    assert card.endswith("    this.name = name;\n    textValue = getText();\n}"), card


def test_nothing_is_stored_where_the_port_overrides_the_property_or_the_constructor_chains(tmp_path):
    """Plain overrides Text itself; Mail(String) reaches the storing constructor through this(...)."""
    mapping, index = mapped_pair(tmp_path, JAVA, CS)
    assert "textValue" not in _generated(index, mapping, "Plain.<init>(String)")
    assert "textValue" not in _generated(index, mapping, "Mail.<init>(String)")
    getter = index.method("source:p.Mail.getText()")
    assert stored_values(index, mapping, getter, getter) == []      # a method, not a constructor


def test_an_argument_the_learned_call_passes_by_ref_is_marked_once(tmp_path):
    """BCrypt.Net: jBCrypt's streamtoword(byte[], int[] offp) is the port's streamtoword(byte[], ref int);
    the learned map writes `streamtoword({1}, ref {2})` and the contract already made `koffp` a `ref int`:
    `ref ref koffp` (CS1525) on key and ekskey, with the map only."""
    from repotrans.mapping.api_cache import load_api_map
    from repotrans.translator.java2cs import translate_method
    from repotrans.translator.resolver import ContextResolver
    from repotrans.translator.tool_outputs import target_type

    java = {"org/m/Fish.java": """package org.m;
public class Fish {
  private int[] P = new int[4];
  private static int streamtoword(byte[] data, int[] offp) { int off = offp[0]; offp[0] = off + 1; return data[off]; }
  private void key(byte[] key) { int koffp[] = { 0 }; P[0] = P[0] ^ streamtoword(key, koffp); }
  private void ekskey(byte[] data, byte[] key) { int koffp[] = { 0 }; P[1] = P[1] ^ streamtoword(key, koffp); }
}
"""}
    cs = {"M/Fish.cs": """namespace M
{
   public class Fish
   {
      private uint[] P = new uint[4];
      private static uint streamtoword(byte[] data, ref int off) { uint w = data[off]; off = off + 1; return w; }
      private void key(byte[] key) { int koffp = 0; P[0] = P[0] ^ streamtoword(key, ref koffp); }
      private void ekskey(byte[] data, byte[] key) { int koffp = 0; P[1] = P[1] ^ streamtoword(key, ref koffp); }
   }
}
"""}
    mapping, index = mapped_pair(tmp_path, java, cs)
    api = load_api_map(index, mapping)
    source = index.method("source:org.m.Fish.ekskey(byte[], byte[])")
    target = index.method(mapping.target_method(source.id).target_id)
    own = target_type({"class": "M.Fish", "fields": ["private uint[] P"],
                       "members": ["private static uint streamtoword(byte[] data, ref int off)"]})
    resolver = ContextResolver("Fish", {"Fish": own})
    resolver.api = api.without(source.id, target.id)
    assert resolver.api.choose("Fish.streamtoword/2", ["key", "koffp"]) is not None      # the map has a say
    code = translate_method(source, resolver, target)
    assert "streamtoword(key, ref koffp)" in code and "ref ref" not in code, code
