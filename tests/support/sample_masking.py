"""Copies of the sample pair with chosen C# methods masked, as an agent would find them."""
from __future__ import annotations

import shutil
from pathlib import Path

from repotrans.datasets.masking import candidate_tasks, mask_repo
from repotrans.index.store import Index

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"


def masked_sample(root: Path, *functions: str) -> tuple[Path, Path]:
    """(java, csharp) under `root`: the sample's Java, and its C# port with `functions` (task ids such as
    "Acme.Geo.Shapes.Circle.Scale(double)") replaced by `throw new System.NotImplementedException();`."""
    index = Index.open(root / "mask-index")
    index.build(SAMPLE / "java", SAMPLE / "csharp", progress=False)
    tasks = candidate_tasks(index, list(functions))
    if sorted(t.id for t in tasks) != sorted(functions):
        raise ValueError(f"not all of {functions} are tasks of the sample")
    mask_repo(index, tasks, root / "csharp")
    shutil.copytree(SAMPLE / "java", root / "java")
    return root / "java", root / "csharp"
