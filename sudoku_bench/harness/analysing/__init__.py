"""Analysing runs: statistics, per back-end summaries, reports and plots."""
