"""Akella et al. 2002: the sensitivity of the NE to the parameters the paper does not state
(config akella2002.sensitivity; analysis/akella2002_search.py sensitivity, analysis/akella2002.py
sensitivity_*). The configured design, bad configs refused, variant points kept apart from the
base set-up's, and every check and verdict computed on inputs that pass and inputs that fail."""

from __future__ import annotations

import copy
import dataclasses
import json

import pandas as pd
import pytest

from analysis import akella2002 as ak
from analysis import akella2002_search as aks
from analysis import config as conf
from tests.test_akella2002_analysis import PUB, ne_doc


def doc(name: str, ae: float, be: float, goodput: float, loss: float, d_goodput: float = 0.98):
    """A finished search record as the sensitivity table reads it."""
    base, _, variant = name.partition(aks.VARIANT_SEP)
    d = ne_doc(base, ae, be, goodput, loss, d_goodput)
    tcp, queue, _ = base.split("_", 2)
    return {**d, "search": name, "tcp": tcp, "queue": queue, "converged": True, "runs": 100}


def sens(values: dict[str, str], explains: dict | None = None, searches=None) -> aks.Sensitivity:
    """A design by hand: value name -> parameter; every parameter applies to every queue."""
    queues = ("droptail", "red", "chokeplus")
    prms = {p: (p, "ours", queues, aks.MODES) for p in set(values.values())}
    vals = tuple(aks.SensValue(p, v, v, (("min_rto", 1.0),), "r") for v, p in values.items())
    names = tuple(searches or ak.CONCLUSIONS)
    return aks.Sensitivity(names, prms, vals, explains or {})


# ---------------------------------------------------------------------------------------------
# the configured design
# ---------------------------------------------------------------------------------------------


def test_the_configured_design(cfg: dict) -> None:
    """Quick: 7 searches x (2 RTT + 2 buffer + 1 RTO) + the 2 beta searches x 1 stock
    decrease (the 5 alpha searches keep beta = 0.5, where it changes nothing) + the 4
    RED/CHOKe+ searches x 2 RED pairs = 45 variant searches; smoke: the searches smoke makes
    under two values; paper: as quick."""
    quick = aks.study(cfg, "quick")
    variants = [s for s in quick.searches.values() if s.variant]
    assert len(variants) == 7 * 5 + 2 + 4 * 2
    assert sorted(s.name for s in variants if s.variant == "stockdec") == [
        "reno_droptail_beta@stockdec", "sack_chokeplus_beta@stockdec"
    ]  # fmt: skip
    # (the other variants are the plain-CHOKe sweeps' points: n, the CHOKe knobs and, for
    # the sweeps under other RTTs, the network; their names list the knobs in order)
    assert sorted(v for v in quick.variants if "choke_k-1" not in v) == [
        "buf300",
        "buf75",
        "red15",
        "red50",
        "rto1",
        "rtt200",
        "rtt40",
        "stockdec",
    ]
    assert quick.variants["stockdec"] == {"always_decrease": False}
    assert "reno_droptail_alpha@red15" not in quick.searches  # RED values: RED and CHOKe+ only
    smoke = aks.study(cfg, "smoke")
    assert sorted(s for s in smoke.searches if "@" in s) == [
        "sack_chokeplus_alpha@red15", "sack_chokeplus_alpha@rtt40",
        "sack_chokeplus_beta@red15", "sack_chokeplus_beta@rtt40", "sack_droptail_alpha@rtt40",
    ]  # fmt: skip
    # paper: every tested value too (the unstated-parameter diagnoses' checks at paper)
    paper = [s for s in aks.study(cfg, "paper").searches if "@" in s]
    assert sorted(paper) == sorted(s for s in quick.searches if "@" in s)


def test_variant_points_live_apart_with_their_parameters(cfg: dict) -> None:
    st = aks.study(cfg, "quick")
    spec = st.searches["reno_red_alpha@rto1"]
    assert (spec.variant, spec.tcp, spec.queue) == ("rto1", "reno", "red")
    _, p = spec.points(1, spec.start)[0]
    assert p.variant == "rto1"
    assert st.point_dir(p).startswith("results/akella2002/points/quick/var/rto1/reno_red/")
    assert "min_rto=1 " in st.point_args(p) and "min_rto=0.2" not in st.point_args(p)
    base = aks.Point("reno", "red", p.alpha, p.beta, p.alpha_n, p.beta_n)
    assert "min_rto=0.2 " in st.point_args(base) and p != base
    rtt = st.point_args(aks.Point("sack", "red", 1, 0.5, 1, 0.5, "rtt40"))
    assert "delay=0.01 " in rtt and "buffer=50 " in rtt and "red_thresh=8.33 " in rtt


