"""Every test here runs real MCP servers or clients: without the SDK each module is skipped."""

from tests._extras import skip_modules_without

pytest_pycollect_makemodule = skip_modules_without("mcp", extra="mcp", what="the MCP SDK 2.x")
