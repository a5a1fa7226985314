"""Example tools with in-memory backends: the supplier address change, order lookup and a
weather forecast. `callgate demo` runs them; the fixture kit and tests use them through
`callgate.testing`, which exports them.

The supplier scenario is the standard one of this field: look a supplier up (`read`,
private data), draft an address change (`write`, harmless and idempotent), commit it
(`write` with read-back and reconcile, forwarding the idempotency key to the registry).
Every tool is scoped to the caller's tenant, which the host injects; the model never sees
or sets it. The backends count what they did and accept faults, so tests can check the
side effects that must not happen.

    registry = SupplierRegistry.sample()
    gate = Gate(supplier_tools(registry), store="sqlite:///callgate.db",
                policy=Policy.loads(SUPPLIER_POLICY))
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal

from callgate._errors import ConflictError, ToolError, TransientError
from callgate.contract import CallContext, Tool, ToolAnnotations, tool
from callgate.contract._tool import FromContext
from callgate.schema import content_hash

__all__ = [
    "SUPPLIER_POLICY",
    "Faults",
    "OrderBook",
    "Supplier",
    "SupplierRegistry",
    "WeatherService",
    "example_tools",
    "order_tools",
    "supplier_tools",
    "weather_tools",
]

Tenant = Annotated[str, FromContext("tenant")]

SUPPLIER_POLICY = """
version = "examples-1"

[[rules]]
id = "drafts-are-free"
action = "allow"
reason = "drafting a change changes nothing real"
tools = ["supplier_draft_change"]

[[rules]]
id = "commits-need-supplier-admin"
action = "deny"
reason = "only supplier administrators may change supplier records"
tools = ["supplier_commit_change"]
lacks_roles = ["supplier_admin"]

[[rules]]
id = "commits-need-a-second-person"
action = "ask"
reason = "a supplier's address changes only with a second person's approval"
tools = ["supplier_commit_change"]
roles = ["supplier_admin"]
"""
"""A policy for the supplier tools: drafts allowed; commits only by a `supplier_admin`, and
then only with a second person's approval."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Supplier:
    id: str
    tenant: str
    name: str
    address: str
    version: int = 1


@dataclass(kw_only=True, slots=True)
class Faults:
    """Faults the next commit runs into (each is used up once it fired)."""

    stall: Literal["before", "after"] | None = None
    """Hang for `stall_seconds` before or after applying the change (a timeout)."""
    stall_seconds: float = 5.0
    lose_write: bool = False
    """Acknowledge the change but do not keep it (read-back will not find it)."""
    unavailable: int = 0
    """Fail this many commits with a transient error before the registry answers."""
    conflict: bool = False
    """Someone else edits the record just before the commit (its draft becomes stale)."""


