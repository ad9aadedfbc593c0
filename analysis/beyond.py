"""Beyond the papers: today's queues -- the report's chapter on the papers' stress tests run
against SFQ, DRR, CoDel, FQ-CoDel and PIE (with the papers' own Drop Tail, RED and CHOKe).

It reads the tidy tables of the experiments ``aqm01`` of the papers in the report (Floyd 1991:
connection 0's throughput against the number of congested gateways; Gao et al.: Simulation
2's UDP and TCP flows against their max-min fair rates) and Akella et al.'s SACK
best-response searches behind each queue (their records, search.json: the symmetric Nash
equilibrium and its profile), and writes:

- a summary table, queue x scenario -> the key number of each scenario;
- computed claims, each stated before the runs and checked by a criterion that can fail
  (``CLAIMS``; none of them is a claim of the papers, and none enters the diff against them);
- a paragraph of conclusions drawn only from those claims' verdicts.

Usage (rule ``beyond``)::

    python -m analysis.beyond --fidelity F [--floyd TIDY.csv] [--gao TIDY.csv] \\
        [--akella SEARCH.json ...] --tex paper/generated/F/beyond.tex \\
        --claims paper/generated/F/beyond-claims.csv
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from analysis.latex import tex_escape
from analysis.outputs import write_claims
from analysis.queues import DELAY_AQM, LABELS, PER_FLOW

#: Floyd: connection 0's throughput is compared with half its max-min fair share (50 % of M
#: at every gateway it shares with one cross connection)
HALF_FAIR_PCT = 25.0
#: Floyd: "as starved as RED": within this many points of M of RED's share
SAME_AS_RED_PTS = 5.0
#: Gao: a per-flow scheduler polices an unresponsive flow when it gets at most this many
#: times its max-min fair rate
POLICED_X_FAIR = 2.0
#: Gao: one FIFO does not police when the UDP flow of Simulation 2.1 gets more than this
UNPOLICED_X_FAIR = 5.0
#: Akella: an efficient equilibrium keeps at least this share of the all-AIMD(1, 0.5) goodput
EFFICIENT = 0.9


@dataclass(frozen=True)
class BeyondClaim:
    """A claim, and what the conclusions say when it holds and when it fails (both written
    before the runs, so the paragraph follows the verdicts and nothing else)."""

    key: str
    statement: str
    if_holds: str
    if_fails: str


CLAIMS = (
    BeyondClaim(
        "floyd.per_flow_keeps_conn0",
        "Behind per-flow schedulers (SFQ, DRR, FQ-CoDel) connection 0 keeps at least half "
        f"its max-min fair share ({HALF_FAIR_PCT:g} % of the link) at every number of "
        "congested gateways.",
        "Per-flow scheduling undoes the bias against the multi-hop connection of Floyd's "
        "network: behind SFQ, DRR and FQ-CoDel it keeps at least half its fair share.",
        "Per-flow scheduling does not wholly undo the bias against the multi-hop connection of "
        "Floyd's network: behind at least one of SFQ, DRR and FQ-CoDel it falls below half its "
        "fair share.",
    ),
    BeyondClaim(
        "floyd.delay_aqm_keeps_bias",
        "CoDel and PIE, which drop from one FIFO queue by its delay, leave connection 0 as "
        f"starved as RED does: at the largest n within {SAME_AS_RED_PTS:g} points of the "
        "link of RED's share.",
        "Dropping by delay from one FIFO queue does not help the multi-hop connection: behind "
        "CoDel and PIE it is as starved as behind RED.",
        "Dropping by delay from one FIFO queue changes the multi-hop connection's lot: behind "
        "CoDel or PIE its share is not RED's.",
    ),
    BeyondClaim(
        "gao.per_flow_polices_udp",
        "Behind per-flow schedulers (SFQ, DRR, FQ-CoDel) an unresponsive UDP flow gets at "
        f"most {POLICED_X_FAIR:g} times its max-min fair share, in both of Simulation 2's "
        "set-ups.",
        "The per-flow schedulers police unresponsive UDP flows, the job Gao et al.'s "
        "protocols give to per-flow drop rules.",
        "Not every per-flow scheduler polices an unresponsive UDP flow to within "
        f"{POLICED_X_FAIR:g} times its fair share.",
    ),
    BeyondClaim(
        "gao.delay_aqm_does_not_police",
        "Behind CoDel and PIE the UDP flow of Simulation 2.1 (3 Mb/s into 2 Mb/s) gets more "
        f"than {UNPOLICED_X_FAIR:g} times its max-min fair share: a delay-based AQM on one "
        "FIFO queue does not police a flow that ignores drops.",
        "CoDel and PIE, each on one FIFO queue, do not police an unresponsive UDP flow: it "
        "keeps its excess, as behind Drop Tail.",
        "CoDel or PIE holds the UDP flow closer to its fair share than the criterion allows "
        "for an unpoliced flow.",
    ),
    BeyondClaim(
        "akella.fqcodel_ne_efficient",
        "Behind FQ-CoDel the symmetric Nash equilibrium of the SACK joint search keeps at least "
        f"{EFFICIENT:.0%} of the total goodput of the all-AIMD(1, 0.5) point.".replace("%", " %"),
        "In Akella et al.'s TCP game, selfish flows behind FQ-CoDel settle on an efficient "
        "equilibrium.",
        "In Akella et al.'s TCP game, selfish flows behind FQ-CoDel settle on an "
        "inefficient equilibrium.",
    ),
    BeyondClaim(
        "akella.per_flow_tames_selfishness",
        "Behind per-flow schedulers (SFQ, DRR, FQ-CoDel) the SACK joint search's Nash "
        "equilibrium loses fewer packets than behind Drop Tail (the paper's inefficient "
        "equilibrium).",
        "Behind every per-flow scheduler the game's equilibrium loses fewer packets than "
        "the paper's Drop Tail one.",
        "Behind at least one per-flow scheduler the game's equilibrium loses as many "
        "packets as the paper's Drop Tail one, or more.",
    ),
)


def _fmt(x: float) -> str:
    return f"{x:.3g}"


# ---- the numbers --------------------------------------------------------------------------


def floyd_conn0(tidy: pd.DataFrame) -> pd.DataFrame:
    """Connection 0's throughput (% of M), mean over seeds, per gateway and n."""
    return tidy.groupby(["gateway", "n"], sort=True)["conn0_pct"].mean().reset_index()


