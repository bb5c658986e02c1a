"""Domain errors: what a service refuses, in the player's words, with the HTTP status the web
layer answers with. Services raise them and know nothing of HTTP; the routes' layer turns
them into answers (``{"detail": message}`` with ``status``)."""


class DomainError(Exception):
    """A refusal with a message for the player; ``status`` is its HTTP status."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(DomainError):
    """There is no such thing (or the asker may not know of it)."""

    status = 404


class Forbidden(DomainError):
    """The asker may not do that."""

    status = 403


class BadRequest(DomainError):
    """The request cannot be done now, or as given."""

    status = 400


class Conflict(DomainError):
    """It clashes with what was just done."""

    status = 409
