"""Names as words: snake_case and abbreviated Java names pair with the .NET words the port wrote out
(jBCrypt -> BCrypt.Net), also once the C# bodies are placeholders, and nothing else pairs by them."""
from __future__ import annotations

import json

from repotrans.mapping.words import ABBREVIATIONS_FILE, same_words, words
from tests.support.indexes import mapped_pair, target_of


def test_the_word_list_is_a_list_of_abbreviations():
    """Each abbreviation is shorter than its word, lower case, and never a listed word itself (a word
    list, not a thesaurus: `char` stands for character, never the reverse)."""
    listed = json.loads(ABBREVIATIONS_FILE.read_text(encoding="utf-8"))["abbreviations"]
    for word, shorts in listed.items():
        assert word.isalpha() and word.islower(), word
        for short in shorts:
            assert short.isalpha() and short.islower() and len(short) < len(word), (word, short)
            assert short not in listed, short


def test_names_are_the_same_words_written_out_or_abbreviated():
    pairs = [("decode_base64", "DecodeBase64"), ("init_key", "InitializeKey"), ("gensalt", "GenerateSalt"),
             ("hashpw", "HashPassword"), ("streamtoword", "StreamToWord"), ("crypt_raw", "CryptRaw"),
             ("getConfiguration", "GetConfig"), ("maxLen", "MaximumLength"), ("EKSKey", "ekskey")]
    for java, cs in pairs:
        assert same_words(java, cs), (java, cs)
    others = [("checkpw", "Verify"), ("gen", "Get"), ("readInt", "ReadInt32"), ("hash", "HashPassword"),
              ("hashpwx", "HashPassword"), ("pw_hash", "HashPassword"), ("get", "")]
    for java, cs in others:
        assert not same_words(java, cs), (java, cs)
    assert words("EKSKey") == ["eks", "key"] and words("decode_base64") == ["decode", "base", "64"]


_JAVA = """package org.mindrot;
public class BCrypt {
    private static byte[] decode_base64(String s, int maxolen) { return new byte[maxolen]; }
    private static int streamtoword(byte data[], int offp[]) { int off = offp[0]; offp[0] = off + 4; return data[off]; }
    private void init_key() { }
    public static String gensalt(int log_rounds) { return "$2a$" + log_rounds; }
    public static String hashpw(String password, String salt) { return password + salt; }
    public static boolean checkpw(String plaintext, String hashed) { return hashed.equals(hashpw(plaintext, hashed)); }
    public static String gen() { return "x"; }
}
"""
_CS = """using System;
namespace BCrypt.Net {
    public class BCrypt {
        private static byte[] DecodeBase64(string encodedString, int maximumBytes) { throw new NotImplementedException(); }
        private static uint StreamToWord(byte[] data, ref int offset) { throw new NotImplementedException(); }
        private void InitializeKey() { throw new NotImplementedException(); }
        public static string GenerateSalt(int workFactor) { throw new NotImplementedException(); }
        public static string HashPassword(string input, string salt) { throw new NotImplementedException(); }
        public static string HashPassword(string input, int workFactor) { throw new NotImplementedException(); }
        public static bool Verify(string text, string hash) { throw new NotImplementedException(); }
        public static string Get() { throw new NotImplementedException(); }
    }
}
"""


def test_masked_members_pair_by_their_words(tmp_path):
    """BCrypt.Net with its bodies masked: the words pair what structure could not (nothing to compare),
    the one-element `int offp[]` that returns a value is the `ref int`; checkpw -> Verify is a rename no
    word shows, and `gen` is not `Get`."""
    mapping, _ = mapped_pair(tmp_path, {"org/mindrot/BCrypt.java": _JAVA}, {"BCrypt.cs": _CS})
    expected = {"decode_base64(String, int)": "DecodeBase64(string, int)", "init_key()": "InitializeKey()",
                "streamtoword(byte[], int[])": "StreamToWord(byte[], int)", "gensalt(int)": "GenerateSalt(int)",
                "hashpw(String, String)": "HashPassword(string, string)"}
    for java, cs in expected.items():
        assert target_of(mapping, f"org.mindrot.BCrypt.{java}") == f"BCrypt.Net.BCrypt.{cs}", java
    assert target_of(mapping, "org.mindrot.BCrypt.checkpw(String, String)") is None
    assert target_of(mapping, "org.mindrot.BCrypt.gen()") is None
    reasons = {m.source_id: m.reason for m in mapping.method_matches}
    assert reasons["source:org.mindrot.BCrypt.gensalt(int)"].startswith("the same words")
