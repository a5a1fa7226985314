from __future__ import annotations

from callgate.dialects._repair import MAX_REPAIR, REPAIR_BUDGET, budgeted, repair


def _broken(length: int) -> str:
    """A JSON object missing its closing brace, padded to `length` characters."""
    head = '{"a": "'
    return head + "x" * (length - len(head) - 1) + '"'


def test_a_text_at_the_limit_is_repaired() -> None:
    text = _broken(MAX_REPAIR)
    assert len(text) == MAX_REPAIR
    result = repair(text)
    assert result is not None
    value, log = result
    assert isinstance(log, list)
    assert value == {"a": "x" * (MAX_REPAIR - 8)}


def test_a_text_over_the_limit_is_not_repaired() -> None:
    assert repair(_broken(MAX_REPAIR + 1)) is None


def test_repairs_within_one_budgeted_call_share_one_budget() -> None:
    text = _broken(MAX_REPAIR)
    fits = REPAIR_BUDGET // MAX_REPAIR

    @budgeted
    def repaired(count: int) -> list[bool]:
        return [repair(text) is not None for _ in range(count)]

    @budgeted
    def nested() -> list[bool]:
        return repaired(1) + repaired(fits)

    assert repaired(fits + 1) == [True] * fits + [False]
    assert repaired(1) == [True]  # each outermost call starts with the whole budget
    assert nested() == [True] * fits + [False]
    assert all(repair(text) is not None for _ in range(fits + 1))  # no budget outside
