"""The typer application; each command group lives in a module of its own."""

from __future__ import annotations

import importlib

import typer

__all__ = ["app", "main"]

app = typer.Typer(
    name="callgate",
    help="Validate, authorize, approve, execute once, verify and record tool calls.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Each module exposes `register(app)`. A module that is not part of this build is skipped
# so that the command line works with whichever command groups are present.
_COMMAND_MODULES = (
    "callgate.cli._lint",
    "callgate.cli._search",
    "callgate.cli._approvals",
    "callgate.cli._receipts",
    "callgate.cli._run",
    "callgate.cli._serve",
)


def _register_all() -> None:
    for name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(app)


@app.callback()
def _root() -> None:
    """callgate: the host side of tool calling."""


@app.command()
def version() -> None:
    """Print the installed version."""
    from callgate import __version__

    typer.echo(__version__)


_register_all()


def main() -> None:
    app()
