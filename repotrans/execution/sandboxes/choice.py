"""Which sandbox runs the commands: `auto` resolved to docker or local, and the sandbox made by name."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from repotrans.errors import ConfigError
from repotrans.execution.sandboxes import SANDBOXES, Sandbox
from repotrans.execution.sandboxes import docker as docker_box
from repotrans.execution.sandboxes.local import LocalSandbox


def make_sandbox(name: str, workspace: Path, image: str, commands: int = 1) -> Sandbox:
    """`local` or `docker` (`auto` is resolved once, by whoever builds the run: see resolve_sandbox);
    `workspace` is the only folder either sandbox shows the command; `commands`: test commands run at once,
    each within its own limits (local limits each command by itself; docker sizes its container for them)."""
    if name == "auto":
        raise ConfigError("sandbox 'auto' reached the judge unresolved: resolve it once where the run is "
                          "configured (execution.settings.concrete_sandbox)")
    if name == "local":
        return LocalSandbox(workspace)
    if name == "docker":
        return docker_box.DockerSandbox(workspace, image, commands)
    raise ConfigError(f"unknown sandbox {name!r}; expected {', '.join(SANDBOXES)}")


@dataclass
class Choice:
    name: str                  # "docker" | "local"
    why: str                   # one line for `repotrans doctor` and error messages


def resolve_sandbox(name: str, *, image: str = "repotrans/mono:bookworm", trusted: bool = False) -> Choice:
    """The sandbox `name` stands for: `auto` is docker whenever a Docker engine answers and has the
    image, else local, but only for trusted code (a provider that declares it); code from any other model runs
    locally only when asked for by name. Raises ConfigError for unknown names or when nothing fits."""
    if name not in SANDBOXES:
        raise ConfigError(f"unknown sandbox {name!r}; expected {', '.join(SANDBOXES)}")
    if name != "auto":
        return Choice(name, f"--sandbox {name} (asked for)")
    ok, why = docker_box.engine_status(image)
    if ok:
        return Choice("docker", f"auto: {why}")
    if trusted:
        return Choice("local", f"auto: {why}; trusted code (the offline translator's, or your own) runs in the local sandbox")
    raise ConfigError(f"no docker sandbox ({why}); code from a model runs locally only with an explicit "
                      "--sandbox local (or execution.sandbox = \"local\")")
