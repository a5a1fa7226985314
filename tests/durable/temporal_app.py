"""The tests' Temporal worker and client, as processes (the worker is killed and started
again; the client leaves with `os._exit`, as the Python client can crash at interpreter
exit after its work is done).

    python tests/durable/temporal_app.py ADDRESS QUEUE worker
    python tests/durable/temporal_app.py ADDRESS QUEUE start RUN_ID
    python tests/durable/temporal_app.py ADDRESS QUEUE result RUN_ID
    python tests/durable/temporal_app.py ADDRESS QUEUE decide RUN_ID APPROVAL_ID DECISION_JSON
    python tests/durable/temporal_app.py ADDRESS QUEUE notify RUN_ID APPROVAL_ID
    python tests/durable/temporal_app.py ADDRESS QUEUE waiting RUN_ID

See `apps.py` for the environment.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import traceback
from typing import Any

from temporalio.api.enums.v1 import EventType
from temporalio.client import Client, WorkflowHandle

from callgate.durable import ApprovalWait, TemporalAgent
from callgate.loop._codec import decode_decision
from tests.durable import apps


async def main(address: str, queue: str, command: str, *args: str) -> None:
    client = await Client.connect(address)
    store = apps.store()
    poll = float(os.environ.get("CALLGATE_TEST_POLL", "0.5"))
    durable = TemporalAgent(
        apps.agent(store),
        name="payments",
        task_queue=queue,
        approval_wait=ApprovalWait(total=3600, first=poll, longest=poll),
        heartbeat=1.0,
        step_timeout=60.0,
    )
    if command == "worker":
        # No cache: every workflow task replays the run's history, so a loop that did not
        # replay deterministically would fail here.
        async with durable.worker(client, max_cached_workflows=0):
            apps.report("ready")
            await asyncio.Event().wait()
    elif command == "start":
        run = await durable.start(client, "Pay ana 25.", run_id=args[0])
        apps.report("started", run_id=run.run_id)
    elif command == "result":
        result = await durable.attach(client, args[0]).result()
        apps.report(
            "finished",
            run_id=result.run_id,
            status=result.status,
            answer=result.answer,
            routes=[r.route.value for r in result.calls],
            calls=[[r.call.name, r.route.value] for r in result.calls],
        )
    elif command == "decide":
        try:
            state = await durable.decide(
                client, args[0], args[1], decode_decision(json.loads(args[2]))
            )
            apps.report("decided", state=state)
        except Exception as exc:  # reported: the test checks what the caller is told
            apps.report("refused", error=type(exc).__name__, message=_messages(exc))
    elif command == "waiting":
        # Until the run waits for a decision (a timer in its history): the step that held
        # the call is recorded by then, so a worker killed now does not route it again.
        await _timer_started(client.get_workflow_handle(args[0]))
        apps.report("waiting")
    elif command == "notify":
        await durable.notify(client, args[0], args[1])
        apps.report("notified")
    store.close()


async def _timer_started(handle: WorkflowHandle[Any, Any]) -> None:
    """Returns once the run's history holds a started timer (the client's own wait bounds
    this: the test's `WAIT`)."""
    async for event in handle.fetch_history_events(wait_new_event=True):
        if event.event_type == EventType.EVENT_TYPE_TIMER_STARTED:
            return


def _messages(exc: BaseException) -> str:
    return " | ".join([*traceback.format_exception_only(exc), str(exc.__cause__ or "")])


if __name__ == "__main__":
    status = 0
    try:
        asyncio.run(main(*sys.argv[1:]))
    except BaseException:
        traceback.print_exc()
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
