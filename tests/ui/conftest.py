"""The operator page's tests: without `callgate[server]` each module is skipped."""

from tests.conftest import installed, skip_modules_without

_NEEDED = ("starlette", "jinja2", "mcp", "httpx")
pytest_pycollect_makemodule = skip_modules_without(*_NEEDED, extra="server")
if installed(*_NEEDED):
    from tests.ui._fixtures import app, client, held

    __all__ = ["app", "client", "held"]
