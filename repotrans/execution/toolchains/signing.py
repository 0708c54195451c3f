"""Strong-name keys when the project's own key file is not in the checkout.

Open-source ports rarely commit their private key; many commit a stand-in key pair instead and
grant the test assembly friend access under both public keys ([InternalsVisibleTo("X.Tests,
PublicKey=...")]). A test assembly then compiles only if it is signed with a key the library trusts.
When the named key is missing, a key pair in the repository whose public key the sources name in
an InternalsVisibleTo is used; failing that the project is built unsigned."""
from __future__ import annotations

import re
from pathlib import Path

IVT_RE = re.compile(r"InternalsVisibleTo\s*\(\s*\"[^\"]*PublicKey\s*=\s*([0-9a-fA-F]+)", re.S)
PRIVATE_BLOB, RSA2 = 0x07, b"RSA2"


def friend_public_keys(sources: list[Path]) -> set[str]:
    """Every PublicKey (hex, lower case) named in an InternalsVisibleTo of these files."""
    keys = set()
    for path in sources:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if "InternalsVisibleTo" in text:
            keys.update(m.group(1).lower() for m in IVT_RE.finditer(text))
    return keys


def key_modulus(snk: Path) -> str | None:
    """The RSA modulus (hex) of a strong-name key pair file; None for a public-key-only or unreadable file."""
    try:
        data = snk.read_bytes()
    except OSError:
        return None
    if len(data) < 20 or data[0] != PRIVATE_BLOB or data[8:12] != RSA2:
        return None
    bits = int.from_bytes(data[12:16], "little")
    return data[20:20 + bits // 8].hex()


def stand_in_key(repo_root: Path, trusted: set[str]) -> Path | None:
    """A key pair in the repository whose public key is among `trusted` (InternalsVisibleTo keys)."""
    for snk in sorted(repo_root.rglob("*.snk")):
        if any(p in ("bin", "obj") or p.startswith(".") for p in snk.relative_to(repo_root).parts[:-1]):
            continue
        modulus = key_modulus(snk)
        if modulus and any(modulus in key for key in trusted):
            return snk
    return None
