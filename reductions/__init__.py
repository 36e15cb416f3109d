"""Puzzle -> model -> grid. Each reduction is a small class with `apply` and `invert`.

After CVXPY's reductions: `apply(puzzle)` returns the model and the data `invert` needs;
`invert(answer, data)` returns the grid. See `reductions.base.Reduction`.
"""
