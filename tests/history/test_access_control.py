"""Who sees what in a team library (LOUPE_ADMINS set): collections, row-level security, the CLI as a user.

Two collections, two users who each edit one, a third user in none: each lists, searches, asks over
and opens only their own; another user's run is "not found"; the database forces row-level security
on documents, chunks and runs, and a connection that names no user sees no rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import psycopg
import pymupdf
import pytest

from engine.cli.main import main
from engine.config import EngineConfig, LibraryConfig
from engine.errors import DocumentNotFoundError
from engine.library import open_library
from engine.library.pg_cache import CACHE_DIR

pytestmark = pytest.mark.postgres

HARBOUR = "The Kestrel harbour crane lifts 40 tonnes. Harbour dues rose to 12 pounds per berth."
ORCHARD = "The Linden orchard picked 300 crates of quince. Orchard irrigation used 9 megalitres."


def _pdf(text: str, path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(72, 72, 520, 400), text, fontsize=11)
    path.write_bytes(doc.tobytes())
    return path


class Cli:
    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        self.capsys = capsys

    def __call__(self, user: str | None, *argv: str, code: int = 0) -> str:
        args = (["--user", user] if user else []) + list(argv)
        got = main(args)
        out, err = self.capsys.readouterr()
        assert got == code, (args, out, err)
        return out if code == 0 else err

    def json(self, user: str | None, *argv: str) -> dict:
        return json.loads(self(user, *argv, "--json").strip().splitlines()[-1])


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(capsys)


@pytest.fixture
def team(pg_url: str, library_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Cli) -> dict[str, str]:
    """root (the operator's admin) makes harbour (alice edits) and orchard (bob edits); each uploads one PDF."""
    monkeypatch.setenv("LOUPE_ADMINS", "root")
    monkeypatch.delenv("LOUPE_USER", raising=False)
    cli("root", "collections", "create", "harbour")
    cli("root", "collections", "create", "orchard")
    cli("root", "collections", "add-member", "harbour", "alice", "--role", "editor")
    cli("root", "collections", "add-member", "orchard", "bob", "--role", "editor")
    harbour = cli.json("alice", "ingest", str(_pdf(HARBOUR, tmp_path / "harbour.pdf")), "--collection", "harbour")
    orchard = cli.json("bob", "ingest", str(_pdf(ORCHARD, tmp_path / "orchard.pdf")))  # bob's only collection
    return {"harbour": harbour["doc_id"], "orchard": orchard["doc_id"], "url": pg_url}


def _names(cli: Cli, user: str) -> set[str]:
    return {d["file_name"] for d in cli.json(user, "library", "list")["documents"]}


def test_each_user_lists_searches_asks_over_and_opens_only_their_collection(team: dict[str, str], cli: Cli) -> None:
    assert _names(cli, "alice") == {"harbour.pdf"}
    assert _names(cli, "bob") == {"orchard.pdf"}
    assert _names(cli, "carol") == set()  # in no collection: sees nothing
    assert _names(cli, "root") == {"harbour.pdf", "orchard.pdf"}  # the operator's admin administers every one

    hits = cli.json("alice", "search", "--all", "crane quince harbour orchard")["hits"]
    assert hits and {h["doc_id"] for h in hits} == {team["harbour"]}
    assert {h["doc_id"] for h in cli.json("bob", "search", "--all", "crane quince harbour orchard")["hits"]} == {
        team["orchard"]
    }
    assert cli.json("carol", "search", "--all", "crane quince harbour orchard")["hits"] == []

    run = cli.json("alice", "ask", "--all", "How many tonnes does the harbour crane lift?")
    assert [d["doc_id"] for d in run["docs"]] == [team["harbour"]]
    assert "no passage of the library" in cli("carol", "ask", "--all", "How many tonnes does the crane lift?", code=2)

    # opening another collection's document by id: "not found", whether asked over or named
    err = cli("alice", "ask", "--doc", team["orchard"][:12], "How many crates of quince?", code=2)
    assert err.startswith("error: no document") and len(err.strip().splitlines()) == 1
    assert "quince" not in err
    cli("bob", "ask", "--doc", team["orchard"][:12], "How many crates of quince were picked?")


def test_runs_are_private_unless_shared_and_another_users_run_is_not_found(
    team: dict[str, str], cli: Cli, tmp_path: Path
) -> None:
    alice_run = cli.json("alice", "ask", "--doc", team["harbour"], "How many tonnes does the crane lift?")["run_id"]
    bob_run = cli.json("bob", "ask", "--doc", team["orchard"], "How many crates of quince?")["run_id"]
    assert [r["run_id"] for r in cli.json("alice", "runs", "list")["runs"]] == [alice_run]
    assert [r["run_id"] for r in cli.json("bob", "runs", "list")["runs"]] == [bob_run]
    assert cli.json("carol", "runs", "list")["runs"] == []
    for argv in (("runs", "show", bob_run), ("runs", "delete", bob_run),
                 ("export", bob_run, "--format", "md", "--out", str(tmp_path / "x.md"))):  # fmt: skip
        err = cli("alice", *argv, code=2)
        assert err.startswith("error: no saved run") and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "x.md").exists()
    cli("bob", "runs", "show", bob_run)  # still there for its owner

    # a viewer of harbour sees alice's run only once she shares it, and may not delete it
    cli("root", "collections", "add-member", "harbour", "dave", "--role", "viewer")
    cli("dave", "runs", "show", alice_run, code=2)
    cli("bob", "collections", "share-run", alice_run, code=2)  # not bob's: not even visible to him
    cli("alice", "collections", "share-run", alice_run)
    assert [r["run_id"] for r in cli.json("dave", "runs", "list")["runs"]] == [alice_run]
    assert "only its owner" in cli("dave", "runs", "delete", alice_run, code=2)
    cli("bob", "runs", "show", alice_run, code=2)  # shared with harbour, not with orchard
    cli("dave", "export", alice_run, "--format", "md", "--out", str(tmp_path / "shared.md"))
    assert (tmp_path / "shared.md").exists()


