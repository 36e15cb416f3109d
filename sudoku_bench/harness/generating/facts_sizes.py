"""The sizes the `facts` command computes, apart from the code that computes them: the command
line reads them to build its parser, and every `sudoku-bench` command builds that parser, so
it must not import numpy or compile numba kernels to do so."""

SIZES = (4, 6)  # exhaustively; 9x9 is out of reach of these methods
BAND_SIZES = (4, 6, 9)  # by Felgenhauer and Jarvis's band method
# the 9x9 completions: 44 classes of about 7.0 x 10^9 grids each (6.67 x 10^21 / 9! / 2,612,736
# bands), backtracking at about 1.8 million grids a CPU second (measured on band 1 plus four
# cells of row 4): about 48 CPU hours in all
EXPECTED_CORE_HOURS_9X9 = 48