def gao_x_fair(tidy: pd.DataFrame) -> pd.DataFrame:
    """Mean over seeds of the UDP and TCP flows' throughput over their fair rate, per
    scenario and gateway."""
    cols = ["udp_x_fair", "tcp_x_fair"]
    return tidy.groupby(["scenario", "gateway"], sort=True)[cols].mean().reset_index()


def akella_ne(records: Sequence[Mapping]) -> pd.DataFrame:
    """Per search record: the queue, the search mode, the NE (alpha_E, beta_E), whether it
    converged, and at the NE's symmetric point: the mean goodput per flow (Mbps), the loss
    rate, the efficiency (its goodput over the all-AIMD(1, 0.5) point's, the search's start)
    and the mean queueing delay (the senders' smoothed RTT minus the path's base RTT, ms)."""
    rows = []
    for r in records:
        p = r["params"]
        base_rtt = 2.0 * (float(p["delay"]) + 2.0 * float(p["access_delay"]))
        rows.append(
            {
                "search": r["search"],
                "queue": r["queue"],
                "mode": r["mode"],
                "alpha_e": float(r["alpha_e"]),
                "beta_e": float(r["beta_e"]),
                "converged": bool(r["converged"]),
                "goodput": float(r["ne"]["goodput"]),
                "loss": float(r["ne"]["loss"]),
                "efficiency": float(r["ne"]["goodput"]) / float(r["start_profile"]["goodput"]),
                "qdelay_ms": 1e3 * (float(r["ne"]["srtt"]) - base_rtt),
            }
        )
    cols = ["search", "queue", "mode", "alpha_e", "beta_e", "converged", "goodput", "loss"]
    return pd.DataFrame(rows, columns=[*cols, "efficiency", "qdelay_ms"])


def summary(floyd: pd.DataFrame | None, gao: pd.DataFrame | None) -> pd.DataFrame:
    """One row per queue, one column per scenario's key number: Floyd's connection 0 at the
    largest n (% of M); per Gao set-up, the UDP and TCP flows' multiple of the fair rate."""
    cols: dict[str, dict[str, float]] = {}
    if floyd is not None and not floyd.empty:
        m = floyd_conn0(floyd)
        n = int(m["n"].max())
        top = m[m["n"] == n]
        cols[f"Floyd: connection 0 at n = {n} (% of M)"] = dict(
            zip(top["gateway"], top["conn0_pct"], strict=True)
        )
    if gao is not None and not gao.empty:
        g = gao_x_fair(gao)
        for scenario, d in g.groupby("scenario", sort=True):
            for kind in ("udp", "tcp"):
                cols[f"Gao, {scenario}: {kind.upper()} / fair"] = dict(
                    zip(d["gateway"], d[f"{kind}_x_fair"], strict=True)
                )
    queues = [q for q in LABELS if any(q in c for c in cols.values())]
    rows = [{"queue": q, **{c: v.get(q, float("nan")) for c, v in cols.items()}} for q in queues]
    return pd.DataFrame(rows, columns=["queue", *cols])


