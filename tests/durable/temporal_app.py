"""The tests' Temporal worker and client, as processes (the worker is killed and started
again; the client leaves with `os._exit`, as the Python client can crash at interpreter
exit after its work is done).

    python tests/durable/temporal_app.py ADDRESS QUEUE worker
    python tests/durable/temporal_app.py ADDRESS QUEUE start RUN_ID
    python tests/durable/temporal_app.py ADDRESS QUEUE result RUN_ID
    python tests/durable/temporal_app.py ADDRESS QUEUE decide RUN_ID APPROVAL_ID DECISION_JSON
    python tests/durable/temporal_app.py ADDRESS QUEUE notify RUN_ID APPROVAL_ID

See `apps.py` for the environment.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import traceback

from temporalio.client import Client

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
    elif command == "notify":
        await durable.notify(client, args[0], args[1])
        apps.report("notified")
    store.close()


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
