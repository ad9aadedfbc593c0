"""bench/dry-run: the jobs by rule read from Snakemake's dry-run job table."""

from __future__ import annotations

from pathlib import Path

from conftest import load_script  # one definition, shared by the tests of bench/ scripts

ROOT = Path(__file__).resolve().parent.parent

dry = load_script(ROOT / "bench/dry-run", "dry_run_bench")

TABLE = """Building DAG of jobs...
Job stats:
job                   count
------------------  -------
akella2002_search        86
report                    1
runs                     49
total                   136

rule runs:
"""


def test_job_table_reads_every_rule_but_the_total() -> None:
    assert dry.job_table(TABLE) == {"akella2002_search": 86, "report": 1, "runs": 49}
    assert dry.job_table("Nothing to be done.\n") == {}
