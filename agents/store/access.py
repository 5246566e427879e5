"""Who may see and do what in which data room: roles, per-room access lists, and a store scoped to one user.

Roles: an admin (listed in settings `auth.admins`, or local single-user mode) sees every room, creates rooms
and grants access; a reviewer of a room reads it and records decisions, memo edits and runs; a viewer of a
room reads it only. Anyone else learns nothing about the room, not even that it exists.

The app never holds the bare ReviewStore for a signed-in user: it holds `ScopedStore(store, user)`, which
checks every call against the room the call touches (found from its run or finding, never from the caller's
word), refuses what the user's role does not allow, and writes the user's identity as the author of every
decision and edit whatever the caller passed.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any

from core.types import utcnow

ROLES = ("reviewer", "viewer")  # per-room roles; admin is global
NO_ACCESS = ("No access: this data room does not exist or you have not been given access to it. "
             "Ask an admin of this installation to grant it.")


class AccessDenied(PermissionError):
    """The signed-in user may not do this; the message is safe to show (it names no room the user cannot see)."""


@dataclass(frozen=True)
class Principal:
    """The person acting: `user` is the verified e-mail (or the configured name in local mode)."""

    user: str
    admin: bool = False


class AccessMixin:
    """Access lists in the review store. Needs `_q`, `_tx` from ReviewStore."""

    def grant(self, room: str, user: str, role: str, by: Principal) -> None:
        """Give `user` the role `reviewer` or `viewer` on `room` (replacing any earlier one). Admins only."""
        if not by.admin:
            raise AccessDenied("Only an admin can grant access to a data room.")
        if role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, not {role!r}")
        user = normalise(user)
        if not user:
            raise ValueError("give the e-mail address of the person to grant access to")
        now = utcnow().isoformat()
        self._tx([
            ("INSERT INTO room_access (room, member, role, granted_by, at) VALUES (?,?,?,?,?) ON CONFLICT(room, member)"
             " DO UPDATE SET role=excluded.role, granted_by=excluded.granted_by, at=excluded.at",
             (room, user, role, by.user, now)),
            ("INSERT INTO access_log (room, member, role, granted_by, at) VALUES (?,?,?,?,?)", (room, user, role, by.user, now)),
        ])

    def revoke(self, room: str, user: str, by: Principal) -> None:
        if not by.admin:
            raise AccessDenied("Only an admin can change access to a data room.")
        user, now = normalise(user), utcnow().isoformat()
        self._tx([("DELETE FROM room_access WHERE room=? AND member=?", (room, user)),
                  ("INSERT INTO access_log (room, member, role, granted_by, at) VALUES (?,?,?,?,?)", (room, user, "", by.user, now))])

    def grants(self, room: str) -> dict[str, str]:
        """user -> role on `room` (unchecked: for admins and tests; ScopedStore allows it to admins only)."""
        return {r["member"]: r["role"] for r in self._q("SELECT member, role FROM room_access WHERE room=? ORDER BY member",
                                                       (room,))}

    def room_role(self, room: str, who: Principal) -> str | None:
        """'admin', 'reviewer', 'viewer' or None (no access)."""
        if who.admin:
            return "admin"
        rows = self._q("SELECT role FROM room_access WHERE room=? AND member=?", (room, normalise(who.user)))
        return rows[0]["role"] if rows else None

    def visible_rooms(self, rooms: list[str], who: Principal) -> list[str]:
        """The rooms of `rooms` that `who` may see, in the same order."""
        if who.admin:
            return list(rooms)
        mine = {r["room"] for r in self._q("SELECT room FROM room_access WHERE member=?", (normalise(who.user),))}
        return [r for r in rooms if r in mine]

    def require_room(self, room: str, who: Principal, write: bool = False) -> str:
        """The user's role on `room`, or AccessDenied (the same message whether or not the room exists)."""
        role = self.room_role(room, who)
        if role is None:
            raise AccessDenied(NO_ACCESS)
        if write and role == "viewer":
            raise AccessDenied("You can read this data room but not change it: your role on it is viewer. "
                               "Ask an admin to make you a reviewer.")
        return role


