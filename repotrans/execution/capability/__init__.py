"""The capability checker: what a translated member may reference (rules, allowances, IL checkers)."""
