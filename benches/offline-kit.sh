#!/usr/bin/env bash
# Carry the scaling measurement to a machine that reaches no package registry (issue 50: a lent
# many-core machine). Two verbs:
#
#   benches/offline-kit.sh pack [DIR [BINARY]]  (here, after cargo build --release; DIR: .kit)
#       writes DIR/keltis-kit.tar.xz: the release binary (or BINARY) stripped, PostgreSQL's
#       initdb, postgres, pg_ctl, psql and pgbench with the modules and files a cluster needs,
#       and every library they link but the C library's own (the machine's C library must be
#       as new as this one's).
#   benches/offline-kit.sh unpack [DIR]  (there; needs only bash and python3)
#       unpacks it into DIR/kit, checks that every binary finds its libraries, creates the
#       `postgres` user that scaling.sh runs PostgreSQL as under root if it is missing (and the
#       time zones PostgreSQL reads, if the machine has none), and prints the scaling command.
#
# PostgreSQL finds its share and module folders relative to its binaries, so the kit keeps
# Debian's layout (lib/postgresql/N/bin, lib/postgresql/N/lib, share/postgresql/N).
set -euo pipefail

verb=${1:-}
dir=${2:-.kit}
binary=${3:-target/release/keltis}
libs_of_c="ld-linux-x86-64.so.2 libc.so.6 libm.so.6 libpthread.so.0 libdl.so.2 librt.so.1 libresolv.so.2 linux-vdso.so.1"

pack() {
  local keltis=$binary pg_bin pg_root version stage
  [ -x "$keltis" ] || { echo "no $keltis: cargo build --release first" >&2; exit 2; }
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  [ -x "$pg_bin/postgres" ] || { echo "no PostgreSQL under /usr/lib/postgresql" >&2; exit 2; }
  pg_root=$(dirname "$pg_bin")
  version=$(basename "$pg_root")
  stage=$(mktemp -d)
  trap 'rm -rf "$stage"' RETURN
  mkdir -p "$stage/bin" "$stage/libs" "$stage/lib/postgresql/$version/bin" \
    "$stage/lib/postgresql/$version/lib" "$stage/share/postgresql" "$stage/zoneinfo"
  strip -o "$stage/bin/keltis" "$keltis"
  for b in initdb postgres pg_ctl psql pgbench; do
    cp "$pg_bin/$b" "$stage/lib/postgresql/$version/bin/"
  done
  # initdb loads the snowball dictionaries and plpgsql; the load tool reads pg_stat_statements.
  for m in dict_snowball plpgsql pg_stat_statements; do
    cp "$pg_root/lib/$m.so" "$stage/lib/postgresql/$version/lib/"
  done
  cp -r "/usr/share/postgresql/$version" "$stage/share/postgresql/"
  rm -rf "$stage/share/postgresql/$version/man"
  # Debian's PostgreSQL reads the system's time zones; a bare machine may have none.
  cp -r /usr/share/zoneinfo/UTC /usr/share/zoneinfo/GMT /usr/share/zoneinfo/Etc "$stage/zoneinfo/"
  local lib
  for lib in $(ldd "$stage/bin/keltis" "$stage"/lib/postgresql/"$version"/bin/* \
      "$stage"/lib/postgresql/"$version"/lib/*.so | awk '/=> \// {print $3}' | sort -u); do
    [[ " $libs_of_c " == *" $(basename "$lib") "* ]] || cp -L "$lib" "$stage/libs/"
  done
  echo "$version" >"$stage/pg-version"
  mkdir -p "$dir"
  # All cores; XZ_OPT may ask for less compression (the test that packs a kit does).
  XZ_OPT=${XZ_OPT:--T0} tar -C "$stage" -cJf "$dir/keltis-kit.tar.xz" .
  echo "$dir/keltis-kit.tar.xz: $(du -h "$dir/keltis-kit.tar.xz" | cut -f1)" \
    "(keltis $(git rev-parse --short HEAD 2>/dev/null || echo '?'), PostgreSQL $version," \
    "$(ls "$stage/libs" | wc -l) libraries)"
}

unpack() {
  local kit="$dir/kit" version missing=0
  rm -rf "$kit"
  mkdir -p "$kit"
  python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
    "$dir/keltis-kit.tar.xz" "$kit"
  kit=$(cd "$kit" && pwd)
  chmod -R a+rX "$kit"
  version=$(cat "$kit/pg-version")
  export LD_LIBRARY_PATH="$kit/libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  for b in "$kit/bin/keltis" "$kit"/lib/postgresql/"$version"/bin/*; do
    if ldd "$b" | grep -q 'not found'; then
      echo "$b: $(ldd "$b" | grep 'not found' | tr -s ' \t' ' ')" >&2
      missing=1
    fi
  done
  [ "$missing" = 0 ] || exit 1
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    if [ ! -e /usr/share/zoneinfo/UTC ]; then
      mkdir -p /usr/share/zoneinfo
      cp -r "$kit"/zoneinfo/* /usr/share/zoneinfo/
    fi
  fi
  "$kit/bin/keltis" --version >&2
  echo "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH; benches/scaling.sh --keltis $kit/bin/keltis --pg-bin $kit/lib/postgresql/$version/bin"
}

case "$verb" in
  pack) pack ;;
  unpack) unpack ;;
  *) sed -n '2,16p' "$0"; exit 2 ;;
esac
