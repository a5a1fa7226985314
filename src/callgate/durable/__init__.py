"""Agent runs on a durable-execution engine: DBOS (`callgate[dbos]`) or Temporal
(`callgate[temporal]`), with the gate giving exactly-once to the side effects the engines
only run at least once.

The loop's durable points (`Durability`: its steps, its waits for decisions, its run id
and clock) are where an engine takes over; `InProcess` is the plain loop. `DBOSAgent` runs
an `Agent` as a DBOS workflow, `TemporalAgent` as a Temporal workflow whose steps are
activities. The engines are imported only when one of these is made.
"""

from callgate.durable._dbos import DBOSAgent, DBOSDurability, notify_approval
from callgate.durable._outcome import DurableRun, decode_outcome, encode_outcome
from callgate.durable._temporal import WORKFLOW, TemporalAgent, TemporalDurability
from callgate.loop._durable import STEP_KINDS, ApprovalWait, Durability, InProcess, StepKind

__all__ = [
    "STEP_KINDS",
    "WORKFLOW",
    "ApprovalWait",
    "DBOSAgent",
    "DBOSDurability",
    "Durability",
    "DurableRun",
    "InProcess",
    "StepKind",
    "TemporalAgent",
    "TemporalDurability",
    "decode_outcome",
    "encode_outcome",
    "notify_approval",
]
