"""Which tools a model turn is offered: the whole catalog, or a tool selector's list.

With a selector the gate's catalog still holds every tool and still decides every call;
the selector only chooses what the model is *shown*. Its list only grows and keeps its
order, because provider prompt caches key on the exact tool block at the start of each
request. The loop copies the list into `RunState.shown` after every turn and every batch
(a `tool_search` call in a batch that then pauses reveals tools too), and gives it back to
the selector when a run resumes, in this process or another one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from callgate._errors import UserError
from callgate.contract import Catalog, Tool, ToolCall
from callgate.dialects import Message

if TYPE_CHECKING:  # a type only: the loop does not load retrieval unless a selector is given
    from callgate.retrieval import ToolSelector

__all__ = ["check_selector", "offered", "restore", "reveal_called"]

_NAMED = 5
"""How many missing tool names an error message lists."""


def check_selector(selector: ToolSelector, catalog: Catalog) -> None:
    """Refuse a selector that could offer a tool the gate does not know.

    The model would see the tool and every call of it would come back `invalid`
    ("unknown tool"): a configuration mistake, better caught before the first turn.
    """
    names = dict.fromkeys([*selector.shown_names, *(t.name for t in selector.index)])
    missing = [name for name in names if name not in catalog]
    if missing:
        listed = ", ".join(missing[:_NAMED]) + (", ..." if len(missing) > _NAMED else "")
        raise UserError(
            f"the tool selector can offer {len(missing)} tool(s) the gate's "
            f"catalog does not hold ({listed}); add them to the catalog "
            "(a search_tool too: its calls go through the gate)"
        )


def offered(
    selector: ToolSelector, catalog: Catalog, messages: Sequence[Message], *, select: bool
) -> tuple[Tool, ...]:
    """The tools to send: the run's list after selecting for `messages` (if `select`).

    The catalog's own `Tool`s are sent, since they are what the gate validates against.
    A tool removed from the catalog after it was shown is left out: it can no longer be
    called, and offering it would only earn the model an "unknown tool".
    """
    shown = selector.for_messages(messages) if select else selector.shown
    return tuple(tool for tool in (catalog.resolve(t.name) for t in shown) if tool is not None)


def restore(selector: ToolSelector, catalog: Catalog, shown: Iterable[str]) -> None:
    """Give a resumed run's list back to the selector, in its saved order.

    The selector's own pinned tools come first, as they did when the run started. Tools
    the selector's filter now rejects (another principal, a stricter policy) stay hidden.
    """
    selector.reveal([tool for tool in map(catalog.resolve, shown) if tool is not None])


def reveal_called(selector: ToolSelector, calls: Iterable[ToolCall]) -> None:
    """Show the model the tools it called without having been shown them.

    Such a call is routed through the gate like any other (see `docs/loop.md`); showing the
    tool from the next turn on gives the model its schema for the next call (or for fixing
    an invalid one). The selector's filter still applies: a denied tool stays hidden.
    """
    found = [selector.index.get(call.name) for call in calls]
    selector.reveal([tool for tool in found if tool is not None])