# ---- the claims ---------------------------------------------------------------------------


def claims(
    floyd: pd.DataFrame | None, gao: pd.DataFrame | None, akella: pd.DataFrame | None = None
) -> dict[str, tuple[bool, str]]:
    """Each claim of ``CLAIMS`` whose runs exist, with its verdict and the values it read."""
    out: dict[str, tuple[bool, str]] = {}
    if akella is not None and not akella.empty:
        joint = akella[akella["mode"] == "joint"].set_index("queue")
        # a search that stopped at its cap without converging found no equilibrium: a claim
        # about the equilibrium behind that queue fails, and says why
        unconverged = {q for q in joint.index if not bool(joint.loc[q, "converged"])}

        def no_ne(queues: Sequence[str]) -> str:
            bad = [LABELS[q] for q in queues if q in unconverged]
            return f"; no equilibrium (search not converged): {', '.join(bad)}" if bad else ""

        if "fqcodel" in joint.index:
            e = float(joint.loc["fqcodel", "efficiency"])
            out["akella.fqcodel_ne_efficient"] = (
                e >= EFFICIENT and "fqcodel" not in unconverged,
                f"goodput at the NE over the all-AIMD(1, 0.5) point's >= {EFFICIENT:g}: {_fmt(e)} "
                f"(NE ({_fmt(joint.loc['fqcodel', 'alpha_e'])}, "
                f"{_fmt(joint.loc['fqcodel', 'beta_e'])}))" + no_ne(["fqcodel"]),
            )
        per_flow = [q for q in PER_FLOW if q in joint.index]
        if "droptail" in joint.index and per_flow:
            dt = float(joint.loc["droptail", "loss"])
            out["akella.per_flow_tames_selfishness"] = (
                all(float(joint.loc[q, "loss"]) < dt for q in per_flow)
                and not unconverged & {"droptail", *per_flow},
                f"loss rate at the NE below Drop Tail's {_fmt(dt)}: "
                + ", ".join(f"{LABELS[q]} {_fmt(float(joint.loc[q, 'loss']))}" for q in per_flow)
                + no_ne(["droptail", *per_flow]),
            )
    if floyd is not None and not floyd.empty:
        m = floyd_conn0(floyd)
        per_flow = [q for q in PER_FLOW if q in set(m["gateway"])]
        if per_flow:
            low = {q: m[m["gateway"] == q].sort_values("conn0_pct").iloc[0] for q in per_flow}
            out["floyd.per_flow_keeps_conn0"] = (
                all(r["conn0_pct"] >= HALF_FAIR_PCT for r in low.values()),
                f"lowest share of connection 0 over n >= {HALF_FAIR_PCT:g} % of M: "
                + ", ".join(
                    f"{LABELS[q]} {_fmt(r['conn0_pct'])} % at n = {int(r['n'])}"
                    for q, r in low.items()
                ),
            )
        n = int(m["n"].max())
        top = dict(zip(m[m["n"] == n]["gateway"], m[m["n"] == n]["conn0_pct"], strict=True))
        aqm = [q for q in DELAY_AQM if q in top]
        if "red" in top and aqm:
            out["floyd.delay_aqm_keeps_bias"] = (
                all(abs(top[q] - top["red"]) <= SAME_AS_RED_PTS for q in aqm),
                f"connection 0 at n = {n} within {SAME_AS_RED_PTS:g} points of RED's "
                f"{_fmt(top['red'])} % of M: "
                + ", ".join(f"{LABELS[q]} {_fmt(top[q])} %" for q in aqm),
            )
    if gao is not None and not gao.empty:
        g = gao_x_fair(gao)
        per_flow = g[g["gateway"].isin(PER_FLOW)]
        if not per_flow.empty:
            out["gao.per_flow_polices_udp"] = (
                bool((per_flow["udp_x_fair"] <= POLICED_X_FAIR).all()),
                f"UDP throughput / fair rate <= {POLICED_X_FAIR:g}: "
                + "; ".join(
                    f"{r.scenario}, {LABELS[r.gateway]} {_fmt(r.udp_x_fair)}"
                    for r in per_flow.itertuples()
                ),
            )
        one_udp = g[g["scenario"].str.startswith("1 UDP") & g["gateway"].isin(DELAY_AQM)]
        if not one_udp.empty:
            out["gao.delay_aqm_does_not_police"] = (
                bool((one_udp["udp_x_fair"] > UNPOLICED_X_FAIR).all()),
                f"UDP throughput / fair rate in {one_udp['scenario'].iloc[0]} > "
                f"{UNPOLICED_X_FAIR:g}: "
                + ", ".join(
                    f"{LABELS[r.gateway]} {_fmt(r.udp_x_fair)}" for r in one_udp.itertuples()
                ),
            )
    return out


