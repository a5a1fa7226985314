"""Wire dialects: pure converters between callgate's canonical model and each model API.

    render_tools(catalog, dialect)      -> Rendered(payload, warnings, aliases)
    parse_response(dialect, response)   -> ParsedTurn(text, calls, state)
    render_results(dialect, results)    -> messages to append

No function here does I/O; SDK objects are read when given, never required.
"""

from callgate.dialects._aliases import Aliases, make_aliases, name_ok
from callgate.dialects._api import parse_response, render_results
from callgate.dialects._errors import DialectError
from callgate.dialects._kinds import ChoiceMode, Dialect, DialectWarning, ToolChoice
from callgate.dialects._model import Message, ParsedTurn, Rendered
from callgate.dialects._render import render_tools

__all__ = [
    "Aliases",
    "ChoiceMode",
    "Dialect",
    "DialectError",
    "DialectWarning",
    "Message",
    "ParsedTurn",
    "Rendered",
    "ToolChoice",
    "make_aliases",
    "name_ok",
    "parse_response",
    "render_results",
    "render_tools",
]
