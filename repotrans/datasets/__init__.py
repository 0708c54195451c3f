"""Evaluation datasets: a Java repository, its complete C# port and a task list validated by the judge."""
