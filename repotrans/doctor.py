"""`repotrans doctor`: what this machine gives repotrans, one section per concern.

Each section is a function returning (title, [(ok, line), ...]) where ok is True, False (a problem)
or None (information: something missing that has a working alternative); a new concern (project
discovery for --target, say) is one more function in SECTIONS or passed to `report`.
"""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Callable

from repotrans.errors import ConfigError

Line = tuple[bool | None, str]
Section = Callable[..., tuple[str, list[Line]]]


def sandbox_section(config) -> tuple[str, list[Line]]:
    """Which sandbox runs candidates, why, and what each sandbox can use here."""
    from repotrans.agents.providers import provider
    from repotrans.execution.sandboxes.choice import resolve_sandbox
    from repotrans.execution.sandboxes import BACKSTOP_FACTOR, BACKSTOP_SLACK, PIDS_LIMIT
    from repotrans.execution.sandboxes.cgroups import support
    from repotrans.execution.sandboxes.docker import engine_status
    from repotrans.execution.sandboxes.local import bwrap_status, counts_cpu
    from repotrans.execution.toolchains.api import toolchain_spec

    ex = config.execution
    image = toolchain_spec(ex.toolchain).image
    lines: list[Line] = []
    try:
        choice = resolve_sandbox(ex.sandbox, image=image,
                                 trusted=provider(config.model.name).trusted)
        lines.append((True, f"in force: {choice.name} ({choice.why})"))
    except ConfigError as exc:
        lines.append((False, f"in force: none: {exc}"))
    ok, why = engine_status(image)
    lines.append((ok or None, f"docker: {why}"))
    ok, why = bwrap_status()
    lines.append((ok or None, f"local: {why}"))
    version, why = support()
    lines.append((version is not None or None, f"local limits for the whole run: {why}"))
    lines.append((None, f"processes and threads: at most {PIDS_LIMIT} per run; a run is killed as soon as a fork "
                        "is refused (its cgroup's pids.events: local, and docker when the engine runs on this host)"))
    if ex.clock == "cpu":
        lines.append((counts_cpu() or None, "test-run time limits count CPU seconds (clock = \"cpu\"): local "
                      + ("by the run's cgroup" if counts_cpu() else "cannot count them here (wall seconds)")
                      + f"; docker per process (RLIMIT_CPU); a wall-clock backstop of {BACKSTOP_FACTOR:g} x the limit "
                      f"+ {BACKSTOP_SLACK:g} s"))
    else:
        lines.append((None, "test-run time limits count wall seconds (clock = \"wall\"): a busy machine may turn a "
                            "slow pass into a timeout"))
    return "sandbox", lines


def policy_section(config) -> tuple[str, list[Line]]:
    """The capability policy on candidates' IL and where the verdict is read, per toolchain: what is
    enforced, and the risks it leaves."""
    from repotrans.execution.capability.checks import CECIL, DECLARES, GRANTS, RESIDUAL_RISKS
    from repotrans.execution.capability.il_typesafe import VERIFIER
    from repotrans.execution.sandboxes.local import bwrap_status
    from repotrans.execution.capability.dotnet_check import DOTNET_RESIDUAL_RISKS, python_checker_status

    lines: list[Line] = []
    toolchain = config.execution.toolchain
    if toolchain == "dotnet":
        ok, why = python_checker_status()
        where = "the local sandbox (bwrap)" if bwrap_status()[0] else "a child process under prlimit (no bwrap)"
        lines.append((True, "enforced after dotnet build, before any test runs (il_check: the assembly read in "
                            f"Python, no mono, by a process of its own in {where}, under memory and time limits; "
                            "a checker that crashes or hangs rejects the candidate)") if ok else
                     (False, f"il_check cannot run ({why}): every candidate is rejected"))
        lines.append((True, "verdict: dotnet test's exit status (TreatNoTestsAsError), which the test process "
                            "cannot set; the TRX only details it and must agree"))
    elif not Path(CECIL).is_file():
        lines.append((False, f"Mono.Cecil missing ({CECIL}): install mono-devel; every candidate is rejected"))
    else:
        lines.append((True, "enforced after compiling, before any test runs (Mono.Cecil checker, mono)"))
        lines.append((True, f"type safety first: mono's IL verifier {VERIFIER} on the candidate's methods") if
                     Path(VERIFIER).is_file() else
                     (False, f"{VERIFIER} missing: install mono-utils (scripts/install.sh); every candidate is rejected"))
    if toolchain == "mono":
        lines.append((True, "verdict: repotrans's NUnit runner's nonce-tagged report on a stdout the test uid "
                            "cannot reopen"))
    lines.append((None, f"allowances only from the Java original ({', '.join(GRANTS)}): such a task's "
                        "verdict says `trust: reduced`; reports count them; reflection reaches only the class itself"))
    lines.append((None, f"overrides of what the tests read ({', '.join(DECLARES)}) only where the Java class "
                        "defines the same"))
    risks = RESIDUAL_RISKS + (DOTNET_RESIDUAL_RISKS if toolchain == "dotnet" else ())
    lines += [(None, f"residual risk: {risk}") for risk in risks]
    return "capability policy", lines


