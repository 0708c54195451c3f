"""JUnit -> NUnit: Java test classes as fixtures in the port's test style (deterministic, or by a model)."""
