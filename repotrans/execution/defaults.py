"""Defaults the execution settings and the toolchains both read (a leaf: it imports nothing)."""

# Test categories left out of every run by default ([Category] in NUnit, [TestCategory] in MSTest; compared
# case aside): stress, slow and manual tests as users leave them out, and the usual categories of tests that
# need a server or a database (configurable: [execution] exclude_categories)
DEFAULT_EXCLUDED = ("Stress", "LongRunning", "Long-Running", "Slow", "Performance", "Manual", "Explicit",
                    "Integration", "IntegrationTest", "IntegrationTests", "Database", "DB", "SqlServer", "MySql",
                    "Oracle", "PostgreSql", "Network", "RequiresNetwork")
