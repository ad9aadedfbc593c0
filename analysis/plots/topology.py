"""Network diagrams (the papers' topology figures) drawn from what a run simulated.

Every run writes its network (tcl/lib/topology.tcl, ``experiment::topology_tables``):
``topology_links`` (from to bw delay queue limit, one row per simplex link) and
``topology_agents`` (node class fid dst). The diagram is drawn from those tables, so it shows
the network that was simulated, with its configured rates, delays, queues and buffers.

Layout: the routers (nodes with two or more neighbours) form a chain in every network of the
five papers; the longest chain is drawn left to right in the direction most flows travel, with
each link labelled (rate, one-way delay, queue, buffer). Flows are drawn above it, one arrow
per group of flows that enter and leave the chain at the same routers with the same agent
class ("8 x Sack1", with their propagation round-trip time); host access links are
summarised below.

Usage (rule ``diagram`` of rules/common.smk)::

    python -m analysis.plots.topology RUN_DIR --caption TEXT --rule NAME --pdf OUT.pdf \\
        --tex OUT.tex
"""

from __future__ import annotations

import argparse
import itertools
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from analysis import nsio
from analysis.latex import tex_escape
from analysis.plots.common import figure_tex, plt, save

SCRIPT = "analysis/plots/topology.py"
#: Agent classes that receive (their peers are the flows).
SINK_PREFIXES = ("Agent/TCPSink", "Agent/Null", "Agent/LossMonitor")


@dataclass(frozen=True)
class Group:
    """Flows entering the chain at router index ``first`` and leaving it at ``last``; their
    propagation round-trip times (twice the one-way delays along the path, s) span rtt."""

    first: int
    last: int
    agent: str
    count: int
    fids: tuple[int, ...]
    rtt: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class Layout:
    chain: list[int]  # router node ids, left to right
    groups: list[Group]


