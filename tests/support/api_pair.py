"""A mini port cut from ZXing/ZXing.Net for the learned API map (issue 34): BitArray's bounds checks
through a support class's factory, `Integer.MAX_VALUE` as `Int32.MaxValue`, `StringBuilder.append`, and
a private helper (`words(size)`) the port removed in favour of its support class."""
from __future__ import annotations

JAVA = {
    "com/google/zxing/common/BitArray.java": """package com.google.zxing.common;
public final class BitArray {
  private int[] bits;
  private int size;
  public BitArray(int size) { this.size = size; this.bits = new int[words(size)]; }
  private static int words(int size) { return (size + 31) / 32; }
  public boolean get(int i) {
    if (i < 0 || i >= size) { throw new IndexOutOfBoundsException(i); }
    return (bits[i / 32] & (1 << (i & 0x1F))) != 0;
  }
  public void set(int i) {
    if (i >= size) { throw new IndexOutOfBoundsException(i); }
    bits[i / 32] |= 1 << (i & 0x1F);
  }
  public void flip(int i) {
    if (i >= size) { throw new IndexOutOfBoundsException(i); }
    bits[i / 32] ^= 1 << (i & 0x1F);
  }
  public void ensureCapacity(int size) {
    if (size > bits.length * 32) { int[] newBits = new int[words(size)]; bits = newBits; }
  }
  public int firstSet() {
    int best = Integer.MAX_VALUE;
    return best;
  }
  public String describe() {
    StringBuilder result = new StringBuilder(size);
    result.append('X');
    return result.toString();
  }
}
""",
}
CS = {
    "Common/BitArray.cs": """namespace ZXing.Common
{
   public sealed class BitArray
   {
      private int[] bits;
      private int size;
      public BitArray(int size) { this.size = size; this.bits = new int[SupportClass.WordCount(size)]; }
      public bool this[int i]
      {
         get
         {
            if (i < 0 || i >= size) { throw SupportClass.IndexOutOfRange(i); }
            return (bits[i >> 5] & (1 << (i & 0x1F))) != 0;
         }
      }
      public void set(int i)
      {
         if (i >= size) { throw SupportClass.IndexOutOfRange(i); }
         bits[i >> 5] |= 1 << (i & 0x1F);
      }
      public void flip(int i)
      {
         if (i >= size) { throw SupportClass.IndexOutOfRange(i); }
         bits[i >> 5] ^= 1 << (i & 0x1F);
      }
      public void ensureCapacity(int size)
      {
         if (size > bits.Length << 5) { int[] newBits = new int[SupportClass.WordCount(size)]; bits = newBits; }
      }
      public int firstSet()
      {
         int best = Int32.MaxValue;
         return best;
      }
      public System.String describe()
      {
         var result = new System.Text.StringBuilder(size);
         result.Append('X');
         return result.ToString();
      }
   }
   internal static class SupportClass
   {
      public static System.Exception IndexOutOfRange(int i) { return new System.ArgumentOutOfRangeException("i"); }
      public static int WordCount(int size) { return (size + 31) >> 5; }
   }
}
""",
}
