"""How long one model request may take when `[model] timeout` is not set: one rule, and the words that
say it in --help, doctor and the configuration template (no imports: the CLI reads it to build --help)."""
from __future__ import annotations

ASSUMED_SPEED = 8.0            # completion tokens/s before any call was measured (a slow CPU server)
PROMPT_SPEED = 20.0            # prompt tokens/s a slow CPU server reads (llama.cpp with n_batch 1, busy cores)
TIMEOUT_FLOOR = 30.0           # seconds every call gets besides its generation time
# the default of [model] timeout, as --help, doctor and the configuration template say it
TIMEOUT_DEFAULT = (f"scaled: {TIMEOUT_FLOOR:g} s plus twice the time to read the prompt and write max_tokens at the "
                   "server's measured speed")


def default_timeout(max_tokens: int, prompt_tokens: int = 0, speed: float | None = None) -> float:
    """The seconds a call may take when [model] timeout is not set (TIMEOUT_DEFAULT)."""
    return TIMEOUT_FLOOR + 2 * (prompt_tokens / PROMPT_SPEED + max_tokens / (speed or ASSUMED_SPEED))
