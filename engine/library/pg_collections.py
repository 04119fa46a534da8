"""Collections of a team library with access control on: create them, manage members, read the audit log.

Every statement runs as the acting user under row-level security (``engine.library.pg_access``), so
the database decides: only the operator's admins (``LOUPE_ADMINS``) create collections; a collection's
admins (and the operator's) add, change and remove members; only the operator's admins read the audit.
Member changes are written to the audit log in the same transaction. Nothing here is cached: a removed
member's next request (on any replica) is checked against the table as it is then.
"""

from __future__ import annotations

from datetime import datetime

import psycopg
from pydantic import BaseModel, ConfigDict

from engine.library.pg_access import ROLES, AccessDeniedError, audit, check_user
from engine.library.postgres import UserConnections


class CollectionInfo(BaseModel):
    """A collection as its member sees it."""

    model_config = ConfigDict(frozen=True)

    name: str
    role: str | None
    """The acting user's role in it (None for an operator's admin who is not a member)."""
    members: dict[str, str]
    documents: int


class AuditRow(BaseModel):
    """One line of the audit log."""

    model_config = ConfigDict(frozen=True)

    at: datetime
    user: str | None
    action: str
    collection: str | None
    detail: dict


class PgCollections:
    """The collections of a team library, on behalf of one user."""

    def __init__(self, db: UserConnections) -> None:
        if not db.access_on:
            raise AccessDeniedError("collections need access control: name the first admins in LOUPE_ADMINS")
        if not db.user:
            raise AccessDeniedError("access control is on: give the user who acts (--user NAME or LOUPE_USER)")
        self.db = db
        self.user = db.user

    def _id(self, conn: psycopg.Connection, name: str) -> int:
        row = conn.execute("SELECT collection_id FROM loupe_collections WHERE name = %s", (name,)).fetchone()
        if row is None:
            raise AccessDeniedError(f"no collection {name!r} (or you are not a member of it)")
        return int(row[0])

    def create(self, name: str) -> None:
        """A new empty collection (the operator's admins only)."""
        name = name.strip()
        if not 1 <= len(name) <= 100:
            raise AccessDeniedError("a collection name has 1 to 100 characters")
        with self.db.connection() as conn:
            if conn.execute("SELECT loupe_is_admin()").fetchone() != (True,):
                raise AccessDeniedError(f"{self.user} may not create collections: only the admins in LOUPE_ADMINS")
            row = conn.execute(
                "INSERT INTO loupe_collections (name, created_by) VALUES (%s, %s) ON CONFLICT (name) DO NOTHING"
                " RETURNING collection_id",
                (name, self.user),
            ).fetchone()
            if row is None:
                raise AccessDeniedError(f"a collection named {name!r} exists already")
            audit(conn, self.user, "create collection", int(row[0]), {"name": name})

    def add_member(self, name: str, user: str, role: str) -> None:
        """Add ``user`` with ``role`` (or change their role); the collection's admins only."""
        check_user(user)
        if role not in ROLES:
            raise AccessDeniedError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
        with self.db.connection() as conn:
            cid = self._id(conn, name)
            self._must_admin(conn, cid, name)
            conn.execute(
                "INSERT INTO loupe_memberships (collection_id, user_name, role) VALUES (%s, %s, %s)"
                " ON CONFLICT (collection_id, user_name) DO UPDATE SET role = EXCLUDED.role",
                (cid, user, role),
            )
            audit(conn, self.user, "add member", cid, {"collection": name, "member": user, "role": role})

    def remove_member(self, name: str, user: str) -> None:
        """Remove ``user`` from the collection; effective on their next request."""
        with self.db.connection() as conn:
            cid = self._id(conn, name)
            self._must_admin(conn, cid, name)
            gone = conn.execute(
                "DELETE FROM loupe_memberships WHERE collection_id = %s AND user_name = %s RETURNING user_name",
                (cid, user),
            ).fetchone()
            if gone is None:
                raise AccessDeniedError(f"{user} is not a member of {name!r}")
            audit(conn, self.user, "remove member", cid, {"collection": name, "member": user})

    def adopt(self, name: str) -> tuple[int, int]:
        """Move what the library held before access control (no collection) into ``name``; the operator's admins.

        Documents and their chunks join the collection; runs saved without an owner are shared with it.
        Returns (documents, runs) moved.
        """
        with self.db.connection() as conn:
            if conn.execute("SELECT loupe_is_admin()").fetchone() != (True,):
                raise AccessDeniedError(f"{self.user} may not adopt documents: only the admins in LOUPE_ADMINS")
            cid = self._id(conn, name)
            docs = conn.execute(
                "UPDATE loupe_documents SET collection_id = %s WHERE collection_id IS NULL", (cid,)
            ).rowcount
            conn.execute("UPDATE loupe_chunks SET collection_id = %s WHERE collection_id IS NULL", (cid,))
            runs = conn.execute(
                "UPDATE loupe_runs SET collection_id = %s, shared = true WHERE owner IS NULL AND collection_id IS NULL",
                (cid,),
            ).rowcount
            audit(conn, self.user, "adopt", cid, {"collection": name, "documents": docs, "runs": runs})
        return docs, runs

    def _must_admin(self, conn: psycopg.Connection, cid: int, name: str) -> None:
        if conn.execute("SELECT loupe_can(%s, 'admin')", (cid,)).fetchone() != (True,):
            raise AccessDeniedError(f"{self.user} may not change the members of {name!r}: its admins may")

    def collections(self) -> list[CollectionInfo]:
        """The collections this user may see, with their members and how many documents each holds."""
        with self.db.connection() as conn:
            rows = conn.execute(
                """SELECT c.name, loupe_role(c.collection_id),
                          (SELECT coalesce(jsonb_object_agg(m.user_name, m.role), '{}'::jsonb)
                           FROM loupe_memberships AS m WHERE m.collection_id = c.collection_id),
                          (SELECT count(*) FROM loupe_documents AS d WHERE d.collection_id = c.collection_id)
                   FROM loupe_collections AS c ORDER BY c.name"""
            ).fetchall()
        return [CollectionInfo(name=n, role=r, members=dict(m), documents=int(d)) for n, r, m, d in rows]

    def audit_log(self, limit: int = 100) -> list[AuditRow]:
        """The newest lines of the audit log, newest first (the operator's admins only)."""
        with self.db.connection() as conn:
            if conn.execute("SELECT loupe_is_admin()").fetchone() != (True,):
                raise AccessDeniedError(f"{self.user} may not read the audit log: only the admins in LOUPE_ADMINS")
            rows = conn.execute(
                """SELECT a.at, a.user_name, a.action, c.name, a.detail FROM loupe_audit AS a
                   LEFT JOIN loupe_collections AS c USING (collection_id)
                   ORDER BY a.at DESC, a.audit_id DESC LIMIT %s""",
                (max(1, int(limit)),),
            ).fetchall()
        return [AuditRow(at=at, user=u, action=a, collection=c, detail=dict(d)) for at, u, a, c, d in rows]


def open_collections(url: str, user: str | None) -> PgCollections:
    """The collections of the team library at ``url`` on behalf of ``user``."""
    from engine.library.postgres import database

    return PgCollections(database(url).as_user(user))
