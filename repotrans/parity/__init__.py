"""`repotrans parity`: the Java public API against the port's, entry by entry, from the mapping."""
