"""Running tasks: plans, the worker pool with hard timeouts, sessions, cross-checks, progress."""
