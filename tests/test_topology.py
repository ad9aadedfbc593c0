"""Network diagrams: the run's recorded network (tcl/lib experiment::topology_tables) and the layout
drawn from it (analysis/plots/topology.py), against networks small enough to check by hand."""

from pathlib import Path

import pandas as pd
import pytest

from analysis import config as conf
from analysis import nsio, nsrun
from analysis.plots import topology as topo


def _links(rows: list[tuple[int, int, float, float, str, int]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["from", "to", "bw", "delay", "queue", "limit"])


def _duplex(a: int, b: int, bw: float = 1e9, q: str = "Queue/DropTail", limit: int = 100):
    return [(a, b, bw, 0.001, q, limit), (b, a, bw, 0.001, "Queue/DropTail", limit)]


def _agents(rows: list[tuple[int, str, int, int]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["node", "class", "fid", "dst"])


@pytest.fixture
def chain3() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Routers 10 - 11 - 12; hosts 0, 1 -> 12's host 3, host 2 at 11 -> host 4 at 12.
    Flows: fids 1, 2 (Sack1) 0 -> 3 and 1 -> 3 over both links; fid 3 (UDP) 2 -> 4 over one."""
    links = _links(
        [
            *_duplex(10, 11, 10e6, "Queue/RED", 50),
            *_duplex(11, 12, 5e6, "Queue/DropTail", 20),
            *_duplex(0, 10),
            *_duplex(1, 10),
            *_duplex(2, 11),
            *_duplex(12, 3),
            *_duplex(12, 4),
        ]
    )
    agents = _agents(
        [
            (0, "Agent/TCP/Sack1", 1, 3),
            (1, "Agent/TCP/Sack1", 2, 3),
            (2, "Agent/UDP", 3, 4),
            (3, "Agent/TCPSink/Sack1", 0, 0),
            (3, "Agent/TCPSink/Sack1", 0, 1),
            (4, "Agent/Null", 0, 2),
        ]
    )
    return links, agents


def test_bfs_path_is_a_shortest_path() -> None:
    adj = {0: [1, 3], 1: [0, 2], 2: [1, 3], 3: [0, 2]}  # a square
    assert topo.bfs_path(adj, 0, 2) == [0, 1, 2]  # two hops; the lower id first on ties
    assert topo.bfs_path(adj, 0, 0) == [0]
    with pytest.raises(ValueError, match="not reachable"):
        topo.bfs_path({0: [1], 1: [0], 5: []}, 0, 5)


def test_senders_drop_sinks(chain3) -> None:
    _, agents = chain3
    assert list(topo.senders(agents)["fid"]) == [1, 2, 3]


def test_layout_chain_and_groups(chain3) -> None:
    links, agents = chain3
    lay = topo.layout(links, agents)
    assert lay.chain == [10, 11, 12]
    assert [(g.first, g.last, g.agent, g.count, g.fids) for g in lay.groups] == [
        (0, 2, "Agent/TCP/Sack1", 2, (1, 2)),
        (1, 2, "Agent/UDP", 1, (3,)),
    ]
    # every link 1 ms each way: 4 hops host-to-host = 8 ms round trip, 3 hops = 6 ms
    assert lay.groups[0].rtt == pytest.approx((0.008, 0.008))
    assert lay.groups[1].rtt == pytest.approx((0.006, 0.006))
    assert topo._rtt(lay.groups[0].rtt) == "8 ms" and topo._rtt((0.1, 0.12)) == "100-120 ms"


def test_layout_follows_the_data(chain3) -> None:
    """The same flows sent from the hosts at router 12 to router 10: the chain turns round."""
    links, _ = chain3
    agents = _agents(
        [
            (3, "Agent/TCP/Sack1", 1, 0),
            (4, "Agent/TCP/Sack1", 2, 1),
            (3, "Agent/UDP", 3, 2),
            (0, "Agent/TCPSink/Sack1", 0, 3),
        ]
    )
    lay = topo.layout(links, agents)
    assert lay.chain == [12, 11, 10]
    assert [(g.first, g.last, g.agent, g.count, g.fids) for g in lay.groups] == [
        (0, 2, "Agent/TCP/Sack1", 2, (1, 2)),
        (0, 1, "Agent/UDP", 1, (3,)),
    ]


def test_rows_pack_disjoint_spans() -> None:
    g = [
        topo.Group(0, 4, "a", 1, (0,)),  # the long flow: nearest the chain
        topo.Group(0, 1, "a", 1, (1,)),
        topo.Group(2, 3, "a", 1, (2,)),  # disjoint from the one before: same row
        topo.Group(1, 2, "a", 1, (3,)),  # overlaps both: a row of its own
    ]
    assert topo.rows(g) == [0, 1, 1, 2]


def test_labels(chain3) -> None:
    links, _ = chain3
    assert topo.link_label(links, 10, 11) == "10 Mb/s\n1 ms\nRED, 50 pkts"
    assert topo.link_label(links, 11, 12) == "5 Mb/s\n1 ms\nDropTail, 20 pkts"
    assert topo.access_summary(links, [10, 11, 12]) == (
        "access links (5 hosts' duplex links): 1 Gb/s, 1 ms"
    )
    assert topo._fids((1, 2, 3)) == "fids 1-3" and topo._fids((1, 3)) == "fids 1,3"


def test_read_network_names_what_is_missing(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="topology_links, topology_agents"):
        topo.read_network(tmp_path)


def test_a_run_records_its_network(ns_binary: Path, cfg: dict, tmp_path: Path) -> None:
    """Floyd's network with n = 2: 4 gateways in a chain (2 congested links and the link
    between them), 3 connections, each with a source and a sink host."""
    p = dict(conf.runs(cfg, "floyd1991", "fig03", "smoke")[0].params)
    p.update(n=2, duration=2, period=1)
    out = tmp_path / "run"
    summary = nsrun.run(ns_binary, conf.tcl_script("floyd1991", "gateways"), out, p)
    assert {"topology_links", "topology_agents"} <= set(summary["tables"])
    links, agents = topo.read_network(out)
    gw = links[links["queue"] == "Queue/RED"]
    assert len(gw) == 2 and set(gw["bw"]) == {p["gw_bw"]} and set(gw["limit"]) == {p["gw_buffer"]}
    assert len(links) == 2 * (3 + 2 * 3)  # 3 gateway links + 6 access links, both ways
    lay = topo.layout(links, agents)
    assert len(lay.chain) == 4
    assert sorted((g.first, g.last, g.count) for g in lay.groups) == [
        (0, 1, 1),
        (0, 3, 1),
        (2, 3, 1),
    ]
    # connection 0 crosses both congested gateways: the longest round trip
    long = next(g for g in lay.groups if (g.first, g.last) == (0, 3))
    assert all(long.rtt[0] > g.rtt[1] for g in lay.groups if g is not long)
    assert nsio.read_table(out / "topology_agents.tsv")["class"].str.startswith("Agent/").all()
