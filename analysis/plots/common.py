"""What every figure shares: style, saving PDF + PNG, the LaTeX figure snippet."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from analysis.compare import tex_escape  # noqa: E402

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


def save(fig: plt.Figure, pdf: Path) -> None:
    """Save as PDF and as PNG next to it (same stem)."""
    pdf.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(pdf, metadata={"CreationDate": None, "Creator": "ccrepro"})
    fig.savefig(pdf.with_suffix(".png"), dpi=150, metadata={"Software": None})
    plt.close(fig)


def trace_tex(trace: Mapping | None, rule: str, script: str) -> str:
    """The end of a caption: where the figure or table comes from. With the workflow's trace
    (``--params`` key ``trace``): the item, its analysis step, the experiments and Tcl
    scripts of its runs, the rule, the script and the config keys that set it."""
    if not trace:
        return (
            f"\\emph{{Made by rule \\texttt{{{tex_escape(rule)}}}, "
            f"script \\texttt{{{tex_escape(script)}}}.}}"
        )

    def tt(values: Sequence[str]) -> str:
        return ", ".join(f"\\texttt{{{tex_escape(v)}}}" for v in values) or "none"

    return (
        f"\\emph{{Item \\texttt{{{tex_escape(trace['item'])}}}: step "
        f"\\texttt{{{tex_escape(trace['step'])}}}, experiments {tt(trace['experiments'])} "
        f"(Tcl {tt(trace['tcl'])}); rule \\texttt{{{tex_escape(trace['rule'])}}}, script "
        f"\\texttt{{{tex_escape(script)}}}; config {tt(trace['config'])}.}}"
    )


def figure_tex(
    tex: Path,
    pdf: Path,
    caption: str,
    rule: str,
    script: str,
    label: str,
    trace: Mapping | None = None,
) -> None:
    """The report's figure environment; the caption ends with :func:`trace_tex`."""
    tex.parent.mkdir(parents=True, exist_ok=True)
    rel = os.path.relpath(pdf, start=Path("paper")).replace(os.sep, "/")
    tex.write_text(
        "\\begin{figure}[htbp]\n\\centering\n"
        f"\\includegraphics[width=0.8\\linewidth]{{{rel}}}\n"
        f"\\caption{{{caption} {trace_tex(trace, rule, script)}}}\n"
        f"\\label{{{label}}}\n\\end{{figure}}\n"
    )
