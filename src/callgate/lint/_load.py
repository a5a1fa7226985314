"""Read catalogs from files, folders, Python modules or objects into `ToolEntry`s.

Accepted JSON shapes, at any nesting the file uses: a plain list of declarations (OpenAI,
Anthropic, Gemini, MCP, legacy `arguments`), an MCP `tools/list` result or JSON-RPC
response, a request body with `tools`, Gemini `functionDeclarations`, BFCL question files
(JSON Lines whose lines carry a `function` list) and LiveMCPBench server files (servers
whose `tools` map server names to `tools/list` results).
"""

from __future__ import annotations

import importlib
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from callgate._errors import UserError
from callgate.contract import Catalog, Tool
from callgate.lint._entry import ToolEntry, entry_from_declaration, entry_from_tool
from callgate.lint._finding import Finding, Location, Severity
from callgate.lint._walk import join
from callgate.schema import canonical_json

__all__ = ["CatalogSource", "LoadedCatalog", "load_catalog"]

_MODULE_SPEC = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")


@dataclass(frozen=True, kw_only=True, slots=True)
class LoadedCatalog:
    """The declarations of one or more sources, and those that could not be read."""

    source: str
    entries: tuple[ToolEntry, ...]
    problems: tuple[Finding, ...] = ()
    """Declarations that could not be read at all (rule C006)."""

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[ToolEntry]:
        return iter(self.entries)


CatalogSource = (
    str | os.PathLike[str] | Catalog | LoadedCatalog | Iterable[Tool | Mapping[str, Any]]
)
"""A path (file or folder), `module:attr`, a `Catalog`, or an iterable of tools/declarations."""


def load_catalog(source: CatalogSource) -> LoadedCatalog:
    """Read `source` into entries; a declaration that cannot be read becomes a C006 finding."""
    if isinstance(source, LoadedCatalog):
        return source
    if isinstance(source, str | os.PathLike):
        return _load_spec(os.fspath(source))
    if isinstance(source, Catalog):
        return LoadedCatalog(source=repr(source), entries=tuple(entry_from_tool(t) for t in source))
    # Declaration dicts may well be an upstream server's tools/list: not trusted.
    return _from_objects(source, "<objects>", trusted=False)


def merge(catalogs: Iterable[LoadedCatalog], *, dedupe: bool = False) -> LoadedCatalog:
    """One catalog from several sources, in order; with `dedupe`, a declaration identical
    to an earlier one (same JSON) is read once (BFCL repeats docs across files)."""
    items = list(catalogs)
    entries = [e for c in items for e in c.entries]
    if dedupe:
        seen: set[str] = set()
        unique = []
        for entry in entries:
            key = canonical_json(entry.raw)
            if key not in seen:
                seen.add(key)
                unique.append(entry)
        entries = unique
    return LoadedCatalog(
        source=", ".join(c.source for c in items),
        entries=tuple(entries),
        problems=tuple(p for c in items for p in c.problems),
    )


def _load_spec(spec: str) -> LoadedCatalog:
    path = Path(spec)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix in (".json", ".jsonl"))
        return merge(_load_file(p, group=p.stem) for p in files)
    if path.is_file():
        return _load_file(path)
    if _MODULE_SPEC.match(spec):
        return _load_module(spec)
    raise UserError(f"catalog {spec!r} is neither a file, a folder nor 'module:attribute'")


def _load_module(spec: str) -> LoadedCatalog:
    module_name, _, attr = spec.partition(":")
    try:
        value: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise UserError(f"cannot import {module_name!r} for catalog {spec!r}: {exc}") from exc
    for part in attr.split("."):
        if not hasattr(value, part):
            raise UserError(f"{module_name!r} has no attribute {attr!r}")
        value = getattr(value, part)
    if isinstance(value, Catalog):
        return LoadedCatalog(
            source=spec, entries=tuple(entry_from_tool(t, source=spec) for t in value)
        )
    if isinstance(value, Tool):
        value = [value]
    if not isinstance(value, list | tuple):
        raise UserError(
            f"{spec!r} is a {type(value).__name__}; expected a Catalog or a list of tools"
        )
    return _from_objects(value, spec, trusted=False)


