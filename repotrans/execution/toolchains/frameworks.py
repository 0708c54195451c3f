"""Target frameworks: parse a TFM, say whether a toolchain can build it, pick the best of a project's
TargetFrameworks, and the preprocessor symbols the SDK defines for it."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

NETFX = ".NETFramework"
NETSTANDARD = ".NETStandard"
NETCORE = ".NETCoreApp"
# Platforms with an SDK of their own: neither mcs nor a plain .NET SDK builds them.
PLATFORM_PREFIXES = {"sl": "Silverlight", "wp": "Windows Phone", "uap": "UWP", "win": "Windows Store",
                     "netcore": "Windows Store", "wpa": "Windows Phone", "monoandroid": "Xamarin.Android",
                     "xamarinios": "Xamarin.iOS", "xamarin.ios": "Xamarin.iOS", "monotouch": "Xamarin.iOS",
                     "xamarinmac": "Xamarin.Mac", "portable": "a portable class library profile",
                     "tizen": "Tizen", "wince": "Windows CE", "netmf": ".NET Micro Framework", "unity": "Unity"}
# Classic projects name their platform with project type GUIDs.
PROJECT_TYPE_PLATFORMS = {
    "a1591282-1198-4647-a2b1-27e5ff5f6f3b": "sl5",             # Silverlight
    "c089c8c0-30e0-4e22-80c0-ce093f111a43": "wp8",             # Windows Phone (Silverlight)
    "76f1466a-8b6d-4e39-a767-685a06062a39": "wp8",             # Windows Phone 8.1
    "bc8a1ffa-bee3-4634-8014-f334798102b3": "win8",            # Windows Store
    "a5a43c5b-de2a-4c0c-9213-0a381af9435a": "uap10.0",         # UWP
    "efba0ad7-5a72-4c68-af49-83d382785dcf": "monoandroid",     # Xamarin.Android
    "feacfbd2-3405-455c-9665-78fe426c6842": "xamarinios",      # Xamarin.iOS
    "6bc8ed88-2882-458c-8e55-dfd12b67127b": "monotouch",       # MonoTouch
    "786c830f-07a1-408b-bd7f-6ee04809d6db": "portable",        # portable class library
    "4d628b5b-2fbc-4aa6-8c16-197242aeb884": "wince",           # Smart Device (Windows CE)
}


@dataclass(frozen=True)
class Framework:
    tfm: str                       # as written, lower-cased
    identifier: str                # .NETFramework | .NETStandard | .NETCoreApp | a platform name
    version: tuple[int, ...]

    @property
    def platform(self) -> str | None:
        """The platform SDK this framework needs, or None for .NET Framework/Standard/Core."""
        return None if self.identifier in (NETFX, NETSTANDARD, NETCORE) else self.identifier


def parse_tfm(tfm: str) -> Framework:
    """'net45', 'net40-client', 'netstandard2.0', 'netcoreapp3.1', 'net8.0', 'net6.0-windows', 'sl5', ..."""
    low = tfm.strip().lower()
    base = low.split("-")[0] if not low.startswith("portable") else low
    m = re.fullmatch(r"netstandard(\d+)\.(\d+)", base)
    if m:
        return Framework(low, NETSTANDARD, (int(m.group(1)), int(m.group(2))))
    m = re.fullmatch(r"netcoreapp(\d+)\.(\d+)", base)
    if m:
        return Framework(low, NETCORE, (int(m.group(1)), int(m.group(2))))
    m = re.fullmatch(r"net(\d+)\.(\d+)", base)
    if m and int(m.group(1)) >= 5:
        return Framework(low, NETCORE, (int(m.group(1)), int(m.group(2))))
    m = re.fullmatch(r"net(\d)(\d)?(\d)?", base)
    if m:
        return Framework(low, NETFX, tuple(int(g) for g in m.groups() if g is not None) + (0,) * (
            2 - sum(g is not None for g in m.groups())))
    for prefix, name in sorted(PLATFORM_PREFIXES.items(), key=lambda kv: -len(kv[0])):
        if base.startswith(prefix):
            nums = re.findall(r"\d", base[len(prefix):])
            return Framework(low, name, tuple(int(n) for n in nums[:2]) or (0,))
    return Framework(low, low or "unknown", (0,))


def classic_tfm(props: dict[str, str]) -> str:
    """A classic project's framework from TargetFrameworkIdentifier/Version and its project type GUIDs."""
    for guid in re.findall(r"[0-9a-fA-F-]{36}", props.get("ProjectTypeGuids", "")):
        if guid.lower() in PROJECT_TYPE_PLATFORMS:
            return PROJECT_TYPE_PLATFORMS[guid.lower()]
    ident = props.get("TargetFrameworkIdentifier", "").strip().lower()
    version = props.get("TargetFrameworkVersion", "").strip().lower().lstrip("v") or "4.0"
    digits = "".join(version.split(".")[:3])
    if ident in ("", ".netframework"):
        return "net" + digits
    if ident == "silverlight":
        return "sl" + digits[:1]
    if ident == "windowsphone":
        return "wp" + digits[:1]
    if ident == ".netportable":
        return "portable"
    if ident in ("monoandroid", "xamarin.ios", "xamarin.mac"):
        return ident.replace(".", "")
    return ident + digits


