"""Reports over run folders (summary, report.md, report.html, plots): they read files, never re-run."""
