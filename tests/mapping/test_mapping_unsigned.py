"""Java has no unsigned types: a port that declares the same bits unsigned (jBCrypt's `int[]` S-boxes are
BCrypt.Net's `uint[]`) keeps the pair by name even when the bodies say nothing (a masked view's
placeholders), so `batch` on the view takes the member as a task instead of leaving its placeholder in
every test's way."""
from __future__ import annotations

from tests.support.indexes import mapped_pair, target_of

JAVA = {"org/m/Cipher.java": """package org.m;
public class Cipher {
  private void encipher(int[] lr, int off) { lr[off] ^= 1; }
  private long mix(long a) { return a * 31; }
  private int other(String s) { return s.length(); }
}
"""}
CS = {"M/Cipher.cs": """namespace M
{
   public class Cipher
   {
      private void encipher(uint[] lr, int off) { throw new System.NotImplementedException(); }
      private ulong mix(ulong a) { throw new System.NotImplementedException(); }
      private int other(bool s) { throw new System.NotImplementedException(); }
   }
}
"""}


def test_a_csharp_unsigned_type_of_the_same_width_agrees_with_javas_signed_one(tmp_path):
    mapping, _ = mapped_pair(tmp_path, JAVA, CS)
    assert target_of(mapping, "org.m.Cipher.encipher(int[], int)") == "M.Cipher.encipher(uint[], int)"
    assert target_of(mapping, "org.m.Cipher.mix(long)") == "M.Cipher.mix(ulong)"
    assert target_of(mapping, "org.m.Cipher.other(String)") is None      # another type is still a mismatch