def test_base_search_params_are_unchanged_by_variants(cfg: dict) -> None:
    """A base search's params (a Snakemake params trigger) carry no variant: adding the
    sensitivity reruns none of the existing searches."""
    st = aks.study(cfg, "quick")
    base = aks.search_params(st, "sack_red_alpha")
    assert "variant" not in base["spec"] and base["base"] == st.base
    var = aks.search_params(st, "sack_red_alpha@red50")
    assert var["spec"]["variant"] == "red50"
    assert var["base"]["red_thresh"] == 50 and var["base"]["red_maxthresh"] == 100
    one = aks.study_of_params(json.loads(json.dumps(var)))
    spec = one.searches["sack_red_alpha@red50"]
    assert one.point_dir(spec.points(1, spec.start)[0][1]).startswith(
        "results/akella2002/points/quick/var/red50/"
    )
    assert aks.study_of_params(base).searches["sack_red_alpha"].variant == ""


def _sens(c: dict) -> dict:
    return c["akella2002"]["sensitivity"]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda s: s["parameters"]["rtt"]["values"]["rtt40"]["set"].update(bw=5000000),
         "bw is stated by the paper"),
        (lambda s: s["parameters"]["rtt"]["values"]["rtt40"]["set"].update(rtt=0.04),
         r"set.rtt': no such parameter"),
        (lambda s: s["parameters"]["rtt"]["values"]["rtt40"]["set"].update(delay="short"),
         "has the wrong type"),
        (lambda s: s["parameters"]["rtt"]["values"].update(
            {"RTT_40": {"label": "x", "set": {"delay": 0.01}, "reason": "x"}}),
         "lower-case letters and digits"),
        (lambda s: s["parameters"]["rtt"]["values"]["rtt40"].pop("reason"),
         r"must be \{label, set"),
        (lambda s: s["parameters"]["buffer"]["values"].update(
            {"rtt40": {"label": "x", "set": {"buffer": 10}, "reason": "x"}}),
         "used twice"),
        (lambda s: s.update(searches=["sack_droptail_alpha", "fig10a"]),
         "names 'fig10a', which is no search"),
        (lambda s: s["explains"].update({"fig8a.sack_red.alpha_e": ["red", "pkt"]}),
         "names 'pkt', which is no sensitivity parameter"),
        (lambda s: s["fidelity"].update(smoke={"values": ["rtt41"]}),
         "names 'rtt41', no such value"),
        (lambda s: s.update(colour="red"), "unknown key"),
        (lambda s: s["parameters"]["decrease"].update(modes=["beta", "gamma"]),
         r"modes' = \['beta', 'gamma'\]: a non-empty list of alpha, beta, joint"),
        (lambda s: s["parameters"]["decrease"].update(modes=[]), "a non-empty list"),
    ],
)  # fmt: skip
def test_bad_sensitivity_configs(cfg: dict, edit, message: str) -> None:
    c = copy.deepcopy(cfg)
    edit(_sens(c))
    with pytest.raises(conf.ConfigError, match=message):
        aks.study(c, "quick")


# ---------------------------------------------------------------------------------------------
# the checks and verdicts
# ---------------------------------------------------------------------------------------------


