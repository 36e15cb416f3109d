"""Certified verdicts: "unique" and "none" proven by a checked DRAT proof on the puzzle's CNF,
"multiple" by two distinct grids that pass the rule checker.

    from sudoku_bench.harness.certifying import certify
    certificate = certify(puzzle, "unique", [solution])
    certificate.outcome          # "yes", "no" or "failed"

`drat` is the proof checker (this project's own, sharing no code with the solver), `proving`
the proof-producing solver (CaDiCaL through PySAT), `external` the optional second checker
(drat-trim), `certificate` what ties them to a verdict.
"""

from sudoku_bench.harness.certifying.certificate import (
    CERTIFIABLE,
    FAILED,
    NO,
    OUTCOMES,
    YES,
    Certificate,
    certify,
)
from sudoku_bench.harness.certifying.drat import DratReport, ProofError, check_drat, parse_drat

__all__ = [
    "CERTIFIABLE",
    "FAILED",
    "NO",
    "OUTCOMES",
    "YES",
    "Certificate",
    "DratReport",
    "ProofError",
    "certify",
    "check_drat",
    "parse_drat",
]
