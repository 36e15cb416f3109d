"""`python -m sudoku_bench`: the `sudoku-bench` command."""

from sudoku_bench.harness.__main__ import run

if __name__ == "__main__":
    run()
