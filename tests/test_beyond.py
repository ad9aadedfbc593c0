"""The chapter beyond the papers (analysis/beyond.py): its summary numbers by hand, and every
claim with an input that holds it and one that fails it."""

from __future__ import annotations

import pandas as pd
import pytest

from analysis import beyond


def floyd(shares: dict[str, dict[int, list[float]]]) -> pd.DataFrame:
    """Floyd aqm01 tidy rows: gateway -> n -> connection 0's share (% of M) per seed."""
    rows = [
        {"gateway": gw, "tcp": "sack", "n": n, "seed": s + 1, "conn0_pct": v, "conn1_pct": 50.0}
        for gw, by_n in shares.items()
        for n, vals in by_n.items()
        for s, v in enumerate(vals)
    ]
    return pd.DataFrame(rows)


def gao(x: dict[tuple[str, str], tuple[float, float]]) -> pd.DataFrame:
    """Gao aqm01 tidy rows: (scenario, gateway) -> (UDP, TCP) multiple of the fair rate."""
    rows = [
        {
            "scenario": sc,
            "gateway": gw,
            "tcp": "sack",
            "seed": 1,
            "link_mbps": 2.0,
            "udp_x_fair": u,
            "tcp_x_fair": t,
        }
        for (sc, gw), (u, t) in x.items()
    ]
    return pd.DataFrame(rows)


FAIR_FLOYD = floyd(
    {
        "red": {1: [48.0], 10: [2.0, 4.0]},  # mean at n = 10: 3
        "codel": {1: [45.0], 10: [1.0]},
        "pie": {1: [44.0], 10: [6.0]},
        "drr": {1: [50.0], 10: [40.0, 30.0]},  # mean 35
        "fqcodel": {1: [49.0], 10: [26.0]},
    }
)


def test_summary_by_hand() -> None:
    t = beyond.summary(FAIR_FLOYD, gao({("1 UDP, 32 TCP", "drr"): (1.5, 0.9)}))
    assert list(t["queue"]) == ["red", "codel", "pie", "drr", "fqcodel"]  # the labels' order
    col = "Floyd: connection 0 at n = 10 (% of M)"
    assert t.set_index("queue").loc["red", col] == pytest.approx(3.0)
    assert t.set_index("queue").loc["drr", col] == pytest.approx(35.0)
    assert t.set_index("queue").loc["drr", "Gao, 1 UDP, 32 TCP: UDP / fair"] == 1.5
    # a queue without a Gao run has no value there
    assert pd.isna(t.set_index("queue").loc["red", "Gao, 1 UDP, 32 TCP: UDP / fair"])


def test_per_flow_keeps_conn0() -> None:
    holds, detail = beyond.claims(FAIR_FLOYD, None)["floyd.per_flow_keeps_conn0"]
    assert holds and "FQ-CoDel 26 % at n = 10" in detail
    starved = floyd({"fqcodel": {1: [49.0], 10: [24.9]}, "drr": {10: [40.0]}})
    holds, detail = beyond.claims(starved, None)["floyd.per_flow_keeps_conn0"]
    assert not holds and "FQ-CoDel 24.9 %" in detail


def test_delay_aqm_keeps_bias() -> None:
    # RED 3, CoDel 1, PIE 6: both within 5 points
    assert beyond.claims(FAIR_FLOYD, None)["floyd.delay_aqm_keeps_bias"][0]
    better = floyd({"red": {10: [3.0]}, "codel": {10: [1.0]}, "pie": {10: [8.5]}})
    holds, detail = beyond.claims(better, None)["floyd.delay_aqm_keeps_bias"]
    assert not holds and "PIE 8.5 %" in detail
    # without RED there is nothing to compare with: not checked
    assert "floyd.delay_aqm_keeps_bias" not in beyond.claims(floyd({"pie": {10: [1.0]}}), None)


def test_per_flow_polices_udp() -> None:
    ok = gao({("1 UDP, 32 TCP", "fqcodel"): (1.9, 1.0), ("10 UDP, 10 TCP", "sfq"): (2.0, 0.8)})
    assert beyond.claims(None, ok)["gao.per_flow_polices_udp"][0]
    bad = gao({("1 UDP, 32 TCP", "fqcodel"): (1.0, 1.0), ("10 UDP, 10 TCP", "sfq"): (2.1, 0.8)})
    holds, detail = beyond.claims(None, bad)["gao.per_flow_polices_udp"]
    assert not holds and "10 UDP, 10 TCP, SFQ 2.1" in detail


def test_delay_aqm_does_not_police() -> None:
    hog = gao({("1 UDP, 32 TCP", "codel"): (30.0, 0.06), ("1 UDP, 32 TCP", "pie"): (5.1, 0.5)})
    assert beyond.claims(None, hog)["gao.delay_aqm_does_not_police"][0]
    policed = gao({("1 UDP, 32 TCP", "codel"): (30.0, 0.06), ("1 UDP, 32 TCP", "pie"): (4.9, 1)})
    holds, detail = beyond.claims(None, policed)["gao.delay_aqm_does_not_police"]
    assert not holds and "PIE 4.9" in detail
    # only Simulation 2.1's set-up (one UDP flow) decides it
    other = gao({("10 UDP, 10 TCP", "codel"): (2.0, 0.01)})
    assert "gao.delay_aqm_does_not_police" not in beyond.claims(None, other)


