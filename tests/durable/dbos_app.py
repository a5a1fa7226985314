"""A process that serves the tests' runs on DBOS, to be killed and started again.

    python tests/durable/dbos_app.py start RUN_ID   # launch DBOS, start the run, wait for it
    python tests/durable/dbos_app.py serve RUN_ID   # launch DBOS (which recovers the runs a
                                                    # killed process left) and wait for it

`CALLGATE_TEST_DBOS` is the DBOS system database URL; see `apps.py` for the rest.
"""

from __future__ import annotations

import asyncio
import os
import sys

from dbos import DBOS

from callgate.durable import ApprovalWait, DBOSAgent
from tests.durable import apps


async def main(mode: str, run_id: str) -> None:
    store = apps.store()
    agent = apps.agent(store)
    poll = float(os.environ.get("CALLGATE_TEST_POLL", "0.5"))
    wait = ApprovalWait(total=3600, first=poll, longest=poll)
    durable = DBOSAgent(agent, name="payments", approval_wait=wait)
    DBOS(config={"name": "callgate-tests", "system_database_url": os.environ["CALLGATE_TEST_DBOS"]})
    DBOS.launch()
    apps.report("launched")
    run = await durable.start("Pay ana 25.", run_id=run_id) if mode == "start" else None
    result = await (run or durable.attach(run_id)).result()
    apps.report(
        "finished",
        run_id=result.run_id,
        status=result.status,
        answer=result.answer,
        routes=[r.route.value for r in result.calls],
    )
    DBOS.destroy()
    agent.close()
    store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