def test_a_command_without_a_user_is_refused_in_one_line(team: dict[str, str], cli: Cli, tmp_path: Path) -> None:
    err = cli(None, "library", "list", code=2)
    assert err.strip().splitlines() == [
        "error: access control is on (LOUPE_ADMINS): say who acts with --user NAME or LOUPE_USER"
    ]
    assert "may not create" in cli("alice", "collections", "create", "mine", code=2)
    assert "no collection 'orchard'" in cli("alice", "collections", "add-member", "orchard", "alice",
                                            "--role", "admin", code=2)  # fmt: skip
    cli("root", "collections", "add-member", "harbour", "erin", "--role", "viewer")
    assert "may not change the members" in cli("erin", "collections", "remove-member", "harbour", "alice", code=2)
    assert "may not read the audit" in cli("alice", "audit", "list", code=2)
    assert "may not upload" in cli("carol", "ingest", str(_pdf(HARBOUR + " Again.", tmp_path / "x.pdf")), code=2)
    # the same bytes in another collection: refused, and nothing of orchard is shown
    (tmp_path / "copy.pdf").write_bytes((tmp_path / "orchard.pdf").read_bytes())
    err = cli("alice", "ingest", str(tmp_path / "copy.pdf"), "--collection", "harbour", code=2)
    assert err.startswith("error: copy.pdf is already in another collection") and "quince" not in err
    assert _names(cli, "alice") == {"harbour.pdf"}


def test_row_level_security_is_forced_and_a_connection_without_a_user_sees_nothing(team: dict[str, str]) -> None:
    with psycopg.connect(team["url"]) as conn:
        rows = conn.execute(
            "SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class"
            " WHERE relname IN ('loupe_documents', 'loupe_chunks', 'loupe_runs') ORDER BY relname"
        ).fetchall()
        assert rows == [(t, True, True) for t in ("loupe_chunks", "loupe_documents", "loupe_runs")]
        conn.execute("SET ROLE loupe_app")
        counts = "SELECT (SELECT count(*) FROM loupe_documents), (SELECT count(*) FROM loupe_chunks)"
        assert conn.execute(counts).fetchone() == (0, 0)  # no user set: no rows
        conn.execute("SELECT set_config('loupe.user', 'alice', true)")
        docs, chunks = conn.execute(counts).fetchone()  # type: ignore[misc]
        assert docs == 1 and chunks >= 1
        assert conn.execute("SELECT doc_id FROM loupe_documents").fetchall() == [(team["harbour"],)]
        conn.execute("SELECT set_config('loupe.user', 'carol', true)")
        assert conn.execute(counts).fetchone() == (0, 0)