def test_conclusions_only_from_the_claims() -> None:
    results = {"gao.per_flow_polices_udp": (False, "SFQ 2.1")}
    text = beyond.conclusions(results)
    claim = next(c for c in beyond.CLAIMS if c.key == "gao.per_flow_polices_udp")
    assert text.startswith("Of the 1 claims checked, 0 hold")
    assert claim.if_fails in text and claim.if_holds not in text
    held = beyond.conclusions({"gao.per_flow_polices_udp": (True, "SFQ 1.2")})
    assert "Of the 1 claims checked, 1 hold" in held and claim.if_holds in held
    assert claim.if_fails not in held
    assert "No claim" in beyond.conclusions({})


def test_every_claim_has_both_conclusions() -> None:
    for c in beyond.CLAIMS:
        assert c.if_holds.endswith(".") and c.if_fails.endswith(".")
        assert c.if_holds != c.if_fails


def test_chapter_without_its_papers() -> None:
    text = beyond.tex(beyond.summary(None, None), {}, [], "smoke")
    assert "Not made" in text and "longtable" not in text


def test_chapter_lists_every_claim(tmp_path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "floyd.csv"
    FAIR_FLOYD.to_csv(f, index=False)
    out, claims = tmp_path / "beyond.tex", tmp_path / "claims.csv"
    assert beyond.main(["--fidelity", "quick", "--floyd", str(f), "--figure", "generated/x.tex",
                        "--tex", str(out), "--claims", str(claims)]) == 0  # fmt: skip
    text = out.read_text()
    assert "\\input{generated/x.tex}" in text
    assert text.count("not checked") == 4  # Gao's and Akella's two claims each: no runs
    assert claims.read_text().splitlines()[0] == "key,holds,detail"


def record(
    queue: str, mode: str, goodput: float, loss: float, srtt: float = 0.13, converged: bool = True
) -> dict:
    """A search record as analysis.akella2002_search writes it (the fields read here)."""
    return {
        "search": f"sack_{queue}_{mode}",
        "queue": queue,
        "mode": mode,
        "alpha_e": 2.0,
        "beta_e": 0.6,
        "converged": converged,
        "params": {"delay": 0.05, "access_delay": 0.005},
        "ne": {"goodput": goodput, "loss": loss, "srtt": srtt},
        "start_profile": {"goodput": 1.0, "loss": 0.01, "srtt": 0.125},
    }


def test_akella_ne_by_hand() -> None:
    ne = beyond.akella_ne([record("fqcodel", "joint", 0.95, 0.02, srtt=0.135)])
    r = ne.iloc[0]
    assert r["efficiency"] == pytest.approx(0.95)  # 0.95 / 1.0
    # base RTT 2 x (50 + 2 x 5) ms = 120 ms: 135 - 120
    assert r["qdelay_ms"] == pytest.approx(15.0)


def test_fqcodel_ne_efficient() -> None:
    ok = beyond.akella_ne([record("fqcodel", "joint", 0.9, 0.02)])
    assert beyond.claims(None, None, ok)["akella.fqcodel_ne_efficient"][0]
    bad = beyond.akella_ne([record("fqcodel", "joint", 0.89, 0.02)])
    holds, detail = beyond.claims(None, None, bad)["akella.fqcodel_ne_efficient"]
    assert not holds and "0.89" in detail
    # the alpha search does not decide it: the joint search's NE does
    alpha_only = beyond.akella_ne([record("fqcodel", "alpha", 0.5, 0.02)])
    assert "akella.fqcodel_ne_efficient" not in beyond.claims(None, None, alpha_only)


def test_per_flow_tames_selfishness() -> None:
    dt = record("droptail", "joint", 0.96, 0.18)
    ok = beyond.akella_ne([dt, record("drr", "joint", 0.96, 0.05), record("sfq", "joint", 1, 0.1)])
    assert beyond.claims(None, None, ok)["akella.per_flow_tames_selfishness"][0]
    bad = beyond.akella_ne([dt, record("drr", "joint", 0.96, 0.05), record("sfq", "joint", 1, 0.2)])
    holds, detail = beyond.claims(None, None, bad)["akella.per_flow_tames_selfishness"]
    assert not holds and "SFQ 0.2" in detail
    # without the paper's Drop Tail search there is nothing to compare with
    alone = beyond.akella_ne([record("drr", "joint", 0.96, 0.05)])
    assert "akella.per_flow_tames_selfishness" not in beyond.claims(None, None, alone)


def test_chapter_with_akella_only() -> None:
    ne = beyond.akella_ne([record("fqcodel", "joint", 0.95, 0.02)])
    text = beyond.tex(beyond.summary(None, None), {}, [], "quick", ne)
    assert "tab:beyond:akella" in text and "Not made" not in text
    assert "\\textbf{FQ-CoDel} & joint & 2 & 0.6 & yes & 0.95 & 0.02 & 0.95 & 10" in text


def test_an_unconverged_search_decides_no_akella_claim() -> None:
    """A search stopped at its cap found no equilibrium: the claims about it fail, saying so,
    whatever its last pick's numbers."""
    cycling = beyond.akella_ne([record("fqcodel", "joint", 0.99, 0.02, converged=False)])
    holds, detail = beyond.claims(None, None, cycling)["akella.fqcodel_ne_efficient"]
    assert not holds and "not converged): FQ-CoDel" in detail
    dt = record("droptail", "joint", 0.96, 0.18)
    sfq = record("sfq", "joint", 1, 0.01, converged=False)
    holds, detail = beyond.claims(None, None, beyond.akella_ne([dt, sfq]))[
        "akella.per_flow_tames_selfishness"
    ]
    assert not holds and "not converged): SFQ" in detail
