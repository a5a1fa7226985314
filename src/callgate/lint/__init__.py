"""Catalog quality: contract lint, version diff, poisoning scan and pins.

    lint(catalog)                 contract-quality findings (rules N, D, P, C)
    scan(catalog, pins=...)       poisoning findings (rules S) and pin changes (rules X)
    diff_catalogs(old, new)       breaking / compatible / review changes between versions
    pin_catalog(catalog)          a `Lockfile` of fingerprints; `check_pins` compares

A catalog is a path (JSON or JSON Lines file of any dialect, or a folder of them),
`module:attr`, a `Catalog`, or an iterable of `Tool`s or declaration dicts; tools of
separate MCP servers are stated with `load_servers({name: catalog})`. Everything here is
offline and deterministic.
"""

from callgate.lint._diff import Change, ChangeKind, DiffReport, compare_schemas, diff_catalogs
from callgate.lint._entry import ToolEntry, entry_from_declaration, entry_from_tool
from callgate.lint._finding import Finding, LintRule, Location, RuleKind, Severity
from callgate.lint._lint import lint
from callgate.lint._load import CatalogSource, LoadedCatalog, load_catalog
from callgate.lint._load import merge as merge_catalogs
from callgate.lint._pins import (
    Lockfile,
    PinChange,
    PinnedTool,
    PinReport,
    check_pins,
    pin_catalog,
    pin_key,
)
from callgate.lint._registry import RULES, rules, rules_markdown, selection
from callgate.lint._render import render_diff, render_report
from callgate.lint._report import Report
from callgate.lint._sarif import to_sarif
from callgate.lint._scan import scan, scan_result, scan_text
from callgate.lint._scan_site import ScanHit
from callgate.lint._servers import load_servers

__all__ = [
    "RULES",
    "CatalogSource",
    "Change",
    "ChangeKind",
    "DiffReport",
    "Finding",
    "LintRule",
    "LoadedCatalog",
    "Location",
    "Lockfile",
    "PinChange",
    "PinReport",
    "PinnedTool",
    "Report",
    "RuleKind",
    "ScanHit",
    "Severity",
    "ToolEntry",
    "check_pins",
    "compare_schemas",
    "diff_catalogs",
    "entry_from_declaration",
    "entry_from_tool",
    "lint",
    "load_catalog",
    "load_servers",
    "merge_catalogs",
    "pin_catalog",
    "pin_key",
    "render_diff",
    "render_report",
    "rules",
    "rules_markdown",
    "scan",
    "scan_result",
    "scan_text",
    "selection",
    "to_sarif",
]