def test_removing_a_member_takes_effect_on_their_next_request_on_every_replica(
    team: dict[str, str], cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    replicas = [EngineConfig(library=LibraryConfig(path=str(tmp_path / f"replica-{n}"), user="alice")) for n in "ab"]
    libraries = [open_library(config) for config in replicas]
    for library in libraries:  # each replica has the document loaded and copied under .pgcache
        assert library.load(team["harbour"]).search("crane", "keyword").hits
        assert library.pdf_bytes(team["harbour"]).startswith(b"%PDF")
        assert (library.root / CACHE_DIR / team["harbour"]).is_dir()
    cli("root", "collections", "remove-member", "harbour", "alice")
    for library in libraries:
        assert library.entries() == []
        with pytest.raises(DocumentNotFoundError):
            library.load(team["harbour"])
        with pytest.raises(DocumentNotFoundError):
            library.pdf_bytes(team["harbour"])  # the local copy is never served without the database's check
    assert _names(cli, "alice") == set()


def test_the_audit_log_records_uploads_questions_and_member_changes(team: dict[str, str], cli: Cli) -> None:
    cli("alice", "ask", "--doc", team["harbour"], "How many tonnes does the crane lift?")
    cli("root", "collections", "remove-member", "orchard", "bob")
    rows = cli.json("root", "audit", "list", "--limit", "20")["audit"]
    seen = [(r["user"], r["action"], r["collection"]) for r in rows]
    assert ("alice", "upload", "harbour") in seen and ("bob", "upload", "orchard") in seen
    assert ("root", "add member", "harbour") in seen and ("root", "remove member", "orchard") in seen
    asked = [r for r in rows if r["action"] == "ask"]
    assert len(asked) == 1 and asked[0]["user"] == "alice" and asked[0]["collection"] == "harbour"
    assert asked[0]["detail"]["documents"] == [team["harbour"]]
    assert "crane" in asked[0]["detail"]["question"]
    listed = cli.json("alice", "collections", "list")["collections"]
    assert [(c["name"], c["role"], c["documents"]) for c in listed] == [("harbour", "editor", 1)]


def test_without_loupe_admins_the_team_library_stays_open(pg_url: str, library_dir: Path, cli: Cli, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    monkeypatch.delenv("LOUPE_ADMINS", raising=False)
    cli(None, "ingest", str(_pdf(HARBOUR, tmp_path / "open.pdf")))
    assert {d["file_name"] for d in cli.json(None, "library", "list")["documents"]} == {"open.pdf"}
    assert "access control is off" in cli(None, "collections", "list", code=2)


def test_a_library_from_before_access_control_is_adopted_by_a_collection(
    pg_url: str, library_dir: Path, cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LOUPE_ADMINS", raising=False)
    cli(None, "ingest", str(_pdf(HARBOUR, tmp_path / "old.pdf")))
    cli(None, "ask", "--all", "How many tonnes does the harbour crane lift?")
    monkeypatch.setenv("LOUPE_ADMINS", "root")
    cli("root", "collections", "create", "harbour")
    cli("root", "collections", "add-member", "harbour", "alice", "--role", "viewer")
    assert _names(cli, "alice") == set() and cli.json("alice", "runs", "list")["runs"] == []  # in no collection yet
    assert "may not adopt" in cli("alice", "collections", "adopt", "harbour", code=2)
    assert "adopted 1 document(s) and 1 run(s)" in cli("root", "collections", "adopt", "harbour")
    assert _names(cli, "alice") == {"old.pdf"}
    assert len(cli.json("alice", "runs", "list")["runs"]) == 1
    assert cli.json("alice", "search", "--all", "crane")["hits"]


@pytest.fixture
def owned_database(pg_server: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A database owned by a login that is no superuser (as a managed PostgreSQL service gives one)."""
    import secrets

    from tests.pg import drop_database

    login, password = f"loupe_owner_{secrets.token_hex(4)}", secrets.token_hex(12)
    name = f"loupe_test_{secrets.token_hex(6)}"
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {login} LOGIN CREATEROLE PASSWORD '{password}'")  # type: ignore[arg-type]
        conn.execute(f"CREATE DATABASE {name} OWNER {login}")  # type: ignore[arg-type]
    server = urlparse(pg_server)
    url = server._replace(netloc=f"{login}:{password}@{server.hostname}:{server.port}", path=f"/{name}").geturl()
    monkeypatch.setenv("LOUPE_DATABASE_URL", url)
    try:
        yield url
    finally:
        drop_database(pg_server, name)
        with psycopg.connect(pg_server, autocommit=True) as conn:
            conn.execute(f"DROP OWNED BY {login}")  # type: ignore[arg-type]
            conn.execute(f"DROP ROLE {login}")  # type: ignore[arg-type]


def test_the_table_owner_is_bound_too_when_it_is_no_superuser(
    owned_database: str, library_dir: Path, cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LOUPE_ADMINS", raising=False)
    cli(None, "ingest", str(_pdf(HARBOUR, tmp_path / "open.pdf")))  # open access: the owner reads and writes
    assert {d["file_name"] for d in cli.json(None, "library", "list")["documents"]} == {"open.pdf"}
    with psycopg.connect(owned_database) as conn:  # the owner, with no setting: FORCE leaves it nothing
        assert conn.execute("SELECT current_setting('is_superuser')").fetchone() == ("off",)
        assert conn.execute("SELECT count(*) FROM loupe_documents").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM loupe_chunks").fetchone() == (0,)
    monkeypatch.setenv("LOUPE_ADMINS", "root")
    cli("root", "collections", "create", "harbour")
    assert "adopted 1 document(s)" in cli("root", "collections", "adopt", "harbour")
    cli("root", "collections", "add-member", "harbour", "alice", "--role", "viewer")
    assert _names(cli, "alice") == {"open.pdf"} and _names(cli, "bob") == set()
