"""The domain errors carry the status and the words the routes answer with. (Route functions are
held to a screen by tests/server/tables/test_shape.py; the services and the events' working modules
import no web framework: an import-linter contract in pyproject.toml.)"""

from __future__ import annotations

from boneyard.server.errors import DomainError, NotAllowed, NotFound, Refused


def test_domain_errors_carry_their_status_and_message() -> None:
    for cls, status in ((NotFound, 404), (NotAllowed, 403), (Refused, 400)):
        exc = cls("no such event")
        assert isinstance(exc, DomainError)
        assert (exc.status, exc.reason, str(exc)) == (status, "no such event", "no such event")
