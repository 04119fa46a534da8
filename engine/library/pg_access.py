"""Who sees what in a team library: collections, memberships and row-level security in PostgreSQL.

Access control is on when the operator names the first admins (``$LOUPE_ADMINS=alice,bob``); without
it the team library stays open as before. The database enforces it, not the application's queries:

- ``loupe_collections`` (named sets of documents) and ``loupe_memberships`` (user, collection, role:
  ``viewer`` asks and reads the collection's shared runs, ``editor`` also uploads and deletes,
  ``admin`` also manages members). ``loupe_admins`` holds the operator's admins (``LOUPE_ADMINS``,
  written by the table owner when a process opens the database); they act as admins of every collection.
- ``collection_id`` on documents, chunks and runs; a run also has its ``owner`` and ``shared`` (a
  user's runs are private unless shared with the collection of their documents).
- Row-level security is ENABLEd and FORCEd on documents, chunks, runs, collections and the audit log,
  so even the table owner is bound by the policies. Policies read two per-transaction settings the
  application sets with ``set_config(..., true)`` at the start of every pooled transaction:
  ``loupe.user`` (access control on) or ``loupe.access = 'open'`` (access control off). A connection
  that has set neither sees no rows.
- With access control on, pooled connections ``SET ROLE loupe_app``: a role that owns nothing and is
  no superuser (superusers bypass row-level security whatever FORCE says).

The settings are not a defence against SQL injected into the application (such code could set any
user); they make every query the application runs filtered by the database, so a forgotten ``WHERE``
cannot leak a document of another collection. ``loupe_memberships`` is ENABLEd but not FORCEd: the
SECURITY DEFINER functions the other policies call read it as the owner, and forcing it would make
the membership check recursive; ``loupe_app`` reads it through its own policy.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from engine.errors import LoupeError

if TYPE_CHECKING:  # the embedded default (and the CLI's access check) never loads psycopg
    import psycopg

APP_ROLE = "loupe_app"
"""The role pooled connections take when access control is on (created by the schema setup)."""
ROLES = ("viewer", "editor", "admin")
"""Membership roles, weakest first: each may do what the ones before it may."""
USER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$")
"""A user name: a login or an e-mail address as an identity provider gives it (no spaces, no quotes)."""

_BEGIN = "SELECT set_config('loupe.user', %s, true), set_config('loupe.access', %s, true)"
"""Run first in every pooled transaction: the settings the policies read (local: gone at commit)."""


class AccessDeniedError(LoupeError):
    """A user may not do this (no user given, or a role too weak for the action)."""


def configured_admins() -> tuple[str, ...]:
    """The operator's admins from ``$LOUPE_ADMINS`` (comma-separated); empty means access control is off."""
    names = tuple(sorted({n.strip() for n in os.environ.get("LOUPE_ADMINS", "").split(",") if n.strip()}))
    for name in names:
        check_user(name)
    return names


def check_user(name: str) -> str:
    """``name`` when it is a valid user name, else ``AccessDeniedError`` saying what is allowed."""
    if not USER_NAME.match(name or ""):
        raise AccessDeniedError(
            f"{name!r} is not a valid user name (letters, digits and . _ @ + -, up to 128 characters)"
        )
    return name


def begin(conn: psycopg.Connection, user: str | None, access_on: bool) -> None:
    """Set the transaction's user (access control on) or open access (off) before any other statement."""
    conn.execute(_BEGIN, ((user or "") if access_on else "", "" if access_on else "open"))


def use_app_role(conn: psycopg.Connection) -> None:
    """The pool's ``configure`` callback with access control on: the session takes ``loupe_app``."""
    conn.execute(f"SET ROLE {APP_ROLE}")
    conn.commit()


def sync_admins(conn: psycopg.Connection, admins: tuple[str, ...]) -> None:
    """Make ``loupe_admins`` the operator's list (as the owner: ``loupe_app`` cannot write it)."""
    with conn.transaction():
        conn.execute("DELETE FROM loupe_admins WHERE NOT (user_name = ANY(%s))", (list(admins),))
        for name in admins:
            conn.execute("INSERT INTO loupe_admins (user_name) VALUES (%s) ON CONFLICT DO NOTHING", (name,))


def audit(conn: psycopg.Connection, user: str | None, action: str, collection_id: int | None, detail: dict) -> None:
    """One row of the audit log (in the caller's transaction, so it is kept exactly when the action is)."""
    from psycopg.types.json import Jsonb

    conn.execute(
        "INSERT INTO loupe_audit (user_name, action, collection_id, detail) VALUES (%s, %s, %s, %s)",
        (user, action, collection_id, Jsonb(detail)),
    )


