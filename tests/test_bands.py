"""The band method (Felgenhauer and Jarvis): classes of the first band, and grids counted by them."""

from __future__ import annotations

import json

import pytest

from sudoku_bench.harness.cli import main
from sudoku_bench.harness.generating.bands import (
    band_classes,
    band_geometry,
    band_maps,
    count_by_bands,
)
from tests.cli_contract import FACTS_BANDS


def test_4x4_and_6x6_by_bands_match_the_exhaustive_counts() -> None:
    assert count_by_bands(4).grids == 288
    six = count_by_bands(6)
    assert six.normalised_bands == 36  # the second row's boxes hold the other three digits
    assert six.grids == 28_200_960
    assert sum(six.class_sizes) == 36


@pytest.mark.slow  # 2.6 million bands: about 15 CPU seconds
def test_the_44_band_classes_of_9x9() -> None:
    nine = band_geometry(9)
    assert len(band_maps(nine)) == 6 * 6 * 6**3  # rows, stacks, columns within stacks
    classes = band_classes(nine)
    assert sum(classes.sizes) == 56 * 6**6 == 2_612_736
    assert classes.orbits == 416  # before merging orbits with the same column sets
    assert len(classes.sizes) == 44
    # every class is a union of orbits, each of at most 7,776 bands (one per symmetry)
    assert min(classes.sizes) == 288 and max(classes.sizes) > 7_776


def test_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["facts", "--size", "6", "--bands", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert set(record) == FACTS_BANDS
    assert record["grids"] == 28_200_960
    assert main(["facts", "--size", "9"]) == 2
    assert "--bands" in capsys.readouterr().err