def unbuildable_reason(fw: Framework, toolchain: str) -> str | None:
    """Why `toolchain` cannot build projects targeting fw (None: it can)."""
    if fw.platform:
        return f"targets {fw.platform} ({fw.tfm}), which needs its own SDK"
    if toolchain == "mono" and fw.identifier == NETSTANDARD and fw.version > (2, 0):
        return f"targets {fw.tfm}, newer than mono's netstandard2.0"
    return None


def preference(fw: Framework, toolchain: str) -> tuple:
    """Sort key: the framework a toolchain builds most faithfully sorts first."""
    if unbuildable_reason(fw, toolchain):
        return (9,)
    if toolchain == "mono":
        order = {NETFX: 0, NETSTANDARD: 1, NETCORE: 2}[fw.identifier]
        # .NET Framework: the newest up to 4.8 (mono 6 implements 4.8); netstandard: the newest up to 2.0
        return (order, tuple(-v for v in fw.version))
    order = {NETCORE: 0, NETSTANDARD: 1, NETFX: 2}[fw.identifier]
    return (order, tuple(-v for v in fw.version))


def choose_framework(tfms: list[str], toolchain: str, requested: str | None = None) -> tuple[str | None, str]:
    """(chosen TFM, why); None when no framework of the list can be built by the toolchain."""
    if not tfms:
        return None, "no target framework"
    if requested:
        for t in tfms:
            if t.strip().lower() == requested.strip().lower():
                return t, "--framework"
    ranked = sorted(tfms, key=lambda t: preference(parse_tfm(t), toolchain))
    best = ranked[0]
    reason = unbuildable_reason(parse_tfm(best), toolchain)
    if reason:
        return None, reason
    why = f"best of {len(tfms)} for {toolchain}" if len(tfms) > 1 else "the only one"
    if requested:
        why += f" ({requested} is not among {';'.join(tfms)})"
    return best, why