def conclusions(results: Mapping[str, tuple[bool, str]]) -> str:
    """The chapter's conclusions: for each computed claim the sentence written for its verdict
    (``BeyondClaim.if_holds`` or ``if_fails``), nothing else."""
    checked = [c for c in CLAIMS if c.key in results]
    if not checked:
        return "No claim of this chapter was checked: its experiments were not run."
    held = sum(results[c.key][0] for c in checked)
    parts = [
        f"Of the {len(checked)} claims checked, {held} hold (the table above gives each "
        "criterion and the values it read)."
    ]
    parts += [c.if_holds if results[c.key][0] else c.if_fails for c in checked]
    return " ".join(parts)


# ---- LaTeX --------------------------------------------------------------------------------

INTRO = (
    "Not in the papers. Each paper asks what happens when end hosts are selfish or "
    "unresponsive, and how much the router must do about it. Routers now ship CoDel (RFC 8289), "
    "PIE (RFC 8033) and FQ-CoDel (RFC 8290); SFQ and DRR are stock ns-2. We run the papers' "
    "stress tests against them: Floyd's multiple congested gateways and Gao et al.'s "
    "unresponsive UDP flows (Simulation 2) and Akella et al.'s TCP game (the SACK "
    "best-response searches). CoDel, FQ-CoDel and PIE are our ns-2 classes "
    "(patches 0014-0016), written from the RFCs; their parameters are the RFCs' defaults, "
    "listed with each paper's assumptions. The claims below are ours, not the papers'; each "
    "names the criterion that decides it, and none of them enters the diff against the papers."
)


def summary_tex(table: pd.DataFrame, fidelity: str) -> list[str]:
    """Floyd's and Gao et al.'s key number per queue (none: no lines)."""
    if table.empty:
        return []
    cols = [c for c in table.columns if c != "queue"]
    out = [
        r"\begin{table}[htbp]\centering\footnotesize",
        r"\begin{tabular}{@{}l" + "p{0.14\\linewidth}" * len(cols) + "@{}}",
        r"\toprule",
        "queue & " + " & ".join(tex_escape(c) for c in cols) + r" \\",
        r"\midrule",
    ]
    for r in table.itertuples(index=False):
        q = str(r[0])
        cells = ["--" if pd.isna(v) else _fmt(float(v)) for v in r[1:]]
        name = f"\\textbf{{{tex_escape(LABELS[q])}}}" if q in PER_FLOW else tex_escape(LABELS[q])
        out.append(name + " & " + " & ".join(cells) + r" \\")
    out += [
        r"\bottomrule",
        r"\end{tabular}",
        r"\caption{Today's queues under the papers' stress tests, made at "
        + tex_escape(fidelity)
        + r" fidelity (means over seeds). Bold: per-flow schedulers. Floyd: connection 0's "
        r"throughput with the most congested gateways (its max-min fair share is 50\,\% of the "
        r"link); Gao: each flow kind's throughput over its max-min fair rate (1: fair). "
        r"\emph{Made by rule \texttt{beyond}, script \texttt{analysis/beyond.py}.}}",
        r"\label{tab:beyond}",
        r"\end{table}",
        "",
    ]
    return out


