# Sourced by .ci/run: installs PostgreSQL with apt when missing, starts a private
# cluster on loopback and exports CALLGATE_PG_DSN for the store tests.
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
PGDATA_DIR=$(mktemp -d /tmp/callgate-pg.XXXXXX)
chown postgres:postgres "$PGDATA_DIR"
su postgres -s /bin/sh -c "$PGBIN/initdb -D $PGDATA_DIR/data -A trust -U postgres >/dev/null"
su postgres -s /bin/sh -c "$PGBIN/pg_ctl -D $PGDATA_DIR/data -l $PGDATA_DIR/log -w \
  -o '-p $PGPORT -k $PGDATA_DIR -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off' start >/dev/null"
export CALLGATE_PG_DSN="postgresql://postgres@127.0.0.1:$PGPORT/postgres"
export CALLGATE_PG_CTL="su postgres -s /bin/sh -c '$PGBIN/pg_ctl -D $PGDATA_DIR/data -l $PGDATA_DIR/log -w -o \"-p $PGPORT -k $PGDATA_DIR -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off\"'"
stop_postgres() {
  su postgres -s /bin/sh -c "$PGBIN/pg_ctl -D $PGDATA_DIR/data -m immediate stop" >/dev/null 2>&1 || true
}
trap stop_postgres EXIT