def toolchain_section(config) -> tuple[str, list[Line]]:
    """The compilers, runners and files the configured toolchain needs on this machine (its registry entry)."""
    from repotrans.execution.toolchains.api import toolchain_spec

    spec = toolchain_spec(config.execution.toolchain)
    lines = [(shutil.which(t) is not None, f"{t}: {shutil.which(t) or 'not found'}") for t in spec.tools]
    for name in spec.files:
        found = Path(name).is_file()
        lines.append((found, f"{Path(name).name}: {name if found else 'missing (apt-get install nunit-console)'}"))
    return f"toolchain {spec.name}", lines


def cache_section(config) -> tuple[str, list[Line]]:
    """The user cache folder: the embedding cache's size and rows, the embedding backend in force."""
    from repotrans.retrieval.embed_cache import cache_report

    folder = config.cache.embedding_folder()
    rc = config.retrieval
    return "caches", [(None if folder is None else True, cache_report(folder)),
                      (True, f"embeddings computed by {rc.embedding_model} on {rc.backend}"
                             f"{f' with {rc.threads} thread(s)' if rc.threads else ''}")]


def backends_section(config) -> tuple[str, list[Line]]:
    """Each optional backend the README offers: importable, or the missing module and its install command.
    The one in force for retrieval is a problem when missing; the others are information."""
    from repotrans.extras import BACKENDS, missing

    lines: list[Line] = []
    for backend in BACKENDS:
        problem = missing(backend.name)
        in_force = backend.name == config.retrieval.backend
        if problem is None:
            lines.append((True, f"{backend.name}: importable ({backend.purpose}{', in force' if in_force else ''})"))
        else:
            lines.append((False if in_force else None, problem))
    return "optional backends", lines


def model_section(config) -> tuple[str, list[Line]]:
    """One tiny request to the configured model: the server's answer and time, or what to do."""
    from repotrans.agents.ping import ping

    return "model", [ping(config.model)]


SECTIONS: list[Section] = [sandbox_section, policy_section, toolchain_section, cache_section, backends_section]


def report(config, sections: list[Section] | None = None) -> tuple[str, bool]:
    """The doctor's text and whether every check passed."""
    out, healthy = [], True
    for section in sections or SECTIONS:
        title, lines = section(config)
        out.append(f"{title}:")
        for ok, line in lines:
            out.append(f"  [{'ok' if ok else '..' if ok is None else '!!'}] {line}")
            healthy &= ok is not False
    return "\n".join(out), healthy


def exit_line(text: str) -> str:
    """The last line of a doctor (or init) that exits 1: how many lines of `text` (what it printed) are marked
    [!!], and the first of them."""
    marked = [line.strip()[len("[!!] "):] for line in text.splitlines() if line.lstrip().startswith("[!!]")]
    if not marked:
        return "exit 1: a check failed without a line marked [!!] (please report it)"
    return f"exit 1: {len(marked)} problem(s) marked [!!] above; the first: {marked[0]}"
