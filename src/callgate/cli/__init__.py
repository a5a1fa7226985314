"""The `callgate` command line: a thin shell over the library."""

import gc as _gc
import typing as _typing

from callgate._lazy import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from callgate.cli._app import app

__all__ = ["app", "main"]


def main() -> None:
    """Run the `callgate` command (what the `callgate` script runs)."""
    # Starting a command builds only what lives to the process's end, typer's own import
    # included: the collector is off from here until the command is loaded (`_app.run`).
    # A caller in the same process (a test, a wrapper script) gets its own setting back,
    # and its heap: what the command froze (`_app.load_command`, `_app.run`) is unfrozen
    # unless the caller had frozen objects of its own, which `gc.unfreeze` cannot tell apart.
    enabled, threshold = _gc.isenabled(), _gc.get_threshold()
    frozen = _gc.get_freeze_count()
    _gc.disable()
    try:
        from callgate.cli._app import run

        run()
    finally:
        if not frozen:
            _gc.unfreeze()
        _gc.set_threshold(*threshold)
        (_gc.enable if enabled else _gc.disable)()


__getattr__, __dir__ = _lazy_exports("callgate.cli", globals(), {"app": "callgate.cli._app"})
