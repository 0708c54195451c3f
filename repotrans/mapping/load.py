"""The mapping of an index: read from its cache when index, code and overrides are unchanged (or from the
machine's, machine_cache), else built and cached."""
from __future__ import annotations

from typing import TYPE_CHECKING

from repotrans.mapping import mapping_cache
from repotrans.mapping.machine_cache import MachineMappings
from repotrans.mapping.mapping import Mapping, build_mapping
from repotrans.mapping.overrides import MappingOverrides

if TYPE_CHECKING:
    from repotrans.index.store import Index


def load_mapping(index: Index, overrides: MappingOverrides | None = None,
                 machine: MachineMappings | None = None) -> Mapping:
    """The mapping for this index with the user's `overrides` (the configuration's, see overrides.py):
    from the cache in the index's SQLite file, else from the `machine`'s cache (an index of the same files
    made elsewhere), rebuilt when the index, the code or the overrides changed."""
    effective = overrides or MappingOverrides()
    fingerprint = mapping_cache.fingerprint(index, effective)
    cached = mapping_cache.read(index, fingerprint)
    if cached is not None:
        return cached
    mapping = machine.get(fingerprint) if machine is not None else None
    if mapping is None:
        mapping = build_mapping(index, effective)
        if machine is not None:
            machine.put(fingerprint, mapping)
    mapping_cache.write(index, fingerprint, mapping)
    return mapping