def implicit_defines(tfm: str) -> list[str]:
    """The symbols an SDK-style build defines for a TargetFramework (NET45, NETSTANDARD2_0, NET8_0_OR_GREATER...)."""
    fw = parse_tfm(tfm)
    if fw.platform:
        return []
    major, minor = fw.version[0], fw.version[1] if len(fw.version) > 1 else 0
    if fw.identifier == NETFX:
        digits = "".join(str(v) for v in fw.version).rstrip("0") or "0"
        digits = digits if len(digits) >= 2 else digits + "0"
        out = ["NETFRAMEWORK", f"NET{digits}"]
        for known in ("20", "35", "40", "45", "451", "452", "46", "461", "462", "47", "471", "472", "48", "481"):
            if _netfx_key(known) <= _netfx_key(digits):
                out.append(f"NET{known}_OR_GREATER")
        return out
    if fw.identifier == NETSTANDARD:
        out = ["NETSTANDARD", f"NETSTANDARD{major}_{minor}"]
        out += [f"NETSTANDARD{a}_{b}_OR_GREATER" for a, b in ((1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (1, 5),
                                                            (1, 6), (2, 0), (2, 1)) if (a, b) <= (major, minor)]
        return out
    if major < 5:
        out = ["NETCOREAPP", f"NETCOREAPP{major}_{minor}"]
    else:
        out = ["NETCOREAPP", "NET", f"NET{major}_{minor}"]
    for a, b in ((1, 0), (1, 1), (2, 0), (2, 1), (2, 2), (3, 0), (3, 1)):
        if (a, b) <= (major, minor):
            out.append(f"NETCOREAPP{a}_{b}_OR_GREATER")
    out += [f"NET{v}_0_OR_GREATER" for v in range(5, major + 1)]
    return out


def _netfx_key(digits: str) -> tuple[int, ...]:
    return tuple(int(c) for c in digits.ljust(3, "0"))


def compatible(target: str, candidate: str) -> bool:
    """Can a project targeting `target` use an asset built for `candidate` (nuget's rule, simplified)?"""
    t, c = parse_tfm(target), parse_tfm(candidate)
    if t.platform or c.platform:
        return t.tfm == c.tfm
    if c.identifier == t.identifier:
        return c.version <= t.version
    if c.identifier == NETSTANDARD:
        if t.identifier == NETCORE:
            return c.version <= (2, 1)
        if t.identifier == NETFX:                          # .NET Framework 4.6.1+ implements netstandard2.0
            limit = (2, 0) if t.version >= (4, 6, 1) else (1, 2) if t.version >= (4, 5, 2) else \
                (1, 1) if t.version >= (4, 5) else None
            return limit is not None and c.version <= limit
    return False


# What a framework's surface gives without a reference, as mono's 4.5 profile spells it (mcs -sdk:4.5).
CLASSIC_REFS = ("System.dll", "System.Core.dll", "System.Xml.dll", "System.Xml.Linq.dll", "System.Data.dll",
                "System.Numerics.dll", "System.Runtime.Serialization.dll", "Microsoft.CSharp.dll", "System.Net.Http.dll")
SDK_NETFX_REFS = ("System.Drawing.dll", "System.IO.Compression.dll", "System.IO.Compression.FileSystem.dll")
# netstandard / netcoreapp: their own contracts, forwarded to mono's assemblies by its facades
FACADE_REFS = ("/usr/lib/mono/4.5/Facades/netstandard.dll", "/usr/lib/mono/4.5/Facades/System.Runtime.dll", "System.ComponentModel.DataAnnotations.dll",
               "System.Drawing.dll", "System.IO.Compression.dll", "System.Transactions.dll", "System.Web.dll")


def framework_references(tfm: str, sdk: bool) -> list[str]:
    """The framework assemblies a project of this framework compiles against on mono."""
    fw = parse_tfm(tfm) if tfm else None
    if fw is None or fw.identifier == NETFX:
        refs = list(CLASSIC_REFS) + (list(SDK_NETFX_REFS) if sdk else [])
    else:
        refs = list(CLASSIC_REFS) + list(FACADE_REFS)
    # an older profile lacks some (4.0 has no System.Net.Http): only what the profile mcs compiles against has
    folder = MONO_LIB / f"{reference_profile(tfm)[0]}-api"
    return [r for r in refs if "/" in r or not folder.is_dir() or (folder / r).is_file()]


MONO_LIB = Path("/usr/lib/mono")
DEFAULT_PROFILE = "4.5"            # before profiles were chosen: every project's, kept for netstandard/netcore
# netstandard / netcoreapp build against this profile and the facades (FACADE_REFS): the newest .NET Framework
# API mono has implements netstandard2.0
PORTABLE_PROFILE = "4.8"


def mono_profiles(lib: Path = MONO_LIB) -> list[tuple[int, ...]]:
    """The reference-assembly profiles mono provides here (/usr/lib/mono/4.x-api), oldest first."""
    found = []
    for folder in lib.glob("4*-api"):
        version = folder.name[:-len("-api")]
        if re.fullmatch(r"\d+(\.\d+)*", version):
            found.append(tuple(int(v) for v in version.split(".")))
    return sorted(found)


def reference_profile(tfm: str, profiles: list[tuple[int, ...]] | None = None) -> tuple[str, str]:
    """(mcs -sdk value, why): the .NET Framework profile a project compiles against: the one its target
    framework names, else the newest mono has below it (the oldest for net20/net35); netstandard and
    netcoreapp get PORTABLE_PROFILE with the netstandard facades."""
    profiles = mono_profiles() if profiles is None else profiles
    if not tfm:
        return DEFAULT_PROFILE, f"no target framework: {DEFAULT_PROFILE}"
    if not profiles:
        return DEFAULT_PROFILE, f"mono lists no reference profiles under {MONO_LIB}: {DEFAULT_PROFILE}"
    spell = lambda v: ".".join(str(x) for x in v)
    fw = parse_tfm(tfm)
    if fw.identifier != NETFX:
        wanted = _trimmed(tuple(int(x) for x in PORTABLE_PROFILE.split(".")))
        best = max((p for p in profiles if _trimmed(p) <= wanted), default=profiles[-1])
        return spell(best), f"{fw.tfm}: the .NET Framework {spell(best)} profile with the netstandard facades"
    version = _trimmed(tuple(fw.version))
    same = [p for p in profiles if _trimmed(p) == version]
    if same:
        return spell(same[0]), f"{fw.tfm}: its own profile ({MONO_LIB}/{spell(same[0])}-api)"
    below = [p for p in profiles if _trimmed(p) <= version]
    if below:
        return spell(below[-1]), f"{fw.tfm}: mono has no {spell(version)} profile; {spell(below[-1])}, the newest below it"
    return spell(profiles[0]), f"{fw.tfm}: mono has nothing older than {spell(profiles[0])}, its oldest profile"


def _trimmed(version: tuple[int, ...]) -> tuple[int, ...]:
    """4.0 -> 4, 4.7.0 -> 4.7: versions compared without trailing zeros."""
    while len(version) > 1 and version[-1] == 0:
        version = version[:-1]
    return version
