# The two entry points (see README.md):
#   make        set up, build ns, run the pipeline at the configured fidelity -> paper/report-<fidelity>.pdf
#   make test   set up, build ns, run every test, build the smoke report
# Also: make setup | make ns | make diff | make verify | make smoke | make bench | make lint | make clean
#       make report FIDELITY=paper (from the committed bundle) | make bundle FIDELITY=paper
#       make bundle-update FIDELITY=paper (only the changed jobs from runs)
#       make test-fast (the unit tests only: no ns build, no Snakemake run)
#       make test-faults | make test-cluster (heavy, not part of make test)
SHELL := /bin/bash
VENV  := .venv
PY    := $(VENV)/bin/python
SMK   := $(VENV)/bin/snakemake
CORES ?= all
# the fidelity of make report and make bundle (default: config/config.yaml's for report,
# paper for bundle)
FIDELITY ?=
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)

.PHONY: all setup ns report diff verify smoke test test-fast test-python test-tcl test-ns2-validation \
        test-ns-next test-dag test-faults test-cluster lint bench clean bundle bundle-update test-bundle

all: report

setup:
	@scripts/setup.sh

ns: setup
	$(SMK) --cores $(CORES) build_ns

report: setup
	$(SMK) --cores $(CORES) $(if $(FIDELITY),--config fidelity=$(FIDELITY))
	@ls -1 paper/report-*.pdf

# the fidelity's bundle of run outputs (paper/bundle/<fidelity>), written from runs
bundle: setup
	$(SMK) --cores $(CORES) bundle --config fidelity=$(or $(FIDELITY),paper) bundle=off

# the bundle again where only some jobs changed: those are made from runs, the rest restored
# from the bundle (rules/bundle.smk, rule bundle with bundle=on); the new one replaces it
bundle-update: setup
	$(SMK) --cores $(CORES) bundle --config fidelity=$(or $(FIDELITY),paper)
	rm -rf paper/bundle/$(or $(FIDELITY),paper)
	mv paper/bundle/$(or $(FIDELITY),paper).next paper/bundle/$(or $(FIDELITY),paper)

diff: setup
	$(SMK) --cores $(CORES) --quiet rules diff

# every finished run against the digests it wrote (run.sha256); a corrupt one is moved aside
# and named, and the next make (or snakemake) makes it again
verify: setup
	$(PY) -m analysis.nsio verify

# the smoke report of the five papers, then its LaTeX log: no table column or line too narrow
smoke: setup
	$(SMK) --cores $(CORES) --config fidelity=smoke
	$(PY) -m analysis.latex overfull paper/report-smoke.log

# bench/'s Python scripts (no .py suffix) are included by pyproject.toml's extend-include
lint: setup
	$(VENV)/bin/ruff check analysis tests bench
	$(VENV)/bin/ruff format --check analysis tests bench

# pytest on PYTEST_WORKERS processes (pytest-xdist); --dist loadfile keeps each test file on
# one worker, so a module's fixtures are made once
PYTEST_WORKERS ?= 2
test-python: ns
	$(PY) -m pytest -q -n $(PYTEST_WORKERS) --dist loadfile

# every test has one tier, unit, ns or workflow (tests/conftest.py); the unit tier needs
# neither the ns binary nor a Snakemake run
test-fast: setup
	$(PY) -m pytest -q -m unit

test-tcl: ns
	tcl/tests/run.sh build/ns2/bin/ns

# ns-2.35's own validation suites with the patched binary (~35 s): our patches change no stock behaviour
NS2_SUITES ?= red sack simple tcpVariants newreno rbp monitor packmime tcp tcpLinux
test-ns2-validation: ns
	scripts/ns2-validate.sh build/ns2/bin/ns build/ns2/ns-2.35 $(NS2_SUITES)

# The next series: ns2-patches/series, then the patches waiting to enter it
# (ns2-patches/pending; README there), built beside the series' ns with ccache: every Tcl
# test of the series and the new patches' own (tcl/tests/next/) and ns-2's validation
# suites, with that binary
NS_TARBALL := build/download/$(shell sed -n 's/^file=//p' ns2-patches/SOURCE)
NS_NEXT    := build/ns2-next/bin/ns
# suites, with that binary; nothing to do while no patch is pending
test-ns-next: ns
	@if ! grep -q '[^[:space:]]' ns2-patches/pending; then \
	  echo "test-ns-next: no patch pending (ns2-patches/pending is empty)"; exit 0; fi; \
	set -e; mkdir -p build/ns2-next; \
	cat ns2-patches/series ns2-patches/pending > build/ns2-next/series; \
	NS2_SERIES=$(CURDIR)/build/ns2-next/series scripts/build-ns2.sh $(NS_TARBALL) build/ns2-next $(NS_NEXT) 2; \
	tcl/tests/run.sh $(NS_NEXT) tcl/tests/test-*.tcl tcl/tests/next/test-*.tcl; \
	scripts/ns2-validate.sh $(NS_NEXT) build/ns2-next/ns-2.35 $(NS2_SUITES)

# the DAG of every fidelity builds and every job's command formats (nothing runs): a plain
# dry run, as the README recommends (--quiet would skip formatting the shell commands)
test-dag: setup
	$(SMK) -n --config fidelity=quick > /dev/null
	$(SMK) -n --config fidelity=paper > /dev/null
	@echo "test-dag: quick and paper DAGs build"

# fault injection (~12 min, not part of make test): random kills of ns and Snakemake during
# the smoke pipeline of one paper, then every result compared with an undisturbed run
test-faults: ns
	$(PY) tests/faults/inject.py

# Slurm (as root, not part of make test; after make setup and make ns): a one-node Slurm on
# this machine (scripts/slurm-local.sh up, CLUSTER_CPUS CPUs for its jobs), the smoke
# pipeline of CLUSTER_PAPERS locally and through profiles/slurm (one job per experiment's
# runs and per search, the analysis steps in batch jobs) in scratch copies, compared byte for
# byte; a scancel of a running job that makes runs and a SIGINT of the whole run, each rerun,
# on CLUSTER_FAULT_PAPERS among them; then Slurm down (also on failure).   make test-cluster CLUSTER_PAPERS=floyd1991     one paper only
CLUSTER_CPUS ?= 2
CLUSTER_PAPERS ?= $(basename $(notdir $(wildcard config/experiments/*.yaml)))
CLUSTER_FAULT_PAPERS ?= tang
test-cluster:
	SLURM_LOCAL_CPUS=$(CLUSTER_CPUS) scripts/slurm-local.sh up \
	  && $(PY) tests/cluster/slurm_vs_local.py --papers $(CLUSTER_PAPERS) \
	  --fault-papers $(filter $(CLUSTER_FAULT_PAPERS),$(CLUSTER_PAPERS)); s=$$?; \
	  scripts/slurm-local.sh down; exit $$s

test: lint test-python test-tcl test-ns2-validation test-ns-next test-dag smoke test-bundle
	@echo "make test: all passed"

# the smoke bundle end to end: a changed parameter reruns its step only, a bad archive is refused
test-bundle: smoke
	tests/bundle/smoke.sh

bench: ns
	bench/ns-speed.sh build/ns2/bin/ns

clean:
	rm -rf results paper/generated paper/report-*.* figures/smoke figures/quick figures/paper .snakemake
