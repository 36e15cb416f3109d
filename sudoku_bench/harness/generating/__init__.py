"""Generating and rating puzzles: the generator, the difficulty rating, the 4x4 facts."""