def test_a_check_holds_only_under_every_tested_value() -> None:
    """Observation 1 under two RTTs: aggressive and undesirable under both holds; one tested
    value with alpha_E = 1 fails it; a missing variant search gives no check."""
    s = sens({"a": "rtt", "b": "rtt"}, searches=["sack_droptail_alpha"])
    aggressive = doc("sack_droptail_alpha", 40, 0.5, 0.80, 0.20)
    docs = {
        "sack_droptail_alpha": aggressive,
        "sack_droptail_alpha@a": doc("sack_droptail_alpha@a", 30, 0.5, 0.82, 0.15),
        "sack_droptail_alpha@b": doc("sack_droptail_alpha@b", 25, 0.5, 0.85, 0.10),
    }
    ok, detail = ak.sensitivity_checks(s, docs)["sens.sack_droptail_alpha.rtt"]
    assert ok and detail.count("holds") == 3
    docs["sack_droptail_alpha@b"] = doc("sack_droptail_alpha@b", 1, 0.5, 0.98, 0.004)
    ok, detail = ak.sensitivity_checks(s, docs)["sens.sack_droptail_alpha.rtt"]
    assert not ok and "b: fails" in detail
    # the default failing fails the check too
    docs["sack_droptail_alpha@b"] = doc("sack_droptail_alpha@b", 25, 0.5, 0.85, 0.10)
    docs["sack_droptail_alpha"] = doc("sack_droptail_alpha", 1, 0.5, 0.98, 0.004)
    assert not ak.sensitivity_checks(s, docs)["sens.sack_droptail_alpha.rtt"][0]
    del docs["sack_droptail_alpha@b"]
    assert ak.sensitivity_checks(s, docs) == {}


def test_a_parameter_checks_only_the_queues_it_applies_to() -> None:
    s = sens({"r": "red"}, searches=["reno_droptail_alpha", "reno_red_alpha"])
    s = aks.Sensitivity(s.searches, {"red": ("red", "ours", ("red",), aks.MODES)}, s.values, {})
    docs = {
        n: doc(n, a, 0.5, g, loss)
        for n, a, g, loss in [
            ("reno_droptail_alpha", 1, 0.98, 0.01), ("reno_droptail_alpha@r", 1, 0.98, 0.01),
            ("reno_red_alpha", 30, 0.70, 0.06), ("reno_red_alpha@r", 12, 0.97, 0.02),
        ]
    }  # fmt: skip
    checks = ak.sensitivity_checks(s, docs)
    assert list(checks) == ["sens.reno_red_alpha.red"]
    assert not checks["sens.reno_red_alpha.red"][0]  # not undesirable at the tested pair
    # ... and only the searches of the modes it applies to (beta, joint: none of these)
    s = aks.Sensitivity(
        s.searches, {"red": ("red", "ours", ("red",), ("beta", "joint"))}, s.values, {}
    )
    assert ak.sensitivity_checks(s, docs) == {}
    spec = aks.SearchSpec(
        "reno_red_alpha", "alpha", "reno", "red", (1, 0.5), 0.85, 50, 0, 0.5, 0.99, "r1", 10
    )
    assert not s.applies(s.values[0], spec)
    assert s.applies(s.values[0], dataclasses.replace(spec, mode="beta"))


def test_off_rows_fixed_or_not_by_a_tested_value() -> None:
    """Reno/RED alpha_E: published 9; ours 30 is off. A tested RTO that gives 9 brings it
    within tolerance, a RED pair that gives 25 does not; the sentence says which."""
    s = sens({"rto1": "min_rto", "red15": "red"}, {"fig9a.reno_red.alpha_e": ("min_rto", "red")})
    docs = {
        "reno_red_alpha": doc("reno_red_alpha", 30, 0.5, 0.70, 0.06),
        "reno_red_alpha@rto1": doc("reno_red_alpha@rto1", 9, 0.5, 0.90, 0.017),
        "reno_red_alpha@red15": doc("reno_red_alpha@red15", 25, 0.5, 0.75, 0.05),
    }
    rows = ak.sensitivity_explains(s, docs, PUB)
    (r,) = rows.to_dict("records")
    assert (r["verdict"], r["fixed_by"], r["n_tested"]) == ("off", "rto1", 2)
    assert "comes within tolerance under rto1" in ak.sensitivity_summary(rows)
    docs["reno_red_alpha@rto1"] = doc("reno_red_alpha@rto1", 28, 0.5, 0.72, 0.06)
    rows = ak.sensitivity_explains(s, docs, PUB)
    assert rows.loc[0, "fixed_by"] == ""
    assert "stays off under every tested value" in ak.sensitivity_summary(rows)
    with pytest.raises(ValueError, match="no published NE number"):
        ak.sensitivity_explains(sens({"a": "rtt"}, {"fig5b.x": ("rtt",)}), docs, PUB)


