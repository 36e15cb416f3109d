"""`python -m sudoku_bench.harness` and the `sudoku-bench` script: the CLI. Its commands are imported in
`run`, so that a Ctrl-C while they load (a second or two) ends the command as quietly as one
later does, with exit code 130 and no traceback."""

import sys


def run() -> None:
    try:
        from sudoku_bench.harness.cli import main
    except KeyboardInterrupt:
        print("sudoku-bench: interrupted", file=sys.stderr)
        sys.exit(130)
    sys.exit(main())


if __name__ == "__main__":
    run()
