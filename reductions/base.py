"""The reduction contract (after CVXPY): `apply` a puzzle to get a model, `invert` an answer."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Generic, TypeVar

from puzzles.grid import Grid

ModelT = TypeVar("ModelT")
AnswerT = TypeVar("AnswerT")


class Reduction(ABC, Generic[ModelT, AnswerT]):
    """One translation: puzzle -> model (`apply`) and the model's answer -> grid (`invert`)."""

    name: str = ""

    @abstractmethod
    def apply(self, puzzle: Grid) -> tuple[ModelT, Any]:
        """The model for `puzzle`, and the data `invert` needs to map an answer back."""

    @abstractmethod
    def invert(self, answer: AnswerT, data: Any) -> Grid:
        """The grid that an answer of the model stands for."""

    def size(self, model: ModelT) -> dict[str, int]:
        """Numbers that describe the model (rows, columns, variables, constraints, ...)."""
        return {}
