"""What users run: cross-check, counting, timed runs, storage, reports, generator and the CLI."""
