"""Java <-> C# alignment: types, members, evidence, user overrides and the mapping cache (the stage between index and retrieval)."""
