"""Read catalogs from files, folders, Python modules or objects into `ToolEntry`s.

Accepted JSON shapes, at any nesting the file uses: a plain list of declarations (OpenAI,
Anthropic, Gemini, MCP, legacy `arguments`), an MCP `tools/list` result or JSON-RPC
response, a request body with `tools`, Gemini `functionDeclarations`, BFCL question files
(JSON Lines whose lines carry a `function` list) and LiveMCPBench server files (servers
whose `tools` map server names to `tools/list` results).

Files are untrusted input: a file that is not a regular file (a named pipe, a device),
is not UTF-8, is empty, is not JSON, holds no declaration objects, or nests deeper than
`MAX_DEPTH` is a `UserError` naming the file.
Folders are read at any depth; what a folder holds besides catalog files is listed in
`LoadedCatalog.skipped` with the reason, and a catalog file in it that cannot be read is
skipped as well and reported as a C006 finding.
"""

from __future__ import annotations

import importlib
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Any

from callgate._errors import UserError
from callgate._files import read_bytes
from callgate.contract import Catalog, Tool
from callgate.lint._entry import ToolEntry, entry_from_declaration, entry_from_tool
from callgate.lint._finding import Finding, Location, Severity
from callgate.lint._walk import join
from callgate.schema import canonical_json

__all__ = [
    "MAX_DEPTH",
    "CatalogSource",
    "FileProgress",
    "LoadedCatalog",
    "SkippedPath",
    "catalog_files",
    "load_catalog",
    "read_json",
]

MAX_DEPTH = 128
"""Nesting levels of arrays and objects a catalog file may have (declarations use a dozen)."""

_MODULE_SPEC = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")
_SUFFIXES = (".json", ".jsonl")

FileProgress = Callable[[str, int, int], None]
"""Told (path, number, total) before each file of a folder is read."""


@dataclass(frozen=True, kw_only=True, slots=True)
class SkippedPath:
    """A file or folder under a catalog folder that was not read, and why."""

    path: str
    reason: str


@dataclass(frozen=True, kw_only=True, slots=True)
class LoadedCatalog:
    """The declarations of one or more sources, and those that could not be read."""

    source: str
    entries: tuple[ToolEntry, ...]
    problems: tuple[Finding, ...] = ()
    """Declarations that could not be read at all (rule C006)."""
    skipped: tuple[SkippedPath, ...] = ()
    """What a folder held that was not read (other files, hidden or linked entries, and
    catalog files that could not be read)."""

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[ToolEntry]:
        return iter(self.entries)


CatalogSource = (
    str | os.PathLike[str] | Catalog | LoadedCatalog | Iterable[Tool | Mapping[str, Any]]
)
"""A path (file or folder), `module:attr`, a `Catalog`, or an iterable of tools/declarations."""


def load_catalog(source: CatalogSource, *, on_file: FileProgress | None = None) -> LoadedCatalog:
    """Read `source` into entries; a declaration that cannot be read becomes a C006 finding.
    `on_file` hears of each file of a folder before it is read (for a progress display)."""
    if isinstance(source, LoadedCatalog):
        return source
    if isinstance(source, str | os.PathLike):
        return _load_spec(os.fspath(source), on_file)
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
        skipped=tuple(s for c in items for s in c.skipped),
    )


def _load_spec(spec: str, on_file: FileProgress | None) -> LoadedCatalog:
    path = Path(spec)
    if path.is_dir():
        return _load_folder(path, on_file)
    if path.is_file():
        return _load_file(path)
    if _MODULE_SPEC.match(spec):
        return _load_module(spec)
    if path.exists():
        raise UserError(f"catalog {spec!r} is neither a file nor a folder")
    raise UserError(
        f"catalog {spec!r}: no such file or folder (a Python catalog is written module:attribute)"
    )


def catalog_files(folder: Path) -> tuple[list[Path], list[SkippedPath]]:
    """The `.json` and `.jsonl` files under `folder`, at any depth, in name order; and what
    was left out, with the reason (hidden entries, other kinds of file, linked folders)."""
    files: list[Path] = []
    skipped: list[SkippedPath] = []
    for root, dirs, names in os.walk(folder, followlinks=False):
        here = Path(root)
        kept = []
        for name in sorted(dirs):
            if name.startswith("."):
                skipped.append(SkippedPath(path=str(here / name), reason="hidden folder"))
            elif (here / name).is_symlink():
                reason = "link to a folder (not followed)"
                skipped.append(SkippedPath(path=str(here / name), reason=reason))
            else:
                kept.append(name)
        dirs[:] = kept  # os.walk descends into what is left, in this order
        for name in sorted(names):
            file = here / name
            if name.startswith("."):
                skipped.append(SkippedPath(path=str(file), reason="hidden file"))
            elif file.suffix not in _SUFFIXES:
                skipped.append(SkippedPath(path=str(file), reason="not a .json or .jsonl file"))
            else:
                files.append(file)
    return sorted(files), skipped


