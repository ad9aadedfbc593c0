#!/usr/bin/env bash
# One-command setup: Debian packages (as root), the deb-src entry for ns2, and the
# project's Python venv. Idempotent: a second run only checks.
#   scripts/setup.sh            everything (packages + venv)
#   scripts/setup.sh --print    print the apt commands a non-root user must run
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  # ns-2.35 build (see ns2-patches/README.md)
  build-essential xz-utils patch ccache tcl-dev tk-dev libotcl1-dev libtclcl1-dev tclcl
  libxext-dev libxt-dev libpcap0.8-dev
  # ns-2's own validation suites
  libperl4-corelibs-perl
  # the report
  texlive-latex-base texlive-latex-recommended texlive-fonts-recommended lmodern
  poppler-utils
  # the venv
  python3 python3-venv
)
SRC_LIST=/etc/apt/sources.list.d/ns2-deb-src.sources

missing_packages() {
  local p
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}

have_deb_src() {
  grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/
}

# A deb-src entry derived from the machine's own bookworm 'deb' entry (same mirror).
deb_src_entry() {
  python3 - <<'PY'
import glob, re
for f in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
    for stanza in open(f).read().split("\n\n"):
        fields = dict(
            (k.strip(), v.strip())
            for k, _, v in (l.partition(":") for l in stanza.splitlines() if ":" in l and not l.startswith("#"))
        )
        if fields.get("Types", "").split()[:1] == ["deb"] and "bookworm" in fields.get("Suites", "").split():
            print("Types: deb-src")
            print("URIs:", fields["URIs"])
            print("Suites: bookworm")
            print("Components: main")
            if "Signed-By" in fields:
                print("Signed-By:", fields["Signed-By"])
            raise SystemExit(0)
for f in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
    try:
        lines = open(f).read().splitlines()
    except OSError:
        continue
    for l in lines:
        m = re.match(r"^deb\s+(\[[^\]]*\]\s+)?(\S+)\s+bookworm\s", l)
        if m:
            print("Types: deb-src"); print("URIs:", m.group(2)); print("Suites: bookworm"); print("Components: main")
            raise SystemExit(0)
raise SystemExit("no 'deb' entry for bookworm found in /etc/apt: add a deb-src line for bookworm main by hand")
PY
}

print_root_commands() {
  local miss
  miss=$(missing_packages | tr '\n' ' ')
  echo "Run as root (or with sudo), then rerun 'make':"
  have_deb_src || { echo "  cat > $SRC_LIST <<'X'"; deb_src_entry | sed 's/^/  /'; echo "  X"; }
  echo "  apt-get update"
  [ -n "$miss" ] && echo "  apt-get install -y --no-install-recommends $miss"
  return 0
}

if [ "${1:-}" = "--print" ]; then print_root_commands; exit 0; fi

# ---- system packages ----
miss=$(missing_packages | tr '\n' ' ')
if [ -n "$miss" ] || ! have_deb_src; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: system packages or the deb-src entry are missing and this is not root." >&2
    print_root_commands >&2
    exit 1
  fi
  if ! have_deb_src; then
    echo "setup: adding $SRC_LIST (deb-src for the ns2 source package)"
    deb_src_entry > "$SRC_LIST"
  fi
  echo "setup: apt-get update"
  apt-get update -qq
  if [ -n "$miss" ]; then
    echo "setup: installing $miss"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $miss
  fi
fi

# ---- Python venv ----
VENV=.venv
if [ ! -x "$VENV/bin/python" ]; then
  echo "setup: creating $VENV"
  python3 -m venv "$VENV"
fi
stamp="$VENV/.requirements.sha256"
want=$(sha256sum requirements.txt | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "setup: installing Python requirements into $VENV"
  "$VENV/bin/python" -m pip install -q --upgrade pip
  "$VENV/bin/python" -m pip install -q -r requirements.txt
  "$VENV/bin/python" -m pip install -q --no-deps -e .
  echo "$want" > "$stamp"
fi
echo "setup: ok ($("$VENV/bin/snakemake" --version 2>/dev/null | sed 's/^/snakemake /'))"
