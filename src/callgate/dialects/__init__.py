"""Wire dialects: pure converters between callgate's canonical model and each model API.

    render_tools(catalog, dialect)          -> Rendered(payload, warnings, aliases)
    parse_response(dialect, response)       -> ParsedTurn(text, calls, state)
    stream_accumulator(dialect).feed(event) -> .result() -> ParsedTurn
    render_results(dialect, results)        -> messages to append
    read_messages / write_messages          <-> Transcript
    convert(messages, source=, target=)     -> Converted
    extract_calls(text, tools)              -> Extracted(text, calls, dropped)
    call_grammar(catalog)                   -> CallGrammar: .lark() .regex() .ebnf()

No function here does I/O; SDK objects are read when given, never required.
"""

from callgate.dialects._aliases import Aliases, make_aliases, name_ok
from callgate.dialects._api import parse_response, render_results
from callgate.dialects._convert import INTERRUPTED, Converted, convert
from callgate.dialects._errors import DialectError
from callgate.dialects._grammar import CallGrammar, Engine, GrammarGap, call_grammar
from callgate.dialects._kinds import ChoiceMode, Dialect, DialectWarning, ToolChoice
from callgate.dialects._model import Message, ParsedTurn, Rendered
from callgate.dialects._render import render_tools
from callgate.dialects._stream import StreamAccumulator, stream_accumulator
from callgate.dialects._text_extract import Extracted, extract_calls
from callgate.dialects._transcript import (
    Transcript,
    WireConversation,
    read_messages,
    write_messages,
)

__all__ = [
    "INTERRUPTED",
    "Aliases",
    "CallGrammar",
    "ChoiceMode",
    "Converted",
    "Dialect",
    "DialectError",
    "DialectWarning",
    "Engine",
    "Extracted",
    "GrammarGap",
    "Message",
    "ParsedTurn",
    "Rendered",
    "StreamAccumulator",
    "ToolChoice",
    "Transcript",
    "WireConversation",
    "call_grammar",
    "convert",
    "extract_calls",
    "make_aliases",
    "name_ok",
    "parse_response",
    "read_messages",
    "render_results",
    "render_tools",
    "stream_accumulator",
    "write_messages",
]
