"""Certifying a stored run's verdicts (`bench --certify`): after the run, so that no proof is
checked while the back-ends are timed.

Every finished task whose verdict claims something (none / unique / multiple) gets a row in
the store's `certificates` table. Tasks of one puzzle that claim the same (a back-end's
repeats, back-ends that agree) share one certificate; a task certified already (an earlier
`--certify` of the run, before a `--resume`) is not certified again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sudoku_bench.harness.certifying.certificate import CERTIFIABLE, Certificate
from sudoku_bench.harness.certifying.certifier import Certifier
from sudoku_bench.harness.results import parse_rules
from sudoku_bench.harness.storing.store import Store
from sudoku_bench.puzzles.grid import Grid
from sudoku_bench.puzzles.rules import Rules


def certify_run(
    store: Store,
    run_id: int,
    certifier: Certifier,
    *,
    report: Callable[[dict[str, Any], Certificate], None] | None = None,
) -> int:
    """Certify the run's uncertified claims and store the certificates; `report` hears each
    task's certificate as it is stored. Returns how many tasks were certified."""
    done = store.certificates(run_id)
    pending = [
        row
        for row in store.results(run_id)
        if row["verdict"] in CERTIFIABLE and row["task"] not in done
    ]
    # one puzzle's tasks one after another: the certifier keeps the current puzzle's
    # certificates, so agreeing tasks share one proof
    pending.sort(key=lambda row: (row["rules"], row["puzzle"], row["task"]))
    rows: list[dict[str, Any]] = []
    puzzle, current = Grid.empty(Rules.of_size(4)), ("", "")
    for row in pending:
        if (row["rules"], row["puzzle"]) != current:
            current = (row["rules"], row["puzzle"])
            puzzle = Grid.from_string(row["puzzle"], parse_rules(row["rules"]))
        certificate = certifier.certificate(puzzle, str(row["verdict"]), row["solutions"])
        if certificate is None:
            continue
        rows.append(certificate_row(int(row["task"]), certificate))
        if report is not None:
            report(row, certificate)
        if len(rows) >= 256:  # stored as they come: an interrupted certification keeps them
            store.add_certificates(run_id, rows)
            rows = []
    store.add_certificates(run_id, rows)
    return len(pending)


def certificate_row(task: int, certificate: Certificate) -> dict[str, Any]:
    """What the store keeps of a task's certificate (`CERTIFICATE_COLUMNS`)."""
    return {
        "task": task,
        "certified": certificate.outcome,
        "method": certificate.method,
        "proof_bytes": certificate.proof_bytes,
        "solve_s": certificate.solve_s,
        "check_s": certificate.check_s,
        "second_checker": certificate.second_checker,
        "message": certificate.message,
    }
