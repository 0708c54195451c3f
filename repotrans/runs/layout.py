"""Where a run folder keeps what, in one place: its results (results.sqlite, runs.store),
a batch's summary (summary.json), the batch's workdir (workspace/: the index, the retrieval stores, the
judge's scratch copies), one folder per task (tasks/<task>/, or tasks/<config>/<dataset>/<task>/ in an
ablation: agents.trajectory's files) and, for an ablation, one folder per dataset (datasets/<name>/ with
its own workspace/)."""
from __future__ import annotations

from pathlib import Path

RESULTS = "results.sqlite"
SUMMARY = "summary.json"


def results_file(run_dir: Path) -> Path:
    """The run folder's results database."""
    return Path(run_dir) / RESULTS


def summary_file(run_dir: Path) -> Path:
    """A batch's summary (runs.batch.BatchSummary as JSON)."""
    return Path(run_dir) / SUMMARY


def tasks_folder(run_dir: Path, config: str | None = None, dataset: str | None = None) -> Path:
    """Where the tasks' own folders are: the run's, or an ablation's for one configuration and dataset."""
    folder = Path(run_dir) / "tasks"
    return folder if config is None else folder / config / str(dataset)


def is_run_folder(run_dir: Path) -> bool:
    """Whether `run_dir` holds a run's results."""
    return results_file(run_dir).is_file()


def workdir_of(folder: Path) -> Path:
    """The workdir of a batch's run folder or of an ablation's dataset folder."""
    return Path(folder) / "workspace"


def dataset_folder(run_dir: Path, name: str) -> Path:
    """An ablation's folder for one dataset."""
    return Path(run_dir) / "datasets" / name


def dataset_folders(run_dir: Path) -> list[Path]:
    """An ablation's dataset folders, by name."""
    return sorted((Path(run_dir) / "datasets").glob("*"))
