"""A request the page refuses, with the status and the words the person sees."""

from __future__ import annotations

__all__ = ["Refused", "SignInNeeded"]


class Refused(Exception):
    """Answered with `status` and an error page that says `message`."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class SignInNeeded(Exception):
    """No live session: a page view goes to the sign-in form, a form post is refused."""
