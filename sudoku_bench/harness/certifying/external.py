"""A second, external proof checker: `drat-trim`, where it is installed.

drat-trim (Heule et al., https://github.com/marijnheule/drat-trim) checks a DRAT proof
backwards with core-first propagation: a different algorithm by different authors. It is run
when the program is on PATH (or named by `SUDOKU_BENCH_DRAT_TRIM`); otherwise certificates
say that no second checker ran. Debian does not package it; build it with `make` in a clone
of its repository and put the `drat-trim` binary on PATH.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ENVIRONMENT = "SUDOKU_BENCH_DRAT_TRIM"
SECOND_CHECK_TIMEOUT_S = 600.0


@dataclass(frozen=True)
class ExternalCheck:
    """drat-trim's verdict on one proof: `verified` True or False, and its own words."""

    checker: str
    verified: bool
    check_s: float
    message: str


def drat_trim() -> str | None:
    """The drat-trim program to run, or None when there is none."""
    named = os.environ.get(ENVIRONMENT)
    if named:
        return named if Path(named).is_file() else shutil.which(named)
    return shutil.which("drat-trim")


def check_with_drat_trim(
    program: str,
    variables: int,
    clauses: Sequence[Sequence[int]],
    proof: Sequence[str],
    timeout: float = SECOND_CHECK_TIMEOUT_S,
) -> ExternalCheck:
    """Run drat-trim on the formula and the proof, written to temporary files."""
    with tempfile.TemporaryDirectory(prefix="sudoku-bench-proof-") as folder:
        formula_path = Path(folder) / "formula.cnf"
        proof_path = Path(folder) / "proof.drat"
        lines = [f"p cnf {variables} {len(clauses)}"]
        lines += [" ".join([*map(str, clause), "0"]) for clause in clauses]
        formula_path.write_text("\n".join(lines) + "\n", encoding="ascii")
        proof_path.write_text("".join(line + "\n" for line in proof), encoding="ascii")
        started = time.perf_counter()
        try:
            finished = subprocess.run(
                [program, str(formula_path), str(proof_path), "-t", str(int(timeout))],
                capture_output=True,
                text=True,
                timeout=timeout + 5,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            return ExternalCheck("drat-trim", False, time.perf_counter() - started, str(error))
        elapsed = time.perf_counter() - started
    status = [line for line in finished.stdout.splitlines() if line.startswith("s ")]
    verified = status == ["s VERIFIED"]
    said = status[-1][2:] if status else (finished.stderr.strip() or "no verdict printed")
    return ExternalCheck("drat-trim", verified, elapsed, said)