_TABLES = ("loupe_documents", "loupe_chunks", "loupe_runs", "loupe_collections", "loupe_memberships", "loupe_audit")
FORCED_TABLES = ("loupe_documents", "loupe_chunks", "loupe_runs", "loupe_collections", "loupe_audit")
"""Tables whose row-level security binds their owner too (``FORCE ROW LEVEL SECURITY``)."""

_OPEN = "(SELECT loupe_open())"
_READABLE = "(collection_id = ANY ((SELECT loupe_readable())::bigint[]) OR (SELECT loupe_is_admin()))"
"""A row of a collection the user may read. Each function sits in a scalar subquery, which PostgreSQL
evaluates once per statement (an InitPlan) rather than once per row: a corpus-wide search reads every
visible chunk, and a per-row membership lookup would cost one query per chunk."""
MIGRATION: tuple[str, ...] = (
    """CREATE TABLE loupe_collections (
        collection_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
        created_by text,
        created_at timestamptz NOT NULL DEFAULT now()
    )""",
    """CREATE TABLE loupe_memberships (
        collection_id bigint NOT NULL REFERENCES loupe_collections (collection_id) ON DELETE CASCADE,
        user_name text NOT NULL,
        role text NOT NULL CHECK (role IN ('viewer', 'editor', 'admin')),
        PRIMARY KEY (collection_id, user_name)
    )""",
    "CREATE INDEX loupe_memberships_by_user ON loupe_memberships (user_name)",
    "CREATE TABLE loupe_admins (user_name text PRIMARY KEY)",
    """CREATE TABLE loupe_audit (
        audit_id bigserial PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT clock_timestamp(),
        user_name text,
        action text NOT NULL,
        collection_id bigint,
        detail jsonb NOT NULL
    )""",
    "CREATE INDEX loupe_audit_by_time ON loupe_audit (at DESC, audit_id DESC)",
    "ALTER TABLE loupe_documents ADD COLUMN collection_id bigint REFERENCES loupe_collections (collection_id)",
    "ALTER TABLE loupe_chunks ADD COLUMN collection_id bigint",
    "ALTER TABLE loupe_runs ADD COLUMN collection_id bigint, ADD COLUMN owner text,"
    " ADD COLUMN shared boolean NOT NULL DEFAULT false",
    "CREATE INDEX loupe_documents_by_collection ON loupe_documents (collection_id)",
    "CREATE INDEX loupe_runs_by_owner ON loupe_runs (owner)",
    # the settings the policies read; '' and unset mean "no user"
    "CREATE FUNCTION loupe_user() RETURNS text LANGUAGE sql STABLE"
    " AS $$ SELECT nullif(current_setting('loupe.user', true), '') $$",
    "CREATE FUNCTION loupe_open() RETURNS boolean LANGUAGE sql STABLE"
    " AS $$ SELECT coalesce(current_setting('loupe.access', true), '') = 'open' $$",
    # SECURITY DEFINER: read as the owner, which loupe_app may not read directly (no recursion through policies)
    "CREATE FUNCTION loupe_is_admin() RETURNS boolean LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT"
    " AS $$ SELECT EXISTS (SELECT 1 FROM loupe_admins WHERE user_name = loupe_user()) $$",
    "CREATE FUNCTION loupe_role(cid bigint) RETURNS text LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM"
    " CURRENT AS $$ SELECT role FROM loupe_memberships WHERE collection_id = cid AND user_name = loupe_user() $$",
    "CREATE FUNCTION loupe_readable() RETURNS bigint[] LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM"
    " CURRENT AS $$ SELECT coalesce(array_agg(collection_id), '{}') FROM loupe_memberships"
    " WHERE user_name = loupe_user() $$",
    """CREATE FUNCTION loupe_can(cid bigint, need text) RETURNS boolean LANGUAGE sql STABLE
        AS $$ SELECT loupe_is_admin() OR coalesce(array_position(ARRAY['viewer', 'editor', 'admin'], loupe_role(cid))
            >= array_position(ARRAY['viewer', 'editor', 'admin'], need), false) $$""",
    *(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY" for table in _TABLES),
    *(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY" for table in FORCED_TABLES),
    # documents: viewers read; editors add and delete; a viewer's load may re-parse (UPDATE of derived columns)
    f"CREATE POLICY read ON loupe_documents FOR SELECT USING ({_OPEN} OR {_READABLE})",
    f"CREATE POLICY reparse ON loupe_documents FOR UPDATE USING ({_OPEN} OR {_READABLE})",
    f"CREATE POLICY add ON loupe_documents FOR INSERT WITH CHECK ({_OPEN} OR loupe_can(collection_id, 'editor'))",
    f"CREATE POLICY remove ON loupe_documents FOR DELETE USING ({_OPEN} OR loupe_can(collection_id, 'editor'))",
    # chunks follow their document; a re-parse on a viewer's load rewrites them, so viewers may write them
    f"CREATE POLICY member ON loupe_chunks USING ({_OPEN} OR {_READABLE}) WITH CHECK ({_OPEN} OR {_READABLE})",
    # runs: private to their owner unless shared with the collection of their documents
    f"""CREATE POLICY read ON loupe_runs FOR SELECT USING ({_OPEN} OR owner = (SELECT loupe_user())
        OR (SELECT loupe_is_admin()) OR (shared AND collection_id = ANY ((SELECT loupe_readable())::bigint[])))""",
    f"""CREATE POLICY save ON loupe_runs FOR INSERT WITH CHECK ({_OPEN} OR (owner = loupe_user()
        AND (collection_id IS NULL OR loupe_can(collection_id, 'viewer'))))""",
    f"CREATE POLICY change ON loupe_runs FOR UPDATE USING ({_OPEN} OR owner = loupe_user() OR loupe_is_admin())",
    f"CREATE POLICY remove ON loupe_runs FOR DELETE USING ({_OPEN} OR owner = loupe_user() OR loupe_is_admin())",
    # collections: members see theirs; the operator's admins create and remove them
    f"""CREATE POLICY read ON loupe_collections FOR SELECT USING ({_OPEN} OR loupe_is_admin()
        OR loupe_role(collection_id) IS NOT NULL)""",
    f"CREATE POLICY add ON loupe_collections FOR INSERT WITH CHECK ({_OPEN} OR loupe_is_admin())",
    f"CREATE POLICY remove ON loupe_collections FOR DELETE USING ({_OPEN} OR loupe_is_admin())",
    # memberships: a member sees the members of the collection; its admins change them
    f"""CREATE POLICY read ON loupe_memberships FOR SELECT USING ({_OPEN} OR user_name = loupe_user()
        OR loupe_can(collection_id, 'viewer'))""",
    f"CREATE POLICY add ON loupe_memberships FOR INSERT WITH CHECK ({_OPEN} OR loupe_can(collection_id, 'admin'))",
    f"CREATE POLICY change ON loupe_memberships FOR UPDATE USING ({_OPEN} OR loupe_can(collection_id, 'admin'))",
    f"CREATE POLICY remove ON loupe_memberships FOR DELETE USING ({_OPEN} OR loupe_can(collection_id, 'admin'))",
    # audit: anyone acting writes their own rows; only the operator's admins read them
    "CREATE POLICY write ON loupe_audit FOR INSERT WITH CHECK (user_name = loupe_user())",
    "CREATE POLICY read ON loupe_audit FOR SELECT USING (loupe_is_admin())",
    # the application role: created once per cluster (roles are shared by its databases), granted per database
    f"""DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{APP_ROLE}') THEN
            BEGIN
                CREATE ROLE {APP_ROLE} NOLOGIN NOSUPERUSER NOBYPASSRLS;
            EXCEPTION WHEN duplicate_object OR insufficient_privilege THEN
                RAISE NOTICE 'role {APP_ROLE} not created here';
            END;
        END IF;
        IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{APP_ROLE}') THEN
            BEGIN
                EXECUTE 'GRANT {APP_ROLE} TO ' || quote_ident(current_user);
            EXCEPTION WHEN OTHERS THEN
                RAISE NOTICE 'cannot grant {APP_ROLE} to %', current_user;
            END;
            EXECUTE format('GRANT USAGE ON SCHEMA %I TO {APP_ROLE}', current_schema());
            GRANT SELECT, INSERT, UPDATE, DELETE ON loupe_documents, loupe_chunks, loupe_runs, loupe_collections,
                loupe_memberships TO {APP_ROLE};
            GRANT SELECT, INSERT ON loupe_audit TO {APP_ROLE};
            EXECUTE format('GRANT USAGE, SELECT, UPDATE ON SEQUENCE %s, %s TO {APP_ROLE}',
                pg_get_serial_sequence('loupe_runs', 'seq'), pg_get_serial_sequence('loupe_audit', 'audit_id'));
        END IF;
    END $$""",
)
"""Schema 2: collections, memberships, admins, the audit log, the policies and the application role."""
