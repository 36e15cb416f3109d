"""The engines this project writes, each with its compiled twin beside it."""
