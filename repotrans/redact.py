"""Secrets never recorded: the configured API key is replaced by a placeholder in any text that is
printed or written (test outputs, trajectories, results, error messages)."""
from __future__ import annotations

import os

API_KEY_VARS = ("REPOTRANS_API_KEY", "OPENAI_API_KEY")
PLACEHOLDER = "[redacted]"
MIN_SECRET = 8                 # shorter values would redact ordinary words


def secrets_in_env(env: dict[str, str] | None = None) -> list[str]:
    """The API key values set in the environment, longest first."""
    env = os.environ if env is None else env
    return sorted({env[v] for v in API_KEY_VARS if len(env.get(v) or "") >= MIN_SECRET}, key=len, reverse=True)


def redact(text: str, secrets: list[str] | None = None) -> str:
    """`text` with every secret replaced by PLACEHOLDER."""
    for secret in secrets_in_env() if secrets is None else secrets:
        text = text.replace(secret, PLACEHOLDER)
    return text