def normalise(user: str) -> str:
    """E-mail addresses compare without case and surrounding space."""
    return (user or "").strip().lower()


# ScopedStore's surface: methods whose room is found from an argument, and whether they write.
_READ_BY_RUN = {"run", "run_documents", "findings", "finding", "finding_tally", "rejected_count", "items_by_document",
                "actions", "events_since", "trajectory", "token_usage", "assignment_tree", "assignment_rows",
                "assignment", "finding_for_edit", "memo", "memo_versions", "memo_proposal", "reviewer_edited", "coverage",
                "document_status", "answers", "answer_values", "table_built", "searched",
                "builtin_reviewed"}
_WRITE_BY_RUN = {"set_finding_review", "save_reviewer_edit", "save_agent_section", "accept_proposal",
                 "set_table_mark", "put_answers", "put_column_answers", "set_searched"}
_READ_BY_ROOM = {"runs", "decisions", "table_marks", "table_columns"}
_WRITE_BY_ROOM = {"add_table_column", "remove_table_column"}
# keyed by document id (a content hash): the parties and dates read from a document the user opened, cached
# whoever reads it first (reading a memo may fill it); they say nothing about any room
_UNSCOPED_READ = {"document_facts", "put_document_facts"}


class ScopedStore:
    """The review store as one user may use it. Calls outside the lists above are refused, so a new store
    method is unreachable from the app until someone decides which room it touches."""

    def __init__(self, store: Any, who: Principal):
        self._store, self.who = store, who

    @property
    def raw(self) -> Any:
        return self._store

    def role(self, room: str) -> str | None:
        return self._store.room_role(room, self.who)

    def visible_rooms(self, rooms: list[str]) -> list[str]:
        return self._store.visible_rooms(rooms, self.who)

    def grant(self, room: str, user: str, role: str) -> None:
        self._store.grant(room, user, role, self.who)

    def revoke(self, room: str, user: str) -> None:
        self._store.revoke(room, user, self.who)

    def grants(self, room: str) -> dict[str, str]:
        if not self.who.admin:
            raise AccessDenied("Only an admin can see who has access to a data room.")
        return self._store.grants(room)

    def require_write(self, room: str) -> None:
        """AccessDenied unless the user may change `room` (start or stop runs, decide, edit)."""
        self._store.require_room(room, self.who, write=True)

    def record_run_start(self, run_id: str, resumed: bool = False) -> None:
        """Who started (or resumed) a run, in its event log."""
        self._check_run(run_id, write=True)
        self._store.add_event(run_id, "run_resumed" if resumed else "run_started", {"by": self.who.user})

    def _check_run(self, run_id: str, write: bool) -> None:
        info = self._store.run(run_id)
        if info is None:
            raise AccessDenied(NO_ACCESS)
        self._store.require_room(info.room, self.who, write=write)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name not in _READ_BY_RUN | _WRITE_BY_RUN | _READ_BY_ROOM | _WRITE_BY_ROOM | _UNSCOPED_READ:
            raise AccessDenied(f"{name} is not available in the app")
        method = getattr(self._store, name)
        if name in _UNSCOPED_READ:
            return method
        sig = inspect.signature(method)
        write = name in _WRITE_BY_RUN | _WRITE_BY_ROOM

        def scoped(*args: Any, **kwargs: Any) -> Any:
            bound = sig.bind(*args, **kwargs)
            a = bound.arguments
            if name in _READ_BY_ROOM | _WRITE_BY_ROOM:
                if a.get("room") is None:
                    raise AccessDenied("a room must be named")
                self._store.require_room(a["room"], self.who, write=write)
            else:
                run_id = a.get("run_id")
                if run_id is None and "finding_id" in a:  # the finding's most recent run, as the store means it
                    rows = self._store._finding_rows(a["finding_id"], None)
                    run_id = rows[0]["run_id"] if rows else None
                    if run_id is not None:
                        a["run_id"] = run_id
                if run_id is None:
                    raise AccessDenied(NO_ACCESS)
                self._check_run(run_id, write)
            if write and "author" in sig.parameters:
                a["author"] = self.who.user  # the signed-in user, whatever the page passed
            return method(*bound.args, **bound.kwargs)

        return scoped
