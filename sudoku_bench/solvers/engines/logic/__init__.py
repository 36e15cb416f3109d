"""The `logic` back-end: candidates and human techniques, one logged step at a time."""

from sudoku_bench.solvers.engines.logic.solver import LogicRun, LogicSolver, run_logic
from sudoku_bench.solvers.engines.logic.state import Candidates, Contradiction, Step
from sudoku_bench.solvers.engines.logic.techniques import (
    BEYOND_LOGIC,
    LEVELS,
    TECHNIQUES,
    Technique,
    choose,
    next_step,
)

__all__ = [
    "BEYOND_LOGIC",
    "LEVELS",
    "TECHNIQUES",
    "Candidates",
    "Contradiction",
    "LogicRun",
    "LogicSolver",
    "Step",
    "Technique",
    "choose",
    "next_step",
    "run_logic",
]
