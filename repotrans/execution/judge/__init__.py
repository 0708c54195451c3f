"""Judging candidates: the runner, the batching judge, verdicts, statuses, the build report."""
