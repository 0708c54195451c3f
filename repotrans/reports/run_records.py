"""Reading run folders for reports: their task records and what their datasets' manifests say."""
from __future__ import annotations

from pathlib import Path

from repotrans.runs.store import RunStore, TaskRecord
from repotrans.runs.layout import is_run_folder


def load_records(run_dirs: list[Path]) -> list[TaskRecord]:
    records = []
    for d in run_dirs:
        if not is_run_folder(d):
            from repotrans.errors import ConfigError
            raise ConfigError(f"{d} is not a run folder (no results.sqlite)")
        store = RunStore(d)
        records += store.records()
        store.close()
    return records


def unvalidated_datasets(run_dirs: list[Path]) -> set[str]:
    """Names of the datasets of these runs that were built with --no-validate (their manifest says so)."""
    names: set[str] = set()
    for d in run_dirs:
        store = RunStore(d)
        roots = store.meta("datasets", {})
        store.close()
        for name, root in roots.items():
            ds = dataset_or_none(root)
            if ds is not None and not ds.validated:
                names.add(name)
    return names


def dataset_or_none(root: str | None):
    """The dataset of a folder, or None when it is gone or unreadable."""
    from repotrans.errors import ConfigError
    from repotrans.datasets.dataset import load_dataset

    if root is None:
        return None
    try:
        return load_dataset(Path(root))
    except ConfigError:
        return None