@dataclass(kw_only=True)
class SupplierRegistry:
    """An in-memory supplier registry that honours idempotency keys, like a good API."""

    suppliers: dict[str, Supplier] = field(default_factory=dict)
    drafts: dict[str, dict[str, Any]] = field(default_factory=dict)
    applied: dict[str, str] = field(default_factory=dict)
    """Idempotency key -> draft id of every change applied."""
    writes: int = 0
    """Changes applied to supplier records (what must never happen twice)."""
    faults: Faults = field(default_factory=Faults)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def sample(cls) -> SupplierRegistry:
        """Two tenants, `acme` and `globex`, with one supplier each."""
        return cls(
            suppliers={
                "S-1": Supplier(
                    id="S-1", tenant="acme", name="Nordic Bolts AB", address="Storgatan 1, Malmö"
                ),
                "S-2": Supplier(
                    id="S-2",
                    tenant="globex",
                    name="Globex Parts Ltd",
                    address="1 Industrial Way, Leeds",
                ),
            }
        )

    def find(self, supplier_id: str, tenant: str) -> Supplier:
        found = self.suppliers.get(supplier_id)
        if found is None or found.tenant != tenant:  # another tenant's record does not exist
            raise ToolError(f"no supplier {supplier_id!r} in your organisation")
        return found

    def draft(self, supplier_id: str, address: str, tenant: str) -> dict[str, Any]:
        supplier = self.find(supplier_id, tenant)
        draft = {
            "supplier_id": supplier_id,
            "new_address": address,
            "expected_version": supplier.version,
            "tenant": tenant,
        }
        draft_id = "D-" + content_hash(draft)[:8]
        with self._lock:
            self.drafts.setdefault(draft_id, draft)
        return {"draft_id": draft_id, **{k: v for k, v in draft.items() if k != "tenant"}}

    def commit(self, draft_id: str, tenant: str, key: str | None) -> dict[str, Any]:
        draft = self.drafts.get(draft_id)
        if draft is None or draft["tenant"] != tenant:
            raise ToolError(f"no draft {draft_id!r}; draft the change first")
        self._pre_commit_faults()
        with self._lock:
            if key is not None and key in self.applied:  # the registry drops duplicates too
                return self._receipt(draft_id)
            current = self.find(draft["supplier_id"], tenant)
            if self._take("conflict"):
                current = replace(current, version=current.version + 1)
                self.suppliers[current.id] = current
            if current.version != draft["expected_version"]:
                raise ConflictError(
                    f"supplier {current.id} changed since the draft "
                    f"(version {current.version}, draft based on "
                    f"{draft['expected_version']})"
                )
            if not self._take("lose_write"):
                self.suppliers[current.id] = replace(
                    current, address=draft["new_address"], version=current.version + 1
                )
            self.writes += 1
            if key is not None:
                self.applied[key] = draft_id
        self._post_commit_faults()
        return self._receipt(draft_id)

    def change_elsewhere(self, supplier_id: str, address: str) -> None:
        """Someone else edits the record (the next commit of an older draft conflicts)."""
        with self._lock:
            current = self.suppliers[supplier_id]
            self.suppliers[supplier_id] = replace(
                current, address=address, version=current.version + 1
            )

    def stall_next(self, when: Literal["before", "after"], seconds: float = 1.0) -> None:
        """The next commit hangs for `seconds` before or after applying the change."""
        self.faults.stall, self.faults.stall_seconds = when, seconds

    def conflict_next(self) -> None:
        """The next commit finds the record changed since its draft."""
        self.faults.conflict = True

    def lose_next_write(self) -> None:
        """The next commit is acknowledged but not kept."""
        self.faults.lose_write = True

    def clear_faults(self) -> None:
        self.faults = Faults()

    @contextmanager
    def fault(self, **faults: Any) -> Iterator[Faults]:
        """Arm faults for the duration of a `with` block."""
        self.faults = Faults(**faults)
        try:
            yield self.faults
        finally:
            self.faults = Faults()

    def _receipt(self, draft_id: str) -> dict[str, Any]:
        draft = self.drafts[draft_id]
        return {
            "draft_id": draft_id,
            "supplier_id": draft["supplier_id"],
            "address": draft["new_address"],
        }

    def _take(self, name: str) -> bool:
        value = getattr(self.faults, name)
        setattr(self.faults, name, False)
        return bool(value)

    def _pre_commit_faults(self) -> None:
        if self.faults.unavailable > 0:
            self.faults.unavailable -= 1
            raise TransientError("the supplier registry is briefly unavailable")
        if self.faults.stall == "before":
            self.faults.stall = None
            time.sleep(self.faults.stall_seconds)

    def _post_commit_faults(self) -> None:
        if self.faults.stall == "after":
            self.faults.stall = None
            time.sleep(self.faults.stall_seconds)


def supplier_tools(registry: SupplierRegistry, *, timeout: float | None = None) -> list[Tool]:
    """`supplier_lookup`, `supplier_draft_change` and `supplier_commit_change` over `registry`."""

    @tool(
        effect="read", labels=["private_data"], timeout=timeout, examples=[{"supplier_id": "S-1"}]
    )
    def supplier_lookup(supplier_id: str, tenant: Tenant) -> dict[str, Any]:
        """Look up a supplier's name, address and record version.

        Args:
            supplier_id: The supplier's id, e.g. S-1.
        """
        s = registry.find(supplier_id, tenant)
        return {"id": s.id, "name": s.name, "address": s.address, "version": s.version}

    @tool(
        effect="write",
        annotations=ToolAnnotations(destructive=False, idempotent=True),
        timeout=timeout,
        examples=[{"supplier_id": "S-1", "new_address": "Hamngatan 5, Malmö"}],
    )
    def supplier_draft_change(supplier_id: str, new_address: str, tenant: Tenant) -> dict[str, Any]:
        """Draft a change of a supplier's address; nothing changes until it is committed.

        Args:
            supplier_id: The supplier's id, e.g. S-1.
            new_address: The full new postal address.
        """
        return registry.draft(supplier_id, new_address, tenant)

    def read_back(arguments: dict[str, Any], result: Any) -> bool:
        draft = registry.drafts.get(arguments["draft_id"])
        if draft is None:
            return False
        current = registry.find(draft["supplier_id"], arguments["tenant"])
        return bool(current.address == draft["new_address"])

    def reconcile(key: str) -> bool:
        return key in registry.applied

    @tool(
        effect="write",
        read_back=read_back,
        reconcile=reconcile,
        timeout=timeout,
        examples=[{"draft_id": "D-0123abcd"}],
    )
    def supplier_commit_change(draft_id: str, tenant: Tenant, call: CallContext) -> dict[str, Any]:
        """Commit a drafted supplier change to the supplier registry.

        Args:
            draft_id: The id returned by supplier_draft_change, e.g. D-0123abcd.
        """
        return registry.commit(draft_id, tenant, call.idempotency_key)

    return [supplier_lookup, supplier_draft_change, supplier_commit_change]


