# Sourced by .ci/run: installs PostgreSQL with apt when missing and starts two private
# clusters on loopback: the one the store tests share (CALLGATE_PG_DSN), and one that the
# fault tests stop and start (CALLGATE_PG_CTL_DSN, controlled by CALLGATE_PG_CTL), so that
# the tests running alongside them in other pytest-xdist workers keep their server.
pg_bin() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}
if [ -z "$(pg_bin)" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
fi
PGBIN=$(pg_bin)
PGPORT=${CALLGATE_PG_PORT:-54329}
PG_DIRS=""

# pg_ctl for the cluster in $1 on port $2, as the postgres user; the action goes last,
# inside the quotes (tests/conftest.py `pg_ctl` puts it there).
pg_ctl_command() {
  echo "su postgres -s /bin/sh -c '$PGBIN/pg_ctl -D $1/data -l $1/log -w -o \"-p $2 -k $1 -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off\"'"
}

start_cluster() {
  local dir
  dir=$(mktemp -d /tmp/callgate-pg.XXXXXX)
  chown postgres:postgres "$dir"
  su postgres -s /bin/sh -c "$PGBIN/initdb -D $dir/data -A trust -U postgres >/dev/null"
  local command
  command=$(pg_ctl_command "$dir" "$1")
  eval "${command%\'} start >/dev/null'"
  PG_DIRS="$PG_DIRS $dir"
  PG_LAST_DIR=$dir
}

start_cluster "$PGPORT"
export CALLGATE_PG_DSN="postgresql://postgres@127.0.0.1:$PGPORT/postgres"
start_cluster $((PGPORT + 1))
export CALLGATE_PG_CTL_DSN="postgresql://postgres@127.0.0.1:$((PGPORT + 1))/postgres"
CALLGATE_PG_CTL=$(pg_ctl_command "$PG_LAST_DIR" $((PGPORT + 1)))
export CALLGATE_PG_CTL
stop_postgres() {
  for dir in $PG_DIRS; do
    su postgres -s /bin/sh -c "$PGBIN/pg_ctl -D $dir/data -m immediate stop" >/dev/null 2>&1 || true
  done
}
trap stop_postgres EXIT