def _from_objects(
    items: Iterable[Tool | Mapping[str, Any]], source: str, *, trusted: bool
) -> LoadedCatalog:
    entries: list[ToolEntry] = []
    problems: list[Finding] = []
    for index, item in enumerate(items):
        if isinstance(item, Tool):
            entries.append(entry_from_tool(item, source=source))
            continue
        _read(
            item,
            entries,
            problems,
            source=source,
            pointer=f"/{index}",
            line=None,
            group=None,
            trusted=trusted,
        )
    return LoadedCatalog(source=source, entries=tuple(entries), problems=tuple(problems))


def _load_file(path: Path, group: str | None = None) -> LoadedCatalog:
    text = path.read_text(encoding="utf-8")
    entries: list[ToolEntry] = []
    problems: list[Finding] = []
    try:
        documents: list[tuple[Any, int | None]] = [(json.loads(text), None)]
    except json.JSONDecodeError:
        documents = list(_json_lines(path, text))
    seen: set[str] = set()
    for document, line in documents:
        found = _declarations(document, "", group, group)
        for decl, pointer, decl_group, server in found:
            if line is not None:
                # BFCL repeats the same function doc on many lines: read each doc once.
                key = canonical_json(decl) if isinstance(decl, Mapping) else repr(decl)
                if key in seen:
                    continue
                seen.add(key)
            _read(
                decl,
                entries,
                problems,
                source=str(path),
                pointer=pointer,
                line=line,
                group=decl_group,
                server=server,
                trusted=False,
            )
    return LoadedCatalog(source=str(path), entries=tuple(entries), problems=tuple(problems))


def _json_lines(path: Path, text: str) -> Iterator[tuple[Any, int]]:
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield json.loads(line), number
        except json.JSONDecodeError as exc:
            raise UserError(f"{path}:{number}: not JSON and not JSON Lines: {exc}") from exc


def _declarations(
    doc: Any, pointer: str, group: str | None, server: str | None
) -> Iterator[tuple[Any, str, str | None, str | None]]:
    """(declaration, pointer, group, server) for every tool the document holds."""
    if isinstance(doc, list):
        for i, item in enumerate(doc):
            yield from _declarations(item, join(pointer, i), group, server)
        return
    if not isinstance(doc, Mapping):
        yield doc, pointer, group, server
        return
    if isinstance(doc.get("result"), Mapping) and "jsonrpc" in doc:
        yield from _declarations(doc["result"], join(pointer, "result"), group, server)
    elif isinstance(doc.get("function"), list):  # a BFCL question line: a group, no server
        line_group = doc.get("id") if isinstance(doc.get("id"), str) else group
        yield from _declarations(doc["function"], join(pointer, "function"), line_group, server)
    elif isinstance(doc.get("functionDeclarations"), list):
        yield from _declarations(
            doc["functionDeclarations"], join(pointer, "functionDeclarations"), group, server
        )
    elif isinstance(doc.get("tools"), Mapping):  # a LiveMCPBench server: {server: tools/list}
        for name, listing in doc["tools"].items():
            inner = listing.get("tools") if isinstance(listing, Mapping) else None
            where = join(pointer, "tools", name)
            if isinstance(inner, list):
                yield from _declarations(inner, join(where, "tools"), str(name), str(name))
    elif isinstance(doc.get("tools"), list) and "name" not in doc:
        yield from _declarations(doc["tools"], join(pointer, "tools"), group, server)
    else:
        yield doc, pointer, group, server


def _read(
    decl: Any,
    entries: list[ToolEntry],
    problems: list[Finding],
    *,
    source: str,
    pointer: str,
    line: int | None,
    group: str | None,
    trusted: bool,
    server: str | None = None,
) -> None:
    try:
        entries.append(
            entry_from_declaration(
                decl,
                source=source,
                source_pointer=pointer,
                line=line,
                group=group,
                server=server,
                trusted=trusted,
            )
        )
    except UserError as exc:
        name = decl.get("name") if isinstance(decl, Mapping) else None
        problems.append(
            Finding(
                rule="C006",
                severity=Severity.HIGH,
                message=str(exc),
                location=Location(
                    tool=name if isinstance(name, str) else f"#{pointer}",
                    source=source,
                    source_pointer=pointer,
                    line=line,
                    group=group,
                ),
                hint="give the declaration a 'name', a 'description' and an object input schema",
            )
        )
