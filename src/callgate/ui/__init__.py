"""The operator's page: the approvals inbox and the receipts journal in a browser.

    app = OperatorApp(store, credentials=load_settings("callgate.toml").credentials,
                      catalog=my_catalog)       # catalog: optional, for editing arguments
    await serve_ui(app, host="127.0.0.1", port=8766)      # or `callgate ui`
    asgi = mount_ui(other_asgi_app, app, prefix="/ui")     # beside the gateway

Server-rendered HTML (Starlette and Jinja2, the `server` extra, which brings the MCP SDK for
the gateway's clients), no script, every form protected against forgery.
"""

from callgate.ui._app import UI_PREFIX, OperatorApp, mount_ui
from callgate.ui._headers import CONTENT_SECURITY_POLICY
from callgate.ui._page import UISettings, loopback_hosts
from callgate.ui._serve import serve_ui
from callgate.ui._sessions import APPROVER_ROLE, AUDITOR_ROLE

__all__ = [
    "APPROVER_ROLE",
    "AUDITOR_ROLE",
    "CONTENT_SECURITY_POLICY",
    "UI_PREFIX",
    "OperatorApp",
    "UISettings",
    "loopback_hosts",
    "mount_ui",
    "serve_ui",
]
