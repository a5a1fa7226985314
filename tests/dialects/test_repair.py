from __future__ import annotations

from callgate.dialects._repair import MAX_REPAIR, repair


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
