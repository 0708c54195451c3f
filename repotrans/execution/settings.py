"""Execution settings checked up front (before any model call): names and ranges of the toolchain,
sandbox, time limit, memory limit and test scope, and which sandbox `auto` stands for."""
from __future__ import annotations

from repotrans.errors import ConfigError
from repotrans.execution.sandboxes import SANDBOXES
from repotrans.execution.sandboxes.choice import resolve_sandbox

TOOLCHAINS = ("mono", "dotnet")
SCOPES = ("covering", "all")
MIN_MEMORY_MB = 256           # mono itself needs about 200 MB of address space
MAX_TIMEOUT = 24 * 3600.0


def check_execution(toolchain: str, sandbox: str, timeout: float, memory_mb: int, scope: str) -> None:
    """ConfigError with one line for the first bad value."""
    if toolchain not in TOOLCHAINS:
        raise ConfigError(f"unknown toolchain {toolchain!r}; expected {' or '.join(TOOLCHAINS)}")
    if sandbox not in SANDBOXES:
        raise ConfigError(f"unknown sandbox {sandbox!r}; expected {', '.join(SANDBOXES)}")
    if scope not in SCOPES:
        raise ConfigError(f"unknown test scope {scope!r}; expected {' or '.join(SCOPES)}")
    if not 0 < timeout <= MAX_TIMEOUT:
        raise ConfigError(f"execution.timeout must be between 0 and {MAX_TIMEOUT:.0f} seconds, not {timeout}")
    if memory_mb < MIN_MEMORY_MB:
        raise ConfigError(f"execution.memory_mb must be at least {MIN_MEMORY_MB} (MB), not {memory_mb}")


def concrete_sandbox(sandbox: str, model_name: str | None, image: str = "repotrans/mono:bookworm") -> str:
    """`docker` or `local` for a configured sandbox: `auto` is docker when an engine answers, else
    local only for the builtin policy (ConfigError for a model's code without an explicit local)."""
    return resolve_sandbox(sandbox, image=image, trusted_model=model_name in (None, "builtin")).name