@dataclass(kw_only=True)
class OrderBook:
    """In-memory orders per tenant."""

    orders: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def sample(cls) -> OrderBook:
        return cls(
            orders={
                "O-1001": {
                    "id": "O-1001",
                    "tenant": "acme",
                    "customer": "ann@example.com",
                    "status": "shipped",
                    "total": 129.5,
                },
                "O-1002": {
                    "id": "O-1002",
                    "tenant": "acme",
                    "customer": "bo@example.com",
                    "status": "open",
                    "total": 42.0,
                },
                "O-2001": {
                    "id": "O-2001",
                    "tenant": "globex",
                    "customer": "cy@example.org",
                    "status": "open",
                    "total": 980.0,
                },
            }
        )

    def visible(self, tenant: str) -> list[dict[str, Any]]:
        return [
            {k: v for k, v in o.items() if k != "tenant"}
            for o in self.orders.values()
            if o["tenant"] == tenant
        ]


def order_tools(book: OrderBook) -> list[Tool]:
    """`find_orders` and `get_order` over `book`."""

    @tool(effect="read", labels=["private_data"])
    def find_orders(
        tenant: Tenant,
        customer: str | None = None,
        status: Literal["open", "shipped", "cancelled"] | None = None,
    ) -> list[dict[str, Any]]:
        """Find orders by customer e-mail and/or status.

        Args:
            customer: The customer's e-mail address.
            status: Only orders in this status.
        """
        return [
            o
            for o in book.visible(tenant)
            if (customer is None or o["customer"] == customer)
            and (status is None or o["status"] == status)
        ]

    @tool(effect="read", labels=["private_data"], examples=[{"order_id": "O-1001"}])
    def get_order(order_id: str, tenant: Tenant) -> dict[str, Any]:
        """Get one order by id.

        Args:
            order_id: The order id, e.g. O-1001.
        """
        for order in book.visible(tenant):
            if order["id"] == order_id:
                return order
        raise ToolError(f"no order {order_id!r}")

    return [find_orders, get_order]


@dataclass(kw_only=True)
class WeatherService:
    """A canned forecast; `notice` is appended to every answer (the open world talking).

    Cities in `slow` answer only after that many seconds: an upstream that hangs.
    """

    notice: str = ""
    calls: int = 0
    slow: Mapping[str, float] = field(default_factory=dict)

    def forecast(self, city: str, days: int) -> dict[str, Any]:
        self.calls += 1
        if city in self.slow:
            time.sleep(self.slow[city])
        daily = [
            {"day": d + 1, "summary": "light rain" if d % 2 else "sunny", "high_c": 14 + d}
            for d in range(days)
        ]
        answer: dict[str, Any] = {"city": city, "days": daily}
        if self.notice:
            answer["notice"] = self.notice
        return answer


def weather_tools(service: WeatherService, *, timeout: float | None = None) -> list[Tool]:
    """`get_weather_forecast`: open-world data, so its output is untrusted."""

    @tool(
        effect="read",
        labels=["untrusted_output"],
        timeout=timeout,
        annotations=ToolAnnotations(open_world=True),
        examples=[{"city": "Malmö", "days": 3}],
    )
    def get_weather_forecast(city: str, days: int = 3) -> dict[str, Any]:
        """Daily weather forecast for a city.

        Args:
            city: City name, e.g. Malmö.
            days: Number of days, 1 to 7.
        """
        if not 1 <= days <= 7:
            raise ToolError("days must be between 1 and 7")
        return service.forecast(city, days)

    return [get_weather_forecast]


def example_tools() -> tuple[list[Tool], SupplierRegistry, OrderBook, WeatherService]:
    """Every example tool over fresh sample backends."""
    registry, book, weather = SupplierRegistry.sample(), OrderBook.sample(), WeatherService()
    tools = [*supplier_tools(registry), *order_tools(book), *weather_tools(weather)]
    return tools, registry, book, weather
