"""Switch mechanisms: mutant and candidate schemata, shared builds of many candidates."""
