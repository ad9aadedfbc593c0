# Fetch Debian's ns2 source, apply ns2-patches/series, build build/ns2/bin/ns.
# Inputs are the checksum file, the series and every patch: editing a patch rebuilds ns.
import re

_SRC = dict(
    l.split("=", 1)
    for l in Path("ns2-patches/SOURCE").read_text().splitlines()
    if re.match(r"^[a-z0-9]+=", l)
)
NS_TARBALL = f"build/download/{_SRC['file']}"
NS = "build/ns2/bin/ns"
# The binary's identity: a hash of its bytes, written only when it changes (Snakemake still
# touches it after every build). Simulations depend on it (ns_id), not on the binary's
# time: ns.id is small enough for Snakemake to compare its content with what each run's job
# recorded, so a byte-identical rebuild (or a patch edit that changes no code) reruns
# nothing. The binary itself is an ancient() input: it must exist, its time never counts.
NS_ID = NS + ".id"
NS_INPUT = ancient(NS)


def ns_id(wildcards) -> str:
    """ns.id as a simulation's input, through the build checkpoint: Snakemake looks at it
    again after a build, so a rebuild that leaves it unchanged reruns no simulation even in
    the same invocation (a plain input would plan them all before the build)."""
    return checkpoints.build_ns.get().output.id


NS_PATCHES = [
    f"ns2-patches/{l.strip()}"
    for l in Path("ns2-patches/series").read_text().splitlines()
    if l.strip() and not l.startswith("#")
]


NS_FETCH = ["ns2-patches/SOURCE", "scripts/fetch-ns2.sh"]
NS_BUILD_SCRIPTS = ["scripts/build-ns2.sh", "scripts/ns2-prefix.sh"]
# ns as built from source (Debian's tarball aside): what another machine's runs share with
# ours, and so part of the provenance of a bundle's jobs (rules/bundle.smk)
NS_SOURCE = [*NS_FETCH, "ns2-patches/series", *NS_PATCHES, *NS_BUILD_SCRIPTS]


rule ns2_fetch:
    input:
        NS_FETCH,
    output:
        NS_TARBALL,
    log:
        "build/ns2/fetch.log",
    benchmark:
        "benchmarks/ns2_fetch.tsv"
    shell:
        "scripts/fetch-ns2.sh build/download > {log} 2>&1 || {{ cat {log} >&2; exit 1; }}"


checkpoint build_ns:
    input:
        tarball=NS_TARBALL,
        source="ns2-patches/SOURCE",
        series="ns2-patches/series",
        patches=NS_PATCHES,
        scripts=NS_BUILD_SCRIPTS,
    output:
        ns=NS,
        id=update(NS_ID),  # kept (and restored if the build fails); written only on change
    # ns.build_jobs: make -j (threads, not params: a change rebuilds nothing)
    threads: config["ns"]["build_jobs"]
    log:
        "build/ns2/build.log",
    benchmark:
        "benchmarks/build_ns.tsv"
    shell:
        """
        scripts/build-ns2.sh {input.tarball} build/ns2 {output.ns} {threads} > {log} 2>&1 \
            || {{ tail -25 {log} >&2; exit 1; }}
        tail -1 {log}
        id=$(sha256sum {output.ns} | cut -c1-16)
        if [ "$(cat {output.id} 2>/dev/null)" != "$id" ]; then echo "$id" > {output.id}; fi
        """
