"""OpenTelemetry spans and metrics of the gate and the agent loop (`callgate[otel]`).

    from callgate.telemetry import Telemetry
    gate = Gate(tools, telemetry=Telemetry())      # or telemetry.instrument() for every gate

A span per call (`execute_tool`), per stretch of an agent run (`invoke_agent`) and per
model turn (`chat`), following the GenAI semantic conventions, with callgate's route, rule,
approval and replay on each call; metrics of calls by route and tool, their latency, token
usage and the approvals waiting. A gate without telemetry has no telemetry step in its
chain: it pays nothing, and OpenTelemetry is not even imported. docs/telemetry.md.
"""

from callgate.telemetry._telemetry import Telemetry, current, instrument, uninstrument

__all__ = ["Telemetry", "current", "instrument", "uninstrument"]
