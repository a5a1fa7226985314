"""The catalog: the tools a host offers, looked up by name, with compiled schemas."""

from __future__ import annotations

import difflib
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from callgate._errors import UnknownToolError, UserError
from callgate.contract._declaration import tool_from_declaration
from callgate.contract._tool import Executor, Tool
from callgate.schema import (
    HINT_MAX_CANDIDATES,
    HINT_MAX_CHARS,
    CompiledSchema,
    SchemaCompiler,
    check,
    closest,
    defaults_filler,
    example_for,
    hint_key,
)

__all__ = ["Catalog", "CompiledTool"]

_shared_compiler = SchemaCompiler()


@dataclass(frozen=True, kw_only=True, slots=True)
class CompiledTool:
    """A tool with its schemas compiled once, at registration."""

    tool: Tool
    input: CompiledSchema
    output: CompiledSchema | None
    example: Any
    """A valid argument object to show a model that got the arguments wrong (or None)."""
    fill_defaults: Callable[[Any], Any]
    """Adds the declared defaults to a validated argument object, in place."""


class Catalog:
    """An ordered set of tools with unique names.

    Schemas are compiled when a tool is added, so a broken schema fails at startup
    rather than on the first call.
    """

    def __init__(
        self,
        tools: Iterable[Tool] = (),
        *,
        compiler: SchemaCompiler | None = None,
        trusted_values: Iterable[str] = (),
    ) -> None:
        self.trusted_values: tuple[str, ...] = _texts(trusted_values)
        """Texts whoever made the catalog vouches for (its own hosts, mailboxes, accounts):
        a gate over the catalog adds them to `UntrustedResults.trusted_values`."""
        self._compiler = compiler or _shared_compiler
        self._entries: dict[str, CompiledTool] = {}
        self.exact: Callable[[str], CompiledTool | None] = self._entries.get
        """The compiled tool of exactly this name, or None: the lookup itself (a bound
        `dict.get`, no Python frame), for the call's path; `compiled` also reads a dotted
        name. The mapping is changed in place, never replaced, so it stays current."""
        self._by_key: dict[str, str] = {}
        """`hint_key` of each name -> the name: did-you-mean in catalogs of any size."""
        self._lock = threading.Lock()
        for item in tools:
            self.add(item)

    @classmethod
    def from_declarations(
        cls,
        declarations: Iterable[Mapping[str, Any]],
        executors: Mapping[str, Executor] | None = None,
        **options: Any,
    ) -> Catalog:
        """A catalog from declaration dicts of any dialect; executors are matched by name.

        A declaration the library cannot use raises `UserError` naming its position.
        """
        if isinstance(declarations, Mapping | str | bytes) or not isinstance(
            declarations, Iterable
        ):
            raise UserError(
                "Catalog.from_declarations expects a list of declarations, got "
                f"{type(declarations).__name__}"
            )
        executors = executors or {}
        tools = []
        for i, decl in enumerate(declarations):
            try:
                made = tool_from_declaration(decl, **options)
            except UserError as exc:
                raise UserError(f"declaration [{i}]: {exc}") from exc
            source = made.metadata.get("source_name", made.name)
            fn = executors.get(made.name) or executors.get(source)
            tools.append(made if fn is None else _with_executor(made, fn))
        return cls(tools)

    def add(self, tool: Tool, *, replace: bool = False) -> Tool:
        """Register `tool`; a second tool with the same name is an error unless `replace`."""
        if not isinstance(tool, Tool):
            raise UserError(
                f"Catalog.add expects a Tool, got {type(tool).__name__} "
                "(decorate the function with @tool)"
            )
        entry = self._compile(tool)
        with self._lock:
            if tool.name in self._entries and not replace:
                raise UserError(
                    f"a tool named {tool.name!r} is already registered; "
                    "remove it first or pass replace=True"
                )
            self._entries[tool.name] = entry
            self._by_key.setdefault(hint_key(tool.name), tool.name)
        return tool

    register = add

    def remove(self, name: str) -> Tool:
        """Unregister the tool called `name` and return it."""
        with self._lock:
            entry = self._entries.pop(name, None)
            self._by_key = {hint_key(n): n for n in reversed(self._entries)}
        if entry is None:
            raise UnknownToolError(name, self.suggest(name))
        return entry.tool

    unregister = remove

    def resolve(self, name: str) -> Tool | None:
        """The tool a model means by `name` (a dotted group name finds its `_` form)."""
        entry = self.compiled(name)
        return entry.tool if entry else None

    def compiled(self, name: str) -> CompiledTool | None:
        entry = self._entries.get(name)
        if entry is None and "." in name:
            entry = self._entries.get(name.replace(".", "_"))
        return entry

    def get(self, name: str) -> Tool:
        """The tool called `name`; `UnknownToolError` with did-you-mean candidates otherwise."""
        found = self.resolve(name)
        if found is None:
            raise UnknownToolError(name, self.suggest(name))
        return found

    def suggest(self, name: str, n: int = 3) -> tuple[str, ...]:
        """Names a model most likely meant by `name`, best first.

        Bounded work: in a catalog of more than `HINT_MAX_CANDIDATES` tools, or for a name
        longer than `HINT_MAX_CHARS`, only a name equal up to case, `_` and `-` is offered.
        """
        if not isinstance(name, str) or len(name) > HINT_MAX_CHARS:
            return ()
        names = list(self._entries)
        if len(names) > HINT_MAX_CANDIDATES:
            found = self._by_key.get(hint_key(name))
            return (found,) if found else ()
        out: list[str] = []
        best = closest(name, names)
        if best is not None:
            out.append(best)
        out += difflib.get_close_matches(name, names, n=n, cutoff=0.5)
        return tuple(dict.fromkeys(out))[:n]

    def in_namespace(self, namespace: str) -> list[Tool]:
        return [e.tool for e in self._entries.values() if e.tool.namespace == namespace]

    def replacement_for(self, name: str) -> Tool | None:
        """The current tool to use in place of a deprecated one, following chains."""
        seen: set[str] = set()
        current = self.resolve(name)
        while current is not None and current.deprecated and current.replacement:
            if current.name in seen:
                return None
            seen.add(current.name)
            current = self.resolve(current.replacement)
        return current if current is not None and current.name != name else None

    @property
    def names(self) -> list[str]:
        return list(self._entries)

    def __iter__(self) -> Iterator[Tool]:
        return iter([e.tool for e in self._entries.values()])

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.resolve(name) is not None

    def __repr__(self) -> str:
        return f"Catalog({len(self)} tools)"

    def _compile(self, tool: Tool) -> CompiledTool:
        try:
            compiled = self._compiler.compile(tool.input_schema)
            output = self._compiler.compile(tool.output_schema) if tool.output_schema else None
        except UserError as exc:
            raise UserError(f"tool {tool.name!r}: {exc}") from exc
        example = next((dict(e) for e in tool.examples if not check(compiled, dict(e))), None)
        if example is None:
            example = example_for(tool.input_schema, compiled.is_valid)
        return CompiledTool(
            tool=tool,
            input=compiled,
            output=output,
            example=example,
            fill_defaults=defaults_filler(tool.input_schema),
        )


def _texts(values: Iterable[str]) -> tuple[str, ...]:
    """`values` as a tuple of texts; one bare text is refused (else read letter by letter)."""
    if isinstance(values, str | bytes):
        raise UserError(f"trusted_values is a collection of texts: [{values!r}]")
    texts = tuple(values)
    odd = [v for v in texts if not isinstance(v, str)]
    if odd:
        raise UserError(f"trusted_values holds texts, not {type(odd[0]).__name__} {odd[0]!r}")
    return texts


def _with_executor(tool: Tool, executor: Executor) -> Tool:
    from dataclasses import replace

    return replace(tool, executor=executor)
