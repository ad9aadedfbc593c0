"""What every figure shares: style, saving PDF + PNG, the LaTeX figure snippet."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from analysis import latex  # noqa: E402
from analysis.latex import trace_tex  # noqa: E402

# Reproducible PDFs: no creation date in the file.
os.environ.setdefault("SOURCE_DATE_EPOCH", "0")
plt.rcParams.update(
    {
        "figure.figsize": (5.0, 3.4),
        "font.size": 9,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "legend.fontsize": 8,
        "savefig.bbox": "tight",
        "pdf.fonttype": 42,
    }
)

#: today's queues in the figures beyond the papers (experiments aqm01): their colours
#: (labels and order: analysis.queues); per-flow schedulers are drawn solid, the rest dashed
QUEUE_COLOURS = {
    "droptail": "tab:red",
    "red": "tab:blue",
    "choke": "tab:green",
    "chokeplus": "tab:olive",
    "codel": "tab:orange",
    "pie": "tab:brown",
    "sfq": "tab:purple",
    "drr": "tab:pink",
    "fqcodel": "black",
}


def save(fig: plt.Figure, pdf: Path) -> None:
    """Save as PDF and as PNG next to it (same stem)."""
    pdf.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(pdf, metadata={"CreationDate": None, "Creator": "ccrepro"})
    fig.savefig(pdf.with_suffix(".png"), dpi=150, metadata={"Software": None})
    plt.close(fig)


def figure_tex(
    tex: Path,
    pdf: Path,
    caption: str,
    rule: str,
    script: str,
    label: str,
    trace: Mapping | None = None,
) -> None:
    """Write the report's figure environment for ``pdf`` (:func:`analysis.latex.figure`)."""
    tex.parent.mkdir(parents=True, exist_ok=True)
    rel = os.path.relpath(pdf, start=Path("paper")).replace(os.sep, "/")
    tex.write_text(latex.figure(rel, caption, trace_tex(trace, rule, script), label))
