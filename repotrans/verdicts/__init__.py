"""The verdict vocabulary every layer may speak: statuses, their labels and the TestResult of a run."""
