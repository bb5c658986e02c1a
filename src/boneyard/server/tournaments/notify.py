"""Notifications: a person is told when their match is ready, a game of theirs ended, or the
director acted on their match — on the site (the bell, ``GET /api/me/notifications``), in the
browser (the page asks for the Notification API only when the person turns it on), and by
e-mail when the site has SMTP settings and the person gave an address and asked for it.

Rows are added in the transaction of what they announce; the mailer wakes when that commits
and sends the queued ones in a worker thread (smtplib), marking each ``sent``, ``failed`` (with
the reason) or ``skipped`` (no address, or not wanted). A failure is never retried in a loop.
"""

import asyncio
import logging
import re
import smtplib
from collections.abc import Iterable
from email.message import EmailMessage

from boneyard.server.settings import SiteSettings
from boneyard.server.tables.clock import now
from boneyard.server.tournaments.background import Periodic
from boneyard.server.tournaments.viewtypes import NoteView, PrefsView
from boneyard.store import notifications, unit
from boneyard.store.db import AsyncSession, async_sessionmaker
from boneyard.store.statuses import MailStatus
from boneyard.store.tournaments import Notification, NotifyPrefs

log = logging.getLogger("boneyard.tournaments.notify")

EMAIL = re.compile(r"^[^@\s\x00-\x1f]{1,64}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,24}$")
OFF = "turn these e-mails off on your profile page"
POLL = 30.0
"""Seconds between the mailer's looks when nothing woke it (another process's rows)."""


def send_mail(cfg: SiteSettings, to: str, subject: str, body: str) -> None:
    """Send one e-mail through the site's SMTP server (blocking: run in a thread)."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = cfg.smtp_from, to, subject
    msg.set_content(body)
    assert cfg.smtp_host is not None
    smtp = smtplib.SMTP_SSL if cfg.smtp_security == "ssl" else smtplib.SMTP
    with smtp(cfg.smtp_host, cfg.smtp_port, timeout=20) as server:
        if cfg.smtp_security == "starttls":
            server.starttls()
        if cfg.smtp_user:
            server.login(cfg.smtp_user, cfg.smtp_password or "")
        server.send_message(msg)


class Notes:
    """Notifications of one site: adding them, the mailer, the routes."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], cfg: SiteSettings) -> None:
        self.sessions = sessions
        self.cfg = cfg
        # (after a failure, the database or the mail server is down: the next look is later)
        self.mailer = Periodic("sending notification e-mails", self._send_all, retry=POLL, log=log)

    async def add(
        self,
        db: AsyncSession,
        user_ids: Iterable[int],
        kind: str,
        title: str,
        body: str | None = None,
        url: str | None = None,
        event_id: str | None = None,
    ) -> None:
        """Tell each of ``user_ids`` (in ``db``'s transaction; e-mail after the commit)."""
        mail = "queued" if self.cfg.smtp_host else None
        for uid in dict.fromkeys(user_ids):
            unit.add(
                db,
                Notification(
                    user_id=uid,
                    kind=kind,
                    title=title[:160],
                    body=(body or "")[:500] or None,
                    url=url,
                    event_id=event_id,
                    created_at=now(),
                    mail=mail,
                ),
            )
        if mail:
            unit.after_commit(db, self.mailer.wake)

    # -- the mailer -------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the mailer (only when the site has SMTP settings)."""
        if self.cfg.smtp_host:
            self.mailer.start()

    async def close(self) -> None:
        """Stop the mailer."""
        await self.mailer.stop()

    async def _send_all(self) -> float:
        while await self.send_queued():
            pass
        return POLL

    async def send_queued(self, batch: int = 20) -> int:
        """Send (or skip) up to ``batch`` queued e-mails; returns how many were handled."""
        async with self.sessions() as db, db.begin():
            rows = await notifications.queued_mails(db, batch)
            for n, prefs in rows:
                n.mail = MailStatus.SKIPPED
                if prefs is not None and prefs.by_email and prefs.email:
                    n.mail = MailStatus.SENDING
        for n, prefs in rows:
            if n.mail != "sending":
                continue
            link = f"{self.cfg.site_url.rstrip('/')}{n.url or ''}"
            text = f"{n.title}\n\n{n.body or ''}\n\n{link}\n\n-- Boneyard ({OFF})"
            try:
                await asyncio.to_thread(send_mail, self.cfg, str(prefs.email), n.title, text)
                n.mail, n.mail_error = MailStatus.SENT, None
            except (OSError, smtplib.SMTPException, ValueError) as exc:
                n.mail, n.mail_error = MailStatus.FAILED, f"{type(exc).__name__}: {exc}"[:200]
                log.warning("e-mail to user %s failed: %s", n.user_id, exc)
            async with self.sessions() as db, db.begin():
                await notifications.note_mail(db, n.id, n.mail, n.mail_error)
        return len(rows)


def note_json(n: Notification) -> NoteView:
    """A notification for the bell."""
    return {
        "id": n.id,
        "kind": n.kind,
        "title": n.title,
        "body": n.body,
        "url": n.url,
        "event": n.event_id,
        "at": n.created_at.isoformat(),
        "read": n.read_at is not None,
    }


def prefs_json(p: NotifyPrefs | None, smtp: bool) -> PrefsView:
    """A person's e-mail settings."""
    return {
        "email": p.email if p else None,
        "by_email": bool(p and p.by_email),
        "site_sends_email": smtp,
    }