def akella_tex(ne: pd.DataFrame, fidelity: str) -> list[str]:
    """Akella et al.'s game behind each queue: one row per SACK search."""
    if ne.empty:
        return []
    out = [
        r"\begin{longtable}{@{}llrrlrrrr@{}}",
        r"\caption{Akella et al.'s TCP game behind today's queues: the symmetric Nash "
        r"equilibrium of each SACK best-response search (the paper's rule, grids and runs per "
        r"point at " + tex_escape(fidelity) + r" fidelity) and, at that equilibrium, the goodput "
        r"per flow, the loss rate, the efficiency (total goodput over the all-AIMD(1, 0.5) "
        r"point's) and the mean queueing delay (smoothed RTT minus the base RTT). Drop Tail, "
        r"RED and CHOKe+ are the paper's searches. \emph{Made by rule \texttt{beyond}, script "
        r"\texttt{analysis/beyond.py}.}}\label{tab:beyond:akella}\\",
        r"\toprule queue & search & $\alpha_E$ & $\beta_E$ & conv. & goodput (Mb/s) & loss & "
        r"efficiency & delay (ms) \\ \midrule\endhead",
    ]
    order = {q: i for i, q in enumerate(LABELS)}
    modes = {"alpha": 0, "beta": 1, "joint": 2}
    ne = ne.assign(_q=ne["queue"].map(order), _m=ne["mode"].map(modes)).sort_values(["_q", "_m"])
    for r in ne.itertuples():
        q = str(r.queue)
        name = f"\\textbf{{{tex_escape(LABELS[q])}}}" if q in PER_FLOW else tex_escape(LABELS[q])
        out.append(
            f"{name} & {r.mode} & {_fmt(r.alpha_e)} & {_fmt(r.beta_e)} & "
            f"{'yes' if r.converged else 'no'} & {_fmt(r.goodput)} & {_fmt(r.loss)} & "
            f"{_fmt(r.efficiency)} & {_fmt(r.qdelay_ms)} \\\\"
        )
    out += [r"\bottomrule", r"\end{longtable}", ""]
    return out


def tex(
    table: pd.DataFrame,
    results: Mapping[str, tuple[bool, str]],
    figures: Sequence[str],
    fidelity: str,
    akella: pd.DataFrame | None = None,
) -> str:
    """The chapter: its introduction, the summary table, Akella et al.'s searches, the
    figures (``figures``: paths of their LaTeX snippets relative to paper/), the claims and
    the conclusions."""
    out = [
        r"\section{Beyond the papers: today's queues}\label{sec:beyond}",
        tex_escape(INTRO),
        "",
    ]
    ak = akella if akella is not None else pd.DataFrame()
    if table.empty and ak.empty:
        out += [
            r"\emph{Not made: the report has none of the papers whose scenarios this chapter "
            r"runs (floyd1991, gao, akella2002).}",
            "",
        ]
        return "\n".join(out)
    out += summary_tex(table, fidelity)
    out += akella_tex(ak, fidelity)
    out += [f"\\input{{{f}}}" for f in figures]
    out += [
        "",
        r"\subsection{Claims, computed}",
        r"\begin{longtable}{@{}p{0.4\linewidth}p{0.1\linewidth}p{0.44\linewidth}@{}}",
        r"\toprule claim & verdict & criterion and values \\ \midrule\endhead",
    ]
    for c in CLAIMS:
        res = results.get(c.key)
        if res is None:
            verdict, detail = r"\textit{not checked}", "its runs are not in this report"
        else:
            verdict = r"\textsc{holds}" if res[0] else r"\textbf{fails}"
            detail = res[1]
        out.append(
            f"{tex_escape(c.statement)} & {verdict} & {{\\footnotesize {tex_escape(detail)}}} \\\\"
        )
    out += [
        r"\bottomrule",
        r"\end{longtable}",
        "",
        r"\subsection{Conclusions}",
        tex_escape(conclusions(results)),
        "",
    ]
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Beyond the papers: today's queues (the chapter)")
    ap.add_argument("--fidelity", required=True)
    ap.add_argument("--floyd", type=Path, help="tidy table of floyd1991 aqm01")
    ap.add_argument("--gao", type=Path, help="tidy table of gao aqm01")
    ap.add_argument("--akella", type=Path, nargs="*", default=[], help="search records")
    ap.add_argument("--figure", action="append", default=[], help="LaTeX snippet to include")
    ap.add_argument("--tex", type=Path, required=True)
    ap.add_argument("--claims", type=Path, required=True)
    a = ap.parse_args(argv)
    floyd = pd.read_csv(a.floyd) if a.floyd else None
    gao = pd.read_csv(a.gao) if a.gao else None
    akella = akella_ne([json.loads(f.read_text()) for f in a.akella]) if a.akella else None
    results = claims(floyd, gao, akella)
    a.tex.parent.mkdir(parents=True, exist_ok=True)
    a.tex.write_text(tex(summary(floyd, gao), results, a.figure, a.fidelity, akella))
    write_claims(results, a.claims)
    return 0


if __name__ == "__main__":
    sys.exit(main())
