"""The toolchains by name."""
from __future__ import annotations

from repotrans.errors import ConfigError
from repotrans.execution.toolchains import Toolchain
from repotrans.execution.toolchains.dotnet import DotnetToolchain
from repotrans.execution.toolchains.mono import MonoToolchain


def make_toolchain(name: str) -> Toolchain:
    if name == "mono":
        return MonoToolchain()
    if name == "dotnet":
        return DotnetToolchain()
    raise ConfigError(f"unknown toolchain {name!r}; expected mono or dotnet")
