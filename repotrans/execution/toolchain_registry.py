"""The toolchains repotrans knows, in one table: the CLI's choices, the doctor's tool check, the Ray
node check and `make_toolchain` all read it. It imports no toolchain (the command line reads it for its
help): a spec names its class, imported on first use; what it makes is an execution.toolchains.Toolchain."""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from repotrans.errors import ConfigError


@dataclass(frozen=True)
class ToolchainSpec:
    name: str
    image: str                       # default docker image
    tools: tuple[str, ...]           # executables it needs on a machine that runs it without docker
    files: tuple[str, ...]           # files it needs there (the NUnit core the runner links against)
    factory: str                     # "module:Class", imported on first use

    def make(self, settings: Any) -> Any:
        module, cls = self.factory.split(":")
        return getattr(importlib.import_module(module), cls)(settings)


REGISTRY: dict[str, ToolchainSpec] = {spec.name: spec for spec in (
    ToolchainSpec("mono", "repotrans/mono:bookworm", ("mcs", "mono", "nunit-console"),
                  ("/usr/lib/cli/nunit.core-2.6.3/nunit.core.dll",),
                  "repotrans.execution.toolchains.mono:MonoToolchain"),
    ToolchainSpec("dotnet", "mcr.microsoft.com/dotnet/sdk:8.0", ("dotnet",), (),
                  "repotrans.execution.toolchains.dotnet:DotnetToolchain"),
)}
TOOLCHAINS = tuple(REGISTRY)


def toolchain_spec(name: str) -> ToolchainSpec:
    if name not in REGISTRY:
        raise ConfigError(f"unknown toolchain {name!r}; expected {' or '.join(TOOLCHAINS)}")
    return REGISTRY[name]

