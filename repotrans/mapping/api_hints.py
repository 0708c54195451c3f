"""What the learned API map says about the calls of one Java method, for a model's prompt: each call
the method makes that the port writes its own way, with the port's form filled with this call's parts
and its support ("how this port writes these calls")."""
from __future__ import annotations

import re

from repotrans.index.model import Method
from repotrans.mapping.api_map import ApiMap
from repotrans.mapping.api_sites import java_sites

_SLOT = re.compile(r"\{(\d+)\}")


def port_calls(api: ApiMap, java: Method, fields: dict[str, str], owner: str, limit: int = 12) -> list[dict]:
    """[{"java", "cs", "count", "total"}] for the calls of `java` the map answers for, in source order,
    leaving out those the port writes as Java does (up to case). `api` must not hold the task's own pair."""
    sites, _ = java_sites(java, fields, owner)
    out: list[dict] = []
    seen: set[str] = set()
    for site in sites:
        if site.key in seen or len(out) >= limit:
            continue
        seen.add(site.key)
        choice = api.choose(site.key, [a.text for a in site.args], arg_type=site.arg_type or None)
        if choice is None:
            continue
        parts = {"0": site.recv.text if site.recv else ""} | {str(i + 1): a.text for i, a in enumerate(site.args)}
        cs = _SLOT.sub(lambda m: parts.get(m.group(1), m.group(0)), choice.template)
        java_text = " ".join(site.text.split())
        if cs.replace(" ", "").lower() == java_text.replace(" ", "").lower():
            continue
        out.append({"java": java_text, "cs": cs, "count": choice.count, "total": choice.total})
    return out
