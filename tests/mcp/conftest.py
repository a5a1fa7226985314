"""Every test here runs real MCP servers or clients: without the SDK each module is skipped."""

from tests.conftest import skip_modules_without

pytest_pycollect_makemodule = skip_modules_without("mcp", extra="mcp")
