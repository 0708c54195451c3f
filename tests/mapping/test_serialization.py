"""Java serialization's hooks where the port implements ISerializable (javaewah -> csharpewah): writeExternal is
GetObjectData(SerializationInfo, StreamingContext), readExternal the constructor taking those two."""
from __future__ import annotations

from tests.support.indexes import mapped_pair, target_of

JAVA = {"p/Bits.java": """package p;
import java.io.*;
public class Bits implements Externalizable {
  private int size;
  public Bits() { }
  public void writeExternal(ObjectOutput out) throws IOException { out.writeInt(size); }
  public void readExternal(ObjectInput in) throws IOException { size = in.readInt(); }
}
"""}


def _cs(bases: str = " : ISerializable") -> dict[str, str]:
    return {"P/Bits.cs": f"""using System.Runtime.Serialization;
namespace P {{
 public class Bits{bases} {{
  private int size;
  public Bits() {{ }}
  private Bits(SerializationInfo info, StreamingContext context) {{ size = info.GetInt32("sb"); }}
  public void GetObjectData(SerializationInfo info, StreamingContext context) {{ info.AddValue("sb", size); }}
 }}
}}
"""}


def test_externalizable_is_iserializable(tmp_path):
    mapping, _ = mapped_pair(tmp_path, JAVA, _cs())
    assert target_of(mapping, "p.Bits.writeExternal(ObjectOutput)") == \
        "P.Bits.GetObjectData(SerializationInfo, StreamingContext)"
    assert target_of(mapping, "p.Bits.readExternal(ObjectInput)") == "P.Bits.<init>(SerializationInfo, StreamingContext)"


def test_not_without_iserializable(tmp_path):
    mapping, _ = mapped_pair(tmp_path, JAVA, _cs(""))
    assert target_of(mapping, "p.Bits.readExternal(ObjectInput)") is None
