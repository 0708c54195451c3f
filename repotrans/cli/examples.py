"""An example epilog for every subcommand (shown by `repotrans CMD --help`), kept in one place.

The paths are the bundled sample's (datasets/sample) and the folders `scripts/run_sample.sh` makes, so
every example runs as written from a checkout.
"""
from __future__ import annotations

J, CS, VIEW = "datasets/sample/java", "datasets/sample/csharp", "runs/sample/view/target"

EXAMPLES: dict[str, list[str]] = {
    "init": [f"repotrans init --source {J} --target {VIEW} --model qwen2.5-coder:7b "
             "--base-url http://localhost:11434/v1",
             f"repotrans batch --source {J} --target {VIEW} --dry-run"],
    "index": [f"repotrans index --source {J} --target {CS}"],
    "tool": ["repotrans tool find_target_class_info '{\"class_name\": \"Circle\"}'",
             "repotrans tool get_source_class_info --function 'Circle.Scale(double)'"],
    "mapping": ["repotrans mapping --verbose", "repotrans mapping --format jsonl > mapping.jsonl"],
    "retrieve": ["repotrans retrieve --function 'Circle.Scale(double)' --k 5"],
    "skeleton": ["repotrans skeleton --types 'org.acme.geo.*' --dry-run"],
    "translate-tests": ["repotrans translate-tests --junit path/to/src/test/java --tests 'org.acme.geo.*Test' "
                        "--dry-run"],
    "translate": [f"repotrans translate --source {J} --target {VIEW} --function 'StringUtils.Capitalize(string)' "
                  "--model builtin",
                  f"repotrans translate --source {J} --target {VIEW} --function 'Circle.Area()' "
                  "--model qwen2.5-coder:7b --base-url http://localhost:11434/v1 --stream"],
    "batch": [f"repotrans batch --source {J} --target {VIEW} --dry-run",
              f"repotrans batch --source {J} --target {VIEW} --run-dir runs/sample/batch --model builtin",
              f"repotrans batch --source {J} --target {VIEW} --run-dir runs/sample/batch --model builtin --resume"],
    "ablate": ["repotrans dataset build --source J --target C --out datasets/mine",
               "repotrans ablate --dataset datasets/mine --configs full,no-rag --run-dir runs/ablate --model builtin"],
    "report": ["repotrans report runs/sample/batch        # -> runs/sample/batch/report.html"],
    "dataset build": [f"repotrans dataset build --source {J} --target {CS} --out datasets/mine "
                      "--select 'Acme.Geo.Shapes.*'"],
    "dataset mask": ["repotrans dataset mask --dataset datasets/sample/demo --out runs/sample/view"],
    "parity": [f"repotrans parity --source {J} --target {CS}",
               f"repotrans parity --source {J} --target {CS} --exclude parity-exclude.txt --format json --fail-over 0"],
    "sync": ["python3 datasets/sample_history/make_history.py /tmp/acme-geometry",
             f"repotrans sync --source /tmp/acme-geometry --since v1 --until v2 --target {CS} --run-dir runs/sync "
             "--patch sync.patch"],
    "doctor": ["repotrans doctor", f"repotrans doctor --target {CS} --no-run",
               "repotrans doctor --model qwen2.5-coder:7b --base-url http://localhost:11434/v1"],
    "run-tests": [f"repotrans run-tests --target {VIEW} --source {J} --function 'StringUtils.Capitalize(string)' "
                  "--code capitalize.cs"],
}


# the reference page (docs/, in the checkout and on the project's site) of each command it explains
PAGES: dict[str, str] = {
    "index": "docs/tools.md", "tool": "docs/tools.md", "retrieve": "docs/tools.md", "run-tests": "docs/judge.md",
    "doctor": "docs/judge.md", "parity": "docs/sync.md", "sync": "docs/sync.md", "ablate": "docs/datasets.md",
    "report": "docs/datasets.md", "dataset build": "docs/datasets.md", "dataset mask": "docs/datasets.md",
}


def epilog(command: str) -> str | None:
    """`examples:` and the command lines, then the command's reference page; None for a command with neither."""
    lines = EXAMPLES.get(command)
    text = "examples:\n" + "\n".join(f"  {line}" for line in lines) if lines else ""
    page = PAGES.get(command)
    if page:
        text += ("\n\n" if text else "") + f"more: {page} (README.md lists every page)"
    return text or None