def _load_folder(folder: Path, on_file: FileProgress | None) -> LoadedCatalog:
    files, skipped = catalog_files(folder)
    if not files:
        raise UserError(
            f"folder {str(folder)!r} holds no .json or .jsonl files"
            + (f" ({len(skipped)} other entries skipped)" if skipped else "")
        )
    loaded = []
    for number, file in enumerate(files, start=1):
        if on_file is not None:
            on_file(str(file), number, len(files))
        group = file.relative_to(folder).with_suffix("").as_posix()
        try:
            loaded.append(_load_file(file, group=group))
        except UserError as exc:
            # One unreadable file must not hide the others, nor pass unnoticed: it is
            # skipped and reported at high severity (a model may well read what it holds).
            skipped.append(SkippedPath(path=str(file), reason=str(exc)))
            loaded.append(_unreadable(file, str(exc)))
    merged = merge(loaded)
    return LoadedCatalog(
        source=str(folder),
        entries=merged.entries,
        problems=merged.problems,
        skipped=tuple(sorted(skipped, key=lambda s: s.path)),
    )


def _unreadable(file: Path, reason: str) -> LoadedCatalog:
    problem = Finding(
        rule="C006",
        severity=Severity.HIGH,
        message=reason,
        location=Location(tool=f"<{file.name}>", source=str(file)),
        hint="fix or remove the file: what could not be read was not checked",
    )
    return LoadedCatalog(source=str(file), entries=(), problems=(problem,))


def _load_module(spec: str) -> LoadedCatalog:
    module_name, _, attr = spec.partition(":")
    try:
        value: Any = importlib.import_module(module_name)
    except Exception as exc:  # the module is the user's code: any failure to import it
        raise UserError(
            f"cannot import {module_name!r} for catalog {spec!r}: {type(exc).__name__}: {exc}"
        ) from exc
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


def read_json(path: str | os.PathLike[str]) -> Any:
    """The JSON document in `path`; a `UserError` naming the file when it cannot be read,
    is not UTF-8, is empty, is not JSON, or nests deeper than `MAX_DEPTH`."""
    where = os.fspath(path)
    text = _read_text(Path(path))
    if not text.strip():
        raise UserError(f"{where}: the file is empty")
    try:
        return _parse(text, where)
    except json.JSONDecodeError as exc:
        raise UserError(f"{where}: not valid JSON ({_position(exc)})") from None


def _read_text(path: Path) -> str:
    try:
        data = read_bytes(path)
    except OSError as exc:
        raise UserError(f"cannot read {str(path)!r}: {exc.strerror or exc}") from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UserError(
            f"{path}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "the file should be JSON"
        ) from None


def _parse(text: str, where: str) -> Any:
    """`json.loads`, bounded: too deep, too long a number and NaN are `UserError`s."""
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise UserError(f"{where}: nested deeper than {MAX_DEPTH} levels") from None
    except json.JSONDecodeError:
        raise
    except ValueError as exc:  # an integer longer than Python converts, or NaN
        raise UserError(f"{where}: {exc}") from None
    # Nesting can only be as deep as there are brackets; most files skip the count.
    if text.count("{") + text.count("[") > MAX_DEPTH and _depth(text) > MAX_DEPTH:
        raise UserError(f"{where}: nested deeper than {MAX_DEPTH} levels")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _depth(text: str) -> int:
    """How deep the objects and arrays of `text` (JSON that parsed) nest: its brackets
    outside strings, counted in C rather than by a walk over what they built."""
    steps = map(_STEP.__getitem__, _BRACKET.findall(_STRING.sub("", text)))
    return max(accumulate(steps), default=0)


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_BRACKET = re.compile(r"[\[\]{}]")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def _position(exc: json.JSONDecodeError) -> str:
    return f"{exc.msg} at line {exc.lineno}, column {exc.colno}"


def _documents(path: Path) -> list[tuple[Any, int | None]]:
    """The file as one JSON document, or else as JSON Lines (one document a line)."""
    text = _read_text(path)
    if not text.strip():
        raise UserError(f"{path}: the file is empty")
    try:
        return [(_parse(text, str(path)), None)]
    except json.JSONDecodeError as whole:
        documents: list[tuple[Any, int | None]] = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                documents.append((_parse(line, f"{path}:{number}"), number))
            except json.JSONDecodeError as exc:
                if not documents:  # not JSON Lines either: the document's error says more
                    raise UserError(f"{path}: not valid JSON ({_position(whole)})") from None
                raise UserError(f"{path}:{number}: not valid JSON Lines ({exc.msg})") from None
        return documents


def _load_file(path: Path, group: str | None = None) -> LoadedCatalog:
    entries: list[ToolEntry] = []
    problems: list[Finding] = []
    seen: set[str] = set()
    found = [
        (decl, pointer, decl_group, server, line)
        for document, line in _documents(path)
        # A file's group is not a server: only a source that names servers says so.
        for decl, pointer, decl_group, server in _declarations(document, "", group, None)
    ]
    if found and not any(isinstance(decl, Mapping) for decl, *_ in found):
        kinds = " and ".join(sorted({_kind(decl) for decl, *_ in found}))
        raise UserError(
            f"{path}: holds no tool declarations (only JSON {kinds} values, no object); "
            "expected a list of declarations or an object with 'tools'"
        )
    for decl, pointer, decl_group, server, line in found:
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


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return "string" if isinstance(value, str) else "array"


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