def read_network(run_dir: Path | str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(links, agents) of one run; a clear error for a run made before the tables existed."""
    d = Path(run_dir)
    missing = [t for t in ("topology_links", "topology_agents") if not (d / f"{t}.tsv").is_file()]
    if missing:
        raise FileNotFoundError(f"{d}: no {', '.join(missing)} table (rerun the simulation)")
    return nsio.read_table(d / "topology_links.tsv"), nsio.read_table(d / "topology_agents.tsv")


def adjacency(links: pd.DataFrame) -> dict[int, list[int]]:
    """Undirected neighbours of every node, sorted (deterministic walks)."""
    adj: dict[int, set[int]] = {}
    for a, b in zip(links["from"], links["to"], strict=True):
        adj.setdefault(int(a), set()).add(int(b))
        adj.setdefault(int(b), set()).add(int(a))
    return {n: sorted(v) for n, v in adj.items()}


def bfs_path(adj: dict[int, list[int]], src: int, dst: int) -> list[int]:
    """A shortest path in hops (ns-2's static routing), lowest node ids first on ties."""
    prev = {src: src}
    todo = deque([src])
    while todo:
        n = todo.popleft()
        if n == dst:
            break
        for m in adj.get(n, []):
            if m not in prev:
                prev[m] = n
                todo.append(m)
    if dst not in prev:
        raise ValueError(f"node {dst} is not reachable from node {src}")
    path = [dst]
    while path[-1] != src:
        path.append(prev[path[-1]])
    return path[::-1]


def senders(agents: pd.DataFrame) -> pd.DataFrame:
    """The agents that send (every agent not a sink), with their destination node."""
    is_sink = agents["class"].map(lambda c: str(c).startswith(SINK_PREFIXES))
    return agents[~is_sink].reset_index(drop=True)


def layout(links: pd.DataFrame, agents: pd.DataFrame) -> Layout:
    """The router chain and the flow groups along it."""
    adj = adjacency(links)
    routers = [n for n, v in sorted(adj.items()) if len(v) >= 2] or sorted(adj)
    radj = {n: [m for m in adj[n] if m in routers] for n in routers}
    # the chain: the longest of the shortest router-to-router paths (lowest ids on ties)
    best: list[int] = [routers[0]]
    for a in routers:
        for b in routers:
            if a < b:
                try:
                    p = bfs_path(radj, a, b)
                except ValueError:
                    continue
                if len(p) > len(best):
                    best = p
    chain = best
    delay = {
        (int(a), int(b)): float(d)
        for a, b, d in zip(links["from"], links["to"], links["delay"], strict=True)
    }
    spans = []
    for _, s in senders(agents).iterrows():
        path = bfs_path(adj, int(s["node"]), int(s["dst"]))
        on = [chain.index(n) for n in path if n in chain]
        hops = list(itertools.pairwise(path))
        rtt = sum(delay[h] + delay.get(h[::-1], delay[h]) for h in hops)
        if on:
            spans.append((on[0], on[-1], str(s["class"]), int(s["fid"]), rtt))
    # draw in the direction most flows go
    if sum(1 for a, b, *_ in spans if b < a) > sum(1 for a, b, *_ in spans if b > a):
        k = len(chain) - 1
        chain = chain[::-1]
        spans = [(k - a, k - b, c, f, r) for a, b, c, f, r in spans]
    groups: dict[tuple[int, int, str], list[tuple[int, float]]] = {}
    for a, b, c, f, r in spans:
        groups.setdefault((a, b, c), []).append((f, r))
    out = [
        Group(
            a,
            b,
            c,
            len(fr),
            tuple(sorted({f for f, _ in fr})),
            (min(r for _, r in fr), max(r for _, r in fr)),
        )
        for (a, b, c), fr in sorted(groups.items(), key=lambda kv: (kv[0][0], -kv[0][1], kv[0][2]))
    ]
    return Layout(chain, out)


def _rate(bps: float) -> str:
    for unit, scale in (("Gb/s", 1e9), ("Mb/s", 1e6), ("kb/s", 1e3)):
        if bps >= scale:
            return f"{bps / scale:g} {unit}"
    return f"{bps:g} b/s"


def _delay(s: float) -> str:
    return f"{s * 1e3:g} ms"


def _queue(cls: str) -> str:
    return cls.removeprefix("Queue/")


def _agent(cls: str) -> str:
    name = cls.removeprefix("Agent/")
    return {"TCP": "TCP (Tahoe)"}.get(name, name)


def _rtt(rtt: tuple[float, float]) -> str:
    lo, hi = (round(x * 1e3, 3) for x in rtt)
    return f"{lo:g} ms" if lo == hi else f"{lo:g}-{hi:g} ms"


def _fids(fids: tuple[int, ...]) -> str:
    if len(fids) == 1:
        return f"fid {fids[0]}"
    if list(fids) == list(range(fids[0], fids[-1] + 1)):
        return f"fids {fids[0]}-{fids[-1]}"
    return "fids " + ",".join(str(f) for f in fids)


def link_label(links: pd.DataFrame, a: int, b: int) -> str:
    """Rate, delay, queue and buffer of the simplex link a -> b."""
    r = links[(links["from"] == a) & (links["to"] == b)]
    if r.empty:
        return "(no link)"
    r = r.iloc[0]
    return (
        f"{_rate(float(r['bw']))}\n{_delay(float(r['delay']))}\n"
        f"{_queue(str(r['queue']))}, {int(r['limit'])} pkts"
    )


def access_summary(links: pd.DataFrame, chain: list[int]) -> str:
    """The links off the chain (host access links), by rate and delay."""
    on = set(chain)
    off = links[~(links["from"].isin(on) & links["to"].isin(on))]
    if off.empty:
        return "no access links (agents sit on the routers)"
    kinds = sorted({(float(r.bw), float(r.delay)) for r in off.itertuples()})
    parts = [f"{_rate(bw)}, {_delay(d)}" for bw, d in kinds]
    return f"access links ({len(off) // 2} hosts' duplex links): " + "; ".join(parts)


def rows(groups: list[Group]) -> list[int]:
    """A row (0 = nearest the chain) for every group: longest spans first, each in the lowest
    row where it overlaps no group already there."""
    taken: list[list[tuple[float, float]]] = []
    out = [0] * len(groups)
    order = sorted(range(len(groups)), key=lambda i: (-(groups[i].last - groups[i].first), i))
    for i in order:
        g = groups[i]
        lo, hi = min(g.first, g.last) - 0.45, max(g.first, g.last) + 0.45
        r = 0
        while r < len(taken) and any(lo < b and a < hi for a, b in taken[r]):
            r += 1
        if r == len(taken):
            taken.append([])
        taken[r].append((lo, hi))
        out[i] = r
    return out


def draw(links: pd.DataFrame, agents: pd.DataFrame, title: str) -> plt.Figure:
    lay = layout(links, agents)
    k = len(lay.chain)
    row = rows(lay.groups)
    ng = max(row, default=-1) + 1
    fig, ax = plt.subplots(figsize=(max(5.0, 1.6 * k + 1.0), 1.9 + 0.42 * ng))
    ax.set_axis_off()
    ax.grid(False)
    y0 = 0.0
    for i, n in enumerate(lay.chain):
        ax.plot([i], [y0], "o", ms=16, color="0.25", zorder=3)
        ax.text(i, y0, str(n), color="white", ha="center", va="center", fontsize=7, zorder=4)
        if i + 1 < k:
            ax.annotate(
                "",
                xy=(i + 1 - 0.15, y0),
                xytext=(i + 0.15, y0),
                arrowprops={"arrowstyle": "-|>", "lw": 1.6, "color": "0.25"},
            )
            ax.text(
                i + 0.5,
                y0 - 0.22,
                link_label(links, lay.chain[i], lay.chain[i + 1]),
                ha="center",
                va="top",
                fontsize=7,
            )
    for j, g in enumerate(lay.groups):
        y = y0 + 0.45 + 0.42 * row[j]
        lo, hi = (g.first, g.last) if g.first != g.last else (g.first - 0.3, g.first + 0.3)
        ax.annotate(
            "",
            xy=(hi, y),
            xytext=(lo, y),
            arrowprops={"arrowstyle": "-|>", "lw": 1.2, "color": f"C{j % 10}"},
        )
        ax.text(
            (lo + hi) / 2,
            y + 0.05,
            f"{g.count} x {_agent(g.agent)} ({_fids(g.fids)}), RTT {_rtt(g.rtt)}",
            ha="center",
            va="bottom",
            fontsize=7,
            color=f"C{j % 10}",
        )
    ax.text(
        (k - 1) / 2,
        y0 - 1.0,
        "routers (node ids) left to right in the direction of the data; "
        + access_summary(links, lay.chain),
        ha="center",
        va="top",
        fontsize=6.5,
        color="0.3",
        wrap=True,
    )
    ax.set_xlim(-0.6, k - 0.4)
    ax.set_ylim(y0 - 1.25, y0 + 0.55 + 0.42 * max(ng, 1))
    ax.set_title(title, fontsize=9)
    return fig


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", type=Path, help="a complete run folder (has summary.json)")
    ap.add_argument("--caption", required=True)
    ap.add_argument("--rule", required=True)
    ap.add_argument("--label", required=True)
    ap.add_argument("--pdf", type=Path, required=True)
    ap.add_argument("--tex", type=Path, required=True)
    a = ap.parse_args(argv)
    links, agents = read_network(a.run)
    fig = draw(
        links, agents, f"simulated network of run {a.run.as_posix().removeprefix('results/')}"
    )
    save(fig, a.pdf)
    figure_tex(a.tex, a.pdf, tex_escape(a.caption) + ".", a.rule, SCRIPT, a.label)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
