"""Limits of one run and what has been spent against them.

Every limit is checked before the next action (a model turn or a batch of calls), so a run
stops between steps, never in the middle of one, and its state can always be resumed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from callgate._errors import UserError
from callgate.models import Usage

__all__ = ["LimitName", "Limits", "Price", "Spent", "check_before_batch", "check_before_turn"]

LimitName = Literal["steps", "tool_calls", "wall_time", "tokens", "cost"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Price:
    """What a model costs, in the user's currency per million tokens."""

    input: float
    output: float

    def of(self, usage: Usage) -> float:
        return (usage.input_tokens * self.input + usage.output_tokens * self.output) / 1e6


@dataclass(frozen=True, kw_only=True, slots=True)
class Limits:
    """When a run must stop. `None` switches a limit off."""

    steps: int | None = 10
    """Model turns (each answer of the model is one step)."""
    tool_calls: int | None = None
    """Calls proposed by the model, whatever their route."""
    wall_time: float | None = None
    """Seconds of running time (time paused for approval does not count)."""
    tokens: int | None = None
    """Input plus output tokens over all turns."""
    cost: float | None = None
    """Money over all turns, priced with `prices`."""
    prices: Mapping[str, Price] = field(default_factory=dict)
    """Model name -> price. A cost limit with no price for the model is an error at start."""
    same_failing_call: int = 3
    """Circuit breaker: the same tool with the same arguments failing this many times."""
    same_tool_failures: int = 3
    """Circuit breaker: one tool failing this many times in a row."""
    final_answer: bool = False
    """On a limit, ask the model once more, without tools, for an answer from what it has,
    instead of raising `LimitExceeded`."""

    def __post_init__(self) -> None:
        for name in ("steps", "tool_calls", "wall_time", "tokens", "cost"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise UserError(f"Limits.{name} must be positive or None, got {value!r}")
        if self.same_failing_call < 1 or self.same_tool_failures < 1:
            raise UserError("circuit breaker thresholds must be at least 1")

    def price(self, model: str) -> Price | None:
        return self.prices.get(model)


@dataclass(frozen=True, kw_only=True, slots=True)
class Spent:
    """What a run has used so far; saved with its state."""

    steps: int = 0
    tool_calls: int = 0
    usage: Usage = field(default_factory=Usage)
    cost: float = 0.0
    elapsed: float = 0.0
    """Seconds of running time before the current stretch."""

    def after_turn(self, usage: Usage, price: Price | None) -> Spent:
        return replace(
            self,
            steps=self.steps + 1,
            usage=self.usage + usage,
            cost=self.cost + (price.of(usage) if price else 0.0),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "steps": self.steps,
            "tool_calls": self.tool_calls,
            "input_tokens": self.usage.input_tokens,
            "output_tokens": self.usage.output_tokens,
            "cost": self.cost,
            "elapsed": self.elapsed,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Spent:
        return cls(
            steps=data["steps"],
            tool_calls=data["tool_calls"],
            usage=Usage(input_tokens=data["input_tokens"], output_tokens=data["output_tokens"]),
            cost=data["cost"],
            elapsed=data["elapsed"],
        )


def _shared(limits: Limits, spent: Spent, elapsed: float) -> tuple[LimitName, str] | None:
    if limits.wall_time is not None and elapsed >= limits.wall_time:
        return "wall_time", f"ran {elapsed:.1f}s of the {limits.wall_time:g}s allowed"
    if limits.tokens is not None and spent.usage.total_tokens >= limits.tokens:
        return "tokens", f"used {spent.usage.total_tokens} of {limits.tokens} tokens"
    if limits.cost is not None and spent.cost >= limits.cost:
        return "cost", f"spent {spent.cost:.4f} of the {limits.cost:g} allowed"
    return None


def check_before_turn(limits: Limits, spent: Spent, elapsed: float) -> tuple[LimitName, str] | None:
    """The limit that forbids another model turn, with what was spent; None if none does."""
    if limits.steps is not None and spent.steps >= limits.steps:
        return "steps", f"took {spent.steps} of {limits.steps} steps"
    return _shared(limits, spent, elapsed)


def check_before_batch(
    limits: Limits, spent: Spent, elapsed: float, calls: int
) -> tuple[LimitName, str] | None:
    """The limit that forbids running a batch of `calls` calls; None if none does."""
    if limits.tool_calls is not None and spent.tool_calls + calls > limits.tool_calls:
        return "tool_calls", (
            f"{spent.tool_calls} calls made, {calls} more proposed, {limits.tool_calls} allowed"
        )
    return _shared(limits, spent, elapsed)
