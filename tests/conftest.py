"""Shared fixtures: the project root and the patched ns binary."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def ns_binary() -> Path:
    """The patched ns (make test builds it first). Missing is an error, not a skip."""
    ns = Path(os.environ.get("CCR_NS", ROOT / "build" / "ns2" / "bin" / "ns"))
    if not ns.is_file():
        pytest.fail(f"{ns} not built: run 'make ns' (or snakemake build_ns) first")
    return ns
