#!/usr/bin/env bash
# Present Debian's Tcl 8.6 / Tk / otcl / tclcl packages in the folder layout that
# ns-2.35's configure expects (it looks for <dir>/{generic,library,lib}, ...).
# Usage: scripts/ns2-prefix.sh DIR      (DIR is created; configure records these paths)
set -euo pipefail
dir=$1
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
libdir=/usr/lib/$multiarch
need() { [ -e "$1" ] || { echo "ns2-prefix: $1 not found (install: $2)" >&2; exit 1; }; }
need /usr/include/tcl8.6/tcl.h tcl-dev
need /usr/include/tcl8.6/tcl-private/generic/tclInt.h tcl-dev
need /usr/share/tcltk/tcl8.6/http1.0/http.tcl tcl8.6
need /usr/include/tcl8.6/tk-private/generic/tkInt.h tk-dev
need /usr/include/otcl.h libotcl1-dev
need /usr/include/tclcl/tclcl.h libtclcl1-dev
need /usr/bin/tcl2c++ tclcl
rm -rf "$dir"
mkdir -p "$dir"/tcl/{lib,library} "$dir"/tk/lib "$dir"/otcl/{include,lib} "$dir"/tclcl/{include,lib,bin}
ln -s /usr/include/tcl8.6/tcl-private/generic "$dir/tcl/generic"
ln -s /usr/include/tcl8.6/tcl-private/unix "$dir/tcl/unix"
for f in /usr/share/tcltk/tcl8.6/*; do ln -s "$f" "$dir/tcl/library/"; done
ln -s /usr/share/tcltk/tcl8.6/http1.0/http.tcl "$dir/tcl/library/http.tcl"
ln -s "$libdir/libtcl8.6.so" "$dir/tcl/lib/libtcl8.6.so"
ln -s /usr/include/tcl8.6/tk-private/generic "$dir/tk/generic"
ln -s /usr/share/tcltk/tk8.6 "$dir/tk/library"
ln -s "$libdir/libtk8.6.so" "$dir/tk/lib/libtk8.6.so"
ln -s /usr/include/otcl.h "$dir/otcl/include/otcl.h"
ln -s /usr/include/otcl.h "$dir/otcl/otcl.h"
for f in "$libdir"/libotcl.so*; do ln -s "$f" "$dir/otcl/lib/"; ln -s "$f" "$dir/otcl/"; done
for f in /usr/include/tclcl/*.h; do ln -s "$f" "$dir/tclcl/include/"; ln -s "$f" "$dir/tclcl/"; done
for f in "$libdir"/libtclcl.so*; do ln -s "$f" "$dir/tclcl/lib/"; ln -s "$f" "$dir/tclcl/"; done
ln -s /usr/bin/tcl2c++ "$dir/tclcl/bin/tcl2c++"
ln -s /usr/bin/tcl2c++ "$dir/tclcl/tcl2c++"
