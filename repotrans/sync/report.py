"""The report of a sync: one outcome per changed Java member, grouped per upstream commit (sync.json,
sync.md): what changed in Java, what was ported and its verdict, what remains for a human and why,
seconds and tokens. sync.md leaves out the commits that change no member of the Java source (build files,
docs, other modules) and counts them in one line."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from repotrans.runs.batch_summary import baseline_line
from repotrans.sync.diff import Change
from repotrans.sync.history import Commit

DONE = {"passed"}
HUMAN = {"for a human", "not carried", "skipped", "error"}


@dataclass
class Outcome:
    change: Change
    target: str | None                 # the port's member (id) the change was carried to
    action: str                        # edit, rename, move, remove, create, not carried
    status: str                        # a verdict (passed, failed, compile_error, ...) or "for a human"
    how: str = ""                      # statements | retranslated | model
    reason: str = ""
    notes: list[str] = field(default_factory=list)
    adapted: bool | None = None        # the port's body was a local adaptation of the old Java
    new_target: str | None = None
    seconds: float = 0.0
    tokens: int = 0
    files: list[str] = field(default_factory=list)
    code: str | None = None
    judged_by: str = ""                # "translated tests" when the verdict rests on tests translated from JUnit

    def to_json(self) -> dict:
        d = asdict(self)
        d["change"] = asdict(self.change)
        return d


@dataclass
class SyncReport:
    commits: list[Commit]
    changes: list[Change]
    revisions: tuple[str, str]
    outcomes: list[Outcome] = field(default_factory=list)
    whole_suite: dict = field(default_factory=dict)
    baseline: dict = field(default_factory=dict)        # the untouched port's baseline (judge.baseline's facts)
    written: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0

    def add(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)

    def failed_structurally(self, c: Change) -> bool:
        return any(o.change == c and o.action in ("rename", "move") and o.status != "passed" for o in self.outcomes)

    def current_target(self, c: Change, target_id: str) -> str:
        """The port's member after a rename or move of this change passed (else as it was)."""
        for o in self.outcomes:
            if o.change == c and o.new_target:
                return o.new_target
        return target_id

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for o in self.outcomes:
            out[o.status] = out.get(o.status, 0) + 1
        return dict(sorted(out.items()))

    def per_commit(self) -> list[tuple[Commit | None, list[Outcome]]]:
        """Outcomes under each upstream commit that touched their member (a change touched by several
        commits is listed under each); outcomes no commit names (trees given) under None."""
        groups: list[tuple[Commit | None, list[Outcome]]] = []
        for commit in self.commits:
            groups.append((commit, [o for o in self.outcomes if commit.short in o.change.commits]))
        rest = [o for o in self.outcomes if not o.change.commits]
        if rest or not self.commits:
            groups.append((None, rest))
        return groups

    def to_json(self) -> dict:
        return {"revisions": list(self.revisions), "seconds": self.seconds, "counts": self.counts(),
                "changes": [asdict(c) for c in self.changes],
                "commits": [{"sha": c.sha, "subject": c.subject, "files": list(c.files),
                             "outcomes": [o.to_json() for o in outs],
                             "seconds": round(sum(o.seconds for o in outs), 2),
                             "tokens": sum(o.tokens for o in outs)}
                            for c, outs in self.per_commit() if c is not None],
                "outcomes": [o.to_json() for o in self.outcomes],
                "whole_suite": self.whole_suite, "baseline": self.baseline, "written": self.written, "refused": self.refused}

    def render(self) -> str:
        lines = [f"# Sync {self.revisions[0]} -> {self.revisions[1]}", "",
                 f"{len(self.changes)} Java change(s); outcomes: "
                 + ", ".join(f"{n} {k}" for k, n in self.counts().items()), ""]
        quiet = [c for c, outs in self.per_commit() if c is not None and not outs
                 and not any(c.short in ch.commits for ch in self.changes)]
        for commit, outs in self.per_commit():
            if commit in quiet:
                continue
            head = f"## {commit.short} {commit.subject}" if commit else "## (no commit named: trees compared)"
            lines += [head, ""]
            if commit is not None:
                java = [c for c in self.changes if commit.short in c.commits]
                lines += [f"- Java {c.kind}: `{c.name}`" + (f" (was `{c.old_id.split(':', 1)[1]}`)"
                                                             if c.old_id and c.old_id != c.new_id and c.new_id else "")
                          for c in java]
            for o in outs:
                where = f" -> `{o.target.split(':', 1)[1]}`" if o.target else ""
                how = f" [{o.how}]" if o.how else ""
                why = f": {o.reason}" if o.reason else ""
                adapted = " (the port's body was a local adaptation)" if o.adapted else ""
                label = f" [{o.judged_by}]" if o.judged_by else ""
                lines.append(f"- {o.action} `{o.change.name}`{where}: **{o.status}**{label}{how}{why}{adapted}")
            human = [o for o in outs if o.status not in DONE]
            lines += ["", f"{len(outs) - len(human)} ported, {len(human)} for a human; "
                      f"{sum(o.seconds for o in outs):.1f} s, {sum(o.tokens for o in outs)} tokens", ""]
        if quiet:
            lines += [f"{len(quiet)} commit(s) of the range change no member of the Java source: left out "
                      f"({', '.join(c.short for c in quiet[:8])}{', ...' if len(quiet) > 8 else ''})", ""]
        if self.baseline:
            lines += [baseline_line(self.baseline), ""]
        if self.whole_suite:
            ws = self.whole_suite
            lines += [f"Whole suite on the synced port: {ws.get('status')} ({ws.get('tests_run')} run, "
                      f"{ws.get('tests_failed')} failed)", ""]
        if self.written:
            lines += ["Written into the port: " + ", ".join(self.written), ""]
        for rel, why in self.refused.items():
            lines.append(f"Not written: {rel}: {why}")
        return "\n".join(lines) + "\n"

    def save(self, run_dir: Path) -> None:
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / "sync.json").write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")
        (run_dir / "sync.md").write_text(self.render(), encoding="utf-8")
