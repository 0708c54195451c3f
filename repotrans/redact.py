"""Secrets never recorded: the configured API key is replaced by a placeholder in any text that is
printed or written (test outputs, trajectories, results, error messages), and so is any part of it a
server echoes (OpenAI answers a bad key with `Incorrect API key provided: sk-abc1****wxyz`)."""
from __future__ import annotations

import os
import re

API_KEY_VARS = ("REPOTRANS_API_KEY", "OPENAI_API_KEY")
PLACEHOLDER = "[redacted]"
MIN_SECRET = 8                 # shorter values would redact ordinary words
MIN_ECHO = 4                   # a masked echo shows at least this much of the key's start or end
# a word with a run of mask characters in it, or a long bare word (a cut-off key)
_WORD = re.compile(r"[\w\-]*(?:\*{3,}|\.{3,}|\u2026)[\w\-*.\u2026]*|[\w\-]{%d,}" % MIN_SECRET)


def secrets_in_env(env: dict[str, str] | None = None) -> list[str]:
    """The API key values set in the environment, longest first."""
    env = os.environ if env is None else env
    return sorted({env[v] for v in API_KEY_VARS if len(env.get(v) or "") >= MIN_SECRET}, key=len, reverse=True)


def redact(text: str, secrets: list[str] | None = None) -> str:
    """`text` with every secret replaced by PLACEHOLDER."""
    secrets = secrets_in_env() if secrets is None else secrets
    for secret in secrets:
        text = text.replace(secret, PLACEHOLDER)
    return _WORD.sub(lambda m: PLACEHOLDER if _echoes(m.group(0), secrets) else m.group(0), text) if secrets \
        else text


def _echoes(word: str, secrets: list[str]) -> bool:
    """`word` shows a piece of a secret: its start or end around a mask, or a long prefix of it."""
    parts = [p for p in re.split(r"\*{3,}|\.{3,}|\u2026", word)]
    masked = len(parts) > 1
    head, tail = parts[0], parts[-1].strip("*.\u2026")
    for secret in secrets:
        if masked and ((len(head) >= MIN_ECHO and secret.startswith(head))
                       or (len(tail) >= MIN_ECHO and secret.endswith(tail))):
            return True
        if not masked and len(word) >= MIN_SECRET and secret.startswith(word):
            return True
    return False
