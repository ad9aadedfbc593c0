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
NS_ID = NS + ".id"
NS_PATCHES = [
    f"ns2-patches/{l.strip()}"
    for l in Path("ns2-patches/series").read_text().splitlines()
    if l.strip() and not l.startswith("#")
]


rule ns2_fetch:
    input:
        "ns2-patches/SOURCE",
        "scripts/fetch-ns2.sh",
    output:
        NS_TARBALL,
    shell:
        "scripts/fetch-ns2.sh build/download"


rule build_ns:
    input:
        tarball=NS_TARBALL,
        source="ns2-patches/SOURCE",
        series="ns2-patches/series",
        patches=NS_PATCHES,
        scripts=["scripts/build-ns2.sh", "scripts/ns2-prefix.sh"],
    output:
        ns=NS,
        id=NS_ID,
    params:
        jobs=config["ns"]["build_jobs"],
    threads: config["ns"]["build_jobs"]
    log:
        "build/ns2/build.log",
    shell:
        """
        scripts/build-ns2.sh {input.tarball} build/ns2 {output.ns} {params.jobs} > {log} 2>&1 \
            || {{ tail -25 {log} >&2; exit 1; }}
        tail -1 {log}
        # identity: the binary and the patch series it was built from
        {{ sha256sum {output.ns} | cut -c1-16; cat {input.series} {input.patches} | sha256sum | cut -c1-16; }} \
            | paste -sd- > {output.id}
        """
