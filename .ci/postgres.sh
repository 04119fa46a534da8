# Source me: a throwaway PostgreSQL cluster for the tests (and for development).
#   source .ci/postgres.sh && pg_throwaway_start   -> exports LOUPE_TEST_DATABASE_URL; pg_throwaway_stop ends it
# The cluster lives in a temporary folder, listens on 127.0.0.1 only, on a free port, with a random
# password; initdb refuses to run as root, so as root the server runs as the `postgres` user.
# Installs Debian's postgresql when no server binaries are found.

_pg_bin_dir() {
  { ls -d /usr/lib/postgresql/*/bin 2>/dev/null || true; } | sort -V | tail -n 1
}

_pg_as_owner() {  # run a command as the cluster's owner (postgres when we are root)
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_throwaway_start() {
  local bin port password
  bin="$(_pg_bin_dir)"
  if [ -z "$bin" ] || [ ! -x "$bin/initdb" ] || { [ "$(id -u)" = "0" ] && ! id postgres >/dev/null 2>&1; }; then
    apt-get update -qq
    apt-get install -y -qq postgresql >/dev/null
    bin="$(_pg_bin_dir)"
  fi
  PG_THROWAWAY_DIR="$(mktemp -d /tmp/loupe-pg.XXXXXX)"
  chmod 755 "$PG_THROWAWAY_DIR"
  password="$(python3 -c 'import secrets; print(secrets.token_hex(12))')"
  printf '%s\n' "$password" >"$PG_THROWAWAY_DIR/pw"
  if [ "$(id -u)" = "0" ]; then chown -R postgres "$PG_THROWAWAY_DIR"; fi
  cd "$PG_THROWAWAY_DIR" || return 1  # the owner may not be allowed into the current folder
  _pg_as_owner "$bin/initdb" -D "$PG_THROWAWAY_DIR/data" -U loupe --pwfile="$PG_THROWAWAY_DIR/pw" \
    -A scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$PG_THROWAWAY_DIR/initdb.log" 2>&1 \
    || { cat "$PG_THROWAWAY_DIR/initdb.log" >&2; return 1; }
  rm -f "$PG_THROWAWAY_DIR/pw"
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  _pg_as_owner "$bin/pg_ctl" -D "$PG_THROWAWAY_DIR/data" -l "$PG_THROWAWAY_DIR/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $PG_THROWAWAY_DIR -c fsync=off -c max_connections=200" start >/dev/null \
    || { cat "$PG_THROWAWAY_DIR/server.log" >&2; return 1; }
  cd - >/dev/null || return 1
  PG_THROWAWAY_BIN="$bin"
  export PG_THROWAWAY_DIR PG_THROWAWAY_BIN
  export LOUPE_TEST_DATABASE_URL="postgresql://loupe:${password}@127.0.0.1:${port}/postgres"
  echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (data in $PG_THROWAWAY_DIR)"
}

pg_throwaway_stop() {
  if [ -n "${PG_THROWAWAY_DIR:-}" ] && [ -d "$PG_THROWAWAY_DIR/data" ]; then
    _pg_as_owner "$PG_THROWAWAY_BIN/pg_ctl" -D "$PG_THROWAWAY_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$PG_THROWAWAY_DIR"
  fi
}