def test_published_keys_map_back_to_their_search() -> None:
    for figure, modes in ak.PUBLISHED.items():
        tcp, queue = ak.NE_FIGURES[figure]
        for mode, metrics in modes.items():
            for m in metrics:
                key = ak.number_key(figure, mode, m)
                assert ak.published_search(key) == (f"{tcp}_{queue}_{mode}", m)


def test_the_table_and_figure_render() -> None:
    from analysis.plots import akella2002 as plots

    s = sens({"rto1": "min_rto"}, {"fig9a.reno_red.alpha_e": ("min_rto",)}, ["reno_red_alpha"])
    docs = {
        "reno_red_alpha": doc("reno_red_alpha", 30, 0.5, 0.70, 0.06),
        # not undesirable: the default profile's goodput is no higher, the loss not high
        "reno_red_alpha@rto1": doc("reno_red_alpha@rto1", 9, 0.5, 0.90, 0.017, 0.90),
    }
    rows = ak.sensitivity_rows(s, docs, PUB)
    assert list(rows["value"]) == ["", "rto1"] and list(rows["published"]) == [9.0, 9.0]
    assert list(rows["holds"]) == [True, False]
    checks = ak.sensitivity_checks(s, docs)
    tex = plots.sensitivity_tex(s, rows, checks, ak.sensitivity_explains(s, docs, PUB), "FIG")
    assert r"\hspace{0pt}reno\_red\_alpha & \hspace{0pt}min\_rto & rto1 & 9 & 0.5 & 0.900 &" in tex
    assert r"\texttt{sens.reno\_red\_alpha.min\_rto}: \textbf{fails}" in tex
    assert tex.rstrip().endswith("FIG")
    plots.sensitivity_figure(rows)


def test_the_check_of_an_unstated_parameter_diagnosis() -> None:
    """The check of an ``explains`` row: its value under the tested value nearest the published
    number. SACK/RED alpha_E, published 49 (rel 0.25: 36.75..61.25); ours 70 is off. Tested
    RED pairs giving 64 and 20: the nearest is 64, still off, so the diagnosis's criterion
    (reproduces) fails; with 58 instead of 64 it holds. No tested value: no check."""
    from analysis import diagnosis as dg
    from analysis.compare import verdict

    key = "fig8a.sack_red.alpha_e"
    s = sens({"red15": "red", "red50": "red"}, {key: ("red",)}, ["sack_red_alpha"])
    diag = {
        d.key: d for d in dg.load(conf.ROOT / "config" / "diagnoses" / "akella2002.yaml", list(PUB))
    }[key]
    assert diag.check == ak.sensitivity_check_key(key)

    def run(tested: float) -> tuple[float, str]:
        docs = {
            "sack_red_alpha": doc("sack_red_alpha", 70, 0.5, 0.80, 0.08),
            "sack_red_alpha@red15": doc("sack_red_alpha@red15", tested, 0.5, 0.8, 0.08),
            "sack_red_alpha@red50": doc("sack_red_alpha@red50", 20, 0.5, 0.9, 0.03),
        }
        values = ak.sensitivity_check_values(ak.sensitivity_explains(s, docs, PUB))
        v = values[diag.check]
        return v, dg.check_outcome(diag, lambda t: verdict(PUB[key], t), repr(v))

    assert run(64) == (64, dg.FAILS)
    assert run(58) == (58, dg.HOLDS)
    alone = {"sack_red_alpha": doc("sack_red_alpha", 70, 0.5, 0.80, 0.08)}
    assert ak.sensitivity_check_values(ak.sensitivity_explains(s, alone, PUB)) == {}
    assert ak.sensitivity_check_values(pd.DataFrame()) == {}


def test_every_explained_row_has_its_unstated_parameter_diagnosis(cfg: dict) -> None:
    """config akella2002.sensitivity.explains and config/diagnoses/akella2002.yaml agree: each
    row blamed on unstated parameters has an unstated-parameter diagnosis whose check is the
    one sensitivity_check_values writes, and no other diagnosis names such a check."""
    from analysis import diagnosis as dg

    diags = dg.load(conf.ROOT / "config" / "diagnoses" / "akella2002.yaml", list(PUB))
    explains = cfg["akella2002"]["sensitivity"]["explains"]
    named = {d.key for d in diags if d.check == ak.sensitivity_check_key(d.key)}
    assert named == set(explains)
    assert all(d.kind == "unstated-parameter" for d in diags if d.key in explains)
