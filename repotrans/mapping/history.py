"""History as mapping evidence (`repotrans sync`): a Java member that upstream renamed, moved or gave
another signature keeps its counterpart, whatever the port calls it now.

    history_overrides(pairs) -> MappingOverrides

The old revision's mapping paired the old Java member with a C# member; the port at the matching
revision holds that member (under the name the sync's rename gave it, or its own when the port's name
follows no rule the sync knows). The new Java member is that same member: the pair is pinned for the
new revision's mapping, so the callers' edits name it as the port does (`combine(a, b)` is the port's
`Merge(a, b)`), where the naming rules alone find no counterpart or the wrong one. Overrides the user
gives win over these (merge them on top).
"""
from __future__ import annotations

from repotrans.mapping.overrides import MappingOverrides


def history_overrides(pairs: list[tuple[str, str, str]]) -> MappingOverrides:
    """(old Java id, new Java id, the port's counterpart id now) of the members whose Java id changed
    between the revisions -> method overrides new Java -> counterpart (ids with or without the side
    prefix; a Java id that did not change needs no evidence)."""
    methods: dict[str, str] = {}
    for old_id, new_id, target_id in pairs:
        if old_id != new_id and new_id and target_id:
            methods[new_id.split(":", 1)[-1]] = target_id.split(":", 1)[-1]
    return MappingOverrides({}, methods, "the upstream history" if methods else "")
