"""Who acts on a team library, and the commands of access control: ``collections ...`` and ``audit list``.

With ``$LOUPE_ADMINS`` set (access control on), every command acts as a user: ``--user NAME`` before
the command, else ``$LOUPE_USER``; a command without one is refused. Without ``$LOUPE_ADMINS`` nothing
changes (no user is needed and the team library is open to everyone who reaches it).
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.config import EngineConfig
from engine.errors import LoupeError


class AccessCliError(LoupeError):
    """A command that needs a user (or a team library) and has none."""


def add_access_commands(parser: argparse.ArgumentParser, sub: argparse._SubParsersAction) -> None:
    """``--user`` on the main parser; ``collections`` and ``audit`` commands."""
    parser.add_argument("--user", default=None, help="who acts, when access control is on (default $LOUPE_USER)")
    coll = sub.add_parser("collections", help="collections of a team library and their members (access control)")
    coll_sub = coll.add_subparsers(dest="collections_command", required=True)
    coll_sub.add_parser("create", help="a new collection (admins in LOUPE_ADMINS)").add_argument("name")
    add = coll_sub.add_parser("add-member", help="add a member, or change their role")
    add.add_argument("name")
    add.add_argument("member")
    add.add_argument("--role", choices=("viewer", "editor", "admin"), required=True)
    remove = coll_sub.add_parser("remove-member", help="remove a member (effective on their next request)")
    remove.add_argument("name")
    remove.add_argument("member")
    coll_sub.add_parser("list", help="the collections you may see").add_argument("--json", action="store_true")
    adopt = coll_sub.add_parser("adopt", help="move the documents and runs saved before access control into NAME")
    adopt.add_argument("name")
    share = coll_sub.add_parser("share-run", help="share one of your runs with the collection of its documents")
    share.add_argument("run_id")
    share.add_argument("--private", action="store_true", help="make it private again")
    audit = sub.add_parser("audit", help="the audit log (admins in LOUPE_ADMINS)")
    audit_sub = audit.add_subparsers(dest="audit_command", required=True)
    listing = audit_sub.add_parser("list", help="newest first")
    listing.add_argument("--limit", type=int, default=50)
    listing.add_argument("--json", action="store_true")


def acting_config(args: argparse.Namespace, config: EngineConfig) -> EngineConfig:
    """``config`` acting as the command's user; refuses a command without one while access control is on."""
    from engine.library import store_kind
    from engine.library.pg_access import check_user, configured_admins

    if getattr(args, "user", None):
        config = config.model_copy(update={"library": config.library.model_copy(update={"user": args.user})})
    if getattr(args, "collection", None):
        config = config.model_copy(
            update={"library": config.library.model_copy(update={"collection": args.collection})}
        )
    if not configured_admins():
        if args.command in ("collections", "audit"):
            raise AccessCliError("access control is off: name the first admins in LOUPE_ADMINS to use collections")
        return config
    if store_kind(config) != "postgresql":
        raise AccessCliError(
            "access control (LOUPE_ADMINS) needs a team library: set LOUPE_DATABASE_URL to a postgresql:// database"
        )
    user = config.library.resolved_user()
    if not user:
        raise AccessCliError("access control is on (LOUPE_ADMINS): say who acts with --user NAME or LOUPE_USER")
    check_user(user)
    return config


def _emit(payload: str, as_json: bool, human: str) -> None:
    sys.stdout.write((payload if as_json else human) + "\n")


def cmd_collections(args: argparse.Namespace, config: EngineConfig) -> None:
    from engine.library.pg_collections import open_collections

    url, user = config.library.resolved_database_url(), config.library.resolved_user()
    if args.collections_command == "share-run":
        from engine.history import open_run_store

        store = open_run_store(config)
        store.share(args.run_id, not args.private)  # type: ignore[attr-defined]
        _emit("", False, f"run {args.run_id} is {'private' if args.private else 'shared with its collection'}")
        return
    collections = open_collections(url, user)
    if args.collections_command == "create":
        collections.create(args.name)
        _emit("", False, f"created collection {args.name}")
    elif args.collections_command == "add-member":
        collections.add_member(args.name, args.member, args.role)
        _emit("", False, f"{args.member} is {args.role} of {args.name}")
    elif args.collections_command == "adopt":
        docs, runs = collections.adopt(args.name)
        _emit("", False, f"{args.name} adopted {docs} document(s) and {runs} run(s) saved before access control")
    elif args.collections_command == "remove-member":
        collections.remove_member(args.name, args.member)
        _emit("", False, f"removed {args.member} from {args.name}")
    else:
        rows = collections.collections()
        human = "\n".join(
            f"{c.name:<24} {c.role or 'admin (operator)':<16} {c.documents:>4} documents  "
            + ", ".join(f"{m} ({r})" for m, r in sorted(c.members.items()))
            for c in rows
        )
        payload = json.dumps({"collections": [c.model_dump(mode="json") for c in rows]})
        _emit(payload, args.json, human or "no collections")


def cmd_audit(args: argparse.Namespace, config: EngineConfig) -> None:
    from engine.library.pg_collections import open_collections

    if args.limit < 1:
        raise ValueError("--limit must be at least 1")
    rows = open_collections(config.library.resolved_database_url(), config.library.resolved_user()).audit_log(
        args.limit
    )
    human = "\n".join(
        f"{r.at.isoformat(timespec='seconds')}  {r.user or '-':<16} {r.action:<18} {r.collection or '-':<16} "
        + json.dumps(r.detail, ensure_ascii=False)[:160]
        for r in rows
    )
    _emit(
        json.dumps({"audit": [r.model_dump(mode="json") for r in rows]}), args.json, human or "the audit log is empty"
    )
