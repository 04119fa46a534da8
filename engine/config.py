"""One configuration tree for the engine: ``EngineConfig``, its presets and its fingerprint.

Every field has a description. Secrets (the API key) are ``SecretStr`` fields excluded from dumps,
so they never reach the fingerprint, an exported run or the disk.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Literal
from urllib.parse import urlparse

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from engine.contracts import Budget, Complexity, StrategyName
from engine.errors import EndpointPolicyError

HARD_ITERATION_CAP = 4
"""No strategy may run more feedback passes than this, whatever the caller asks."""

BYTES_PER_MB = 1_000_000
"""A megabyte, as Streamlit's uploader counts it (its "100 MB" limit is 100,000,000 bytes), so the app and
the engine agree on what "100 MB" admits."""

MAX_QUESTION_CHARS = 2000
"""Longest question accepted (about 300 words); longer input is refused with a message, never parsed."""

REPO_ROOT = Path(__file__).resolve().parents[1]


class _Section(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LibraryConfig(_Section):
    """Where documents are stored and which documents are accepted."""

    path: str | None = Field(
        None, description="Library folder; None means $LOUPE_LIBRARY, else the repository's uploads/."
    )
    max_file_mb: float = Field(100.0, gt=0, description="Largest PDF accepted, in megabytes of 1,000,000 bytes.")
    max_pages: int = Field(1500, gt=0, description="Most pages a PDF may have; checked before parsing.")
    max_parse_seconds: float = Field(240.0, gt=0, description="A parse taking longer than this is abandoned.")
    max_page_content_mb: float = Field(
        32.0, gt=0, description="Largest decoded content stream of one page (a 'zip bomb' guard), in megabytes."
    )
    database_url: SecretStr | None = Field(
        None,
        exclude=True,
        repr=False,
        description="A postgresql:// URL: documents, chunks and runs live in that database (a team library); "
        "None means $LOUPE_DATABASE_URL, and neither means the embedded default (this folder, Whoosh, SQLite). "
        "Never dumped (it may hold a password).",
    )
    user: str | None = Field(
        None,
        exclude=True,
        description="Who acts on a team library with access control on ($LOUPE_ADMINS set): the signed-in user "
        "or --user; None means $LOUPE_USER. Not dumped (it changes what is visible, not how answers are made).",
    )
    collection: str | None = Field(
        None,
        exclude=True,
        description="The collection new documents go to with access control on; None means the only "
        "collection the user may upload to.",
    )
    isolate_parsing: bool = Field(
        True, description="Read each PDF in a worker process with memory and time limits (where fork exists)."
    )
    dense_after_keyword: bool = Field(
        True,
        description="The PDF worker builds the LSA once the keyword index is built (the first question waits "
        "for that index only, and its process needs a core); off, both at once (the CLI's ingest waits for both).",
    )
    load_after_ingest: bool = Field(
        True,
        description="After an ingest, the background build decodes the parse and opens its keyword index for the "
        "next question of this process; off (the CLI's ingest, which asks nothing), it only moves the indexes the "
        "PDF worker built into the entry (a missing or damaged one is still built).",
    )
    max_parse_memory_mb: int = Field(
        2048, ge=256, description="Memory the PDF worker may use beyond what it inherits, in megabytes."
    )
    max_page_seconds: float = Field(30.0, gt=0, description="Reading one page may take this long at most.")
    ocr: bool = Field(True, description="Read pages without a text layer with Tesseract OCR, when it is installed.")
    ocr_dpi: int = Field(200, ge=72, le=600, description="Resolution pages are rendered at for OCR.")
    max_ocr_page_seconds: float = Field(90.0, gt=0, description="OCR of one page may take this long at most.")
    cache_documents: int = Field(
        8, ge=1, description="Documents kept loaded (parsed, indexed) per process; the least recently used go."
    )

    def resolved_path(self) -> Path:
        """The library folder this configuration points at."""
        if self.path:
            return Path(self.path)
        env = os.environ.get("LOUPE_LIBRARY")
        if env:
            return Path(env)
        return REPO_ROOT / "uploads"

    def resolved_database_url(self) -> str:
        """The database URL this configuration points at ("" for the embedded default)."""
        if self.database_url is not None:
            return self.database_url.get_secret_value().strip()
        return os.environ.get("LOUPE_DATABASE_URL", "").strip()

    def resolved_user(self) -> str | None:
        """The user this configuration acts as (``user``, else ``$LOUPE_USER``), or None."""
        return (self.user or os.environ.get("LOUPE_USER", "")).strip() or None


class ParsingConfig(_Section):
    """Layer-1 parsing knobs."""

    repeated_line_min_fraction: float = Field(
        0.4, ge=0, le=1, description="A line on at least this share of pages (top/bottom) is a running header/footer."
    )
    heading_size_ratio: float = Field(
        1.12, ge=1, description="A line this much larger than the body font (or bold and short) is a heading."
    )
    scanned_chars_per_page: int = Field(
        20, ge=0, description="Pages with fewer text characters than this count as having no text layer."
    )
    max_chunk_chars: int = Field(1200, ge=200, description="Blocks longer than this are split at sentence ends.")
    min_chunk_chars: int = Field(40, ge=1, description="Shorter consecutive blocks are merged with their neighbour.")


class RetrievalConfig(_Section):
    """Retriever sizes and fusion."""

    top_k: int = Field(8, ge=1, description="Chunks kept after fusion for one query.")
    per_retriever_k: int = Field(20, ge=1, description="Candidates each retriever contributes to fusion.")
    rrf_k: int = Field(60, ge=1, description="Reciprocal-rank fusion constant.")
    min_pages: int = Field(
        5, ge=0, description="Pages a fused search covers at least: the best hit of each further page is appended."
    )
    heading_boost: float = Field(2.0, ge=1, description="BM25F boost of the section-title field.")
    dense_dimensions: int = Field(96, ge=8, description="LSA dimensions of the offline dense retriever.")
    cache_entries: int = Field(512, ge=0, description="Entries of the per-process retrieval cache.")


class GenerationConfig(_Section):
    """Context assembly and answer shape."""

    max_prompt_tokens: int = Field(3000, ge=100, description="Evidence tokens sent in one answer call.")
    max_answer_sentences: int = Field(5, ge=1, description="Sentences the offline backend extracts.")
    max_citations: int = Field(6, ge=1, description="Citations kept in one answer.")
    max_evidence_pages: int = Field(
        5,
        ge=1,
        le=10,
        description="Pages an answer cites at most: its own citations, then the closest passage of each further "
        "strongly retrieved page (a supporting citation).",
    )
    min_support_share: float = Field(
        0.3,
        ge=0,
        le=1,
        description="A supporting passage scores at least this share of the best supporting candidate's score.",
    )
    min_claim_confidence: float = Field(
        0.6,
        ge=0,
        le=1,
        description="Below this confidence an incomplete answer is not stated as one: the answer says what is "
        "missing and shows the closest passages instead.",
    )


class BackendConfig(_Section):
    """Which backend answers, and how a network backend is reached.

    Whose key goes where: the server's key (``$OPENAI_API_KEY``) is only ever sent to the server's endpoint
    (``$OPENAI_BASE_URL``, or OpenAI's when unset). An endpoint a visitor of the web app typed
    (``endpoint_source="visitor"``) needs the visitor's own key, and the operator can forbid typed endpoints
    altogether (``LOUPE_ALLOW_TYPED_ENDPOINTS=0``). ``credentials()`` applies these rules.
    """

    kind: str = Field(
        "offline",
        pattern=r"^[a-z][a-z0-9_]{0,31}$",
        description="A backend name from engine.llm.BACKENDS: offline rules, or openai for an OpenAI-compatible API.",
    )
    model: str | None = Field(
        None, description="Model name for the OpenAI-compatible endpoint; None: the one model the endpoint serves."
    )
    base_url: str | None = Field(None, description="Endpoint; None means $OPENAI_BASE_URL or the OpenAI default.")
    api_key: SecretStr | None = Field(
        None, exclude=True, repr=False, description="Key; None means $OPENAI_API_KEY. Never dumped."
    )
    endpoint_source: Literal["operator", "visitor"] = Field(
        "operator",
        description="Who chose base_url and api_key: the operator (environment, CLI, code) or a visitor of the web "
        "app. A visitor's endpoint never receives the server's key.",
    )
    timeout_seconds: float = Field(
        20.0,
        gt=0,
        description="Per-request timeout, a reply complete by then (cut to what the question's seconds budget leaves "
        "the step).",
    )
    context_window_tokens: int = Field(
        8192, ge=512, description="The model's context window; the evidence of a request is fitted inside it."
    )
    max_retries: int = Field(2, ge=0, le=6, description="Retries of 408/429/5xx and connection errors.")
    max_reply_bytes: int = Field(
        4_000_000, ge=10_000, description="Largest reply body read from the endpoint; a longer one is cut off."
    )
    embeddings_model: str | None = Field(
        None,
        description="Model of an OpenAI-compatible embeddings endpoint (POST /v1/embeddings) dense retrieval ranks "
        "with; None (and no embeddings_url): the offline LSA.",
    )
    embeddings_url: str | None = Field(
        None, description="The embeddings endpoint; None: the chat endpoint (base_url, $OPENAI_BASE_URL or OpenAI's)."
    )
    embeddings_api_key: SecretStr | None = Field(
        None,
        exclude=True,
        repr=False,
        description="Key of an embeddings endpoint other than the chat endpoint; None: the key credentials() allows "
        "there (the server's key only to the server's endpoint). Never dumped.",
    )
    embeddings_batch_size: int = Field(32, ge=1, le=512, description="Chunks embedded per request.")
    embeddings_build_seconds: float = Field(
        120.0,
        gt=0,
        description="Embedding a document's chunks stops after this long (what is done is kept; the next question "
        "goes on); the LSA ranks meanwhile.",
    )

    def typed_endpoint(self) -> bool:
        """True when a visitor chose an endpoint other than the server's."""
        return (
            self.endpoint_source == "visitor"
            and bool(self.base_url)
            and not same_endpoint(self.base_url, server_endpoint())
        )

    def credentials(self) -> tuple[str | None, str]:
        """The endpoint to call (None: OpenAI's) and the key to send it, by the rules in the class docstring.

        Raises:
            EndpointPolicyError: a visitor's endpoint while the operator forbids them, a visitor's endpoint without
                the visitor's key, a malformed URL, no key at all, or a key an HTTP header cannot carry.
        """
        typed = self.typed_endpoint()
        if typed and not typed_endpoints_allowed():
            raise EndpointPolicyError(
                "this server does not let visitors choose an endpoint; clear the Base URL to use the server's"
            )
        url = (self.base_url or "").strip() or server_endpoint()
        if url is not None and urlparse(url).scheme not in ("http", "https"):
            raise EndpointPolicyError("the Base URL must start with http:// or https://")
        own = self.api_key.get_secret_value().strip() if self.api_key is not None else ""
        if typed and not own:
            raise EndpointPolicyError(
                "an endpoint typed in the settings needs its own API key; the server's key is only sent to the "
                "server's endpoint"
            )
        key = own or os.environ.get("OPENAI_API_KEY", "").strip()
        if not key:
            raise EndpointPolicyError("no API key: set OPENAI_API_KEY or pass one in the backend settings")
        if not key.isascii() or not key.isprintable():
            raise EndpointPolicyError(
                "the API key holds characters an HTTP header cannot carry (non-ASCII or control characters, "
                "often a paste error); copy the key again"
            )
        return url, key

    def embeddings_endpoint(self) -> BackendConfig | None:
        """How the embeddings endpoint is reached (``credentials()`` of the result applies the key rules), or
        None when dense retrieval stays on the offline LSA.

        The chat endpoint serves embeddings too unless ``embeddings_url`` names another one; another endpoint never
        gets the chat endpoint's key, only ``embeddings_api_key`` or what ``credentials()`` allows there.
        """
        if not (self.embeddings_model or self.embeddings_url):
            return None
        url = (self.embeddings_url or "").strip()
        update: dict[str, object] = {"model": self.embeddings_model}
        if url and not same_endpoint(url, (self.base_url or "").strip() or server_endpoint()):
            update |= {"base_url": url, "api_key": self.embeddings_api_key}
        return self.model_copy(update=update)


OPENAI_DEFAULT_URL = "https://api.openai.com/v1"


def server_endpoint() -> str | None:
    """The operator's endpoint: ``$OPENAI_BASE_URL``, or None for OpenAI's."""
    return os.environ.get("OPENAI_BASE_URL", "").strip() or None


def same_endpoint(a: str | None, b: str | None) -> bool:
    """Whether two base URLs name the same endpoint (None is OpenAI's; case of scheme and host and a trailing
    slash do not matter)."""

    def norm(url: str | None) -> tuple[str, str, str]:
        parts = urlparse((url or OPENAI_DEFAULT_URL).strip())
        return parts.scheme.lower(), (parts.netloc or "").lower(), parts.path.rstrip("/")

    return norm(a) == norm(b)


def typed_endpoints_allowed() -> bool:
    """The operator's switch: ``LOUPE_ALLOW_TYPED_ENDPOINTS=0`` (or false/no/off) forbids visitors' endpoints."""
    value = os.environ.get("LOUPE_ALLOW_TYPED_ENDPOINTS", "1").strip().lower()
    return value not in ("0", "false", "no", "off")


class LoopConfig(_Section):
    """Stop rules of the feedback loop."""

    confidence_drop: float = Field(
        0.15, ge=0, le=1, description="Stop when confidence falls this far below the best seen."
    )
    max_keywords: int = Field(15, ge=1, le=15, description="Keywords after expansion (originals always kept).")
    drift_min_overlap: float = Field(
        0.1, ge=0, le=1, description="New candidates sharing less than this with the anchors count as drift."
    )


def _budget(iterations: int, llm: int, retrieval: int, queries: int, tokens: int, seconds: float) -> Budget:
    return Budget(
        max_iterations=iterations,
        max_llm_calls=llm,
        max_retrieval_calls=retrieval,
        max_unique_queries=queries,
        max_context_tokens=tokens,
        max_seconds=seconds,
    )


class BudgetDefaults(_Section):
    """Default budgets by question complexity; callers override any field."""

    simple: Budget = Field(default_factory=lambda: _budget(2, 6, 16, 10, 8000, 20.0))
    moderate: Budget = Field(default_factory=lambda: _budget(3, 8, 28, 16, 14000, 30.0))
    complex: Budget = Field(default_factory=lambda: _budget(4, 12, 40, 24, 24000, 45.0))

    def for_complexity(self, complexity: Complexity) -> Budget:
        return getattr(self, complexity)


class EngineConfig(_Section):
    """The whole engine configuration."""

    library: LibraryConfig = Field(default_factory=LibraryConfig)
    parsing: ParsingConfig = Field(default_factory=ParsingConfig)
    retrieval: RetrievalConfig = Field(default_factory=RetrievalConfig)
    generation: GenerationConfig = Field(default_factory=GenerationConfig)
    backend: BackendConfig = Field(default_factory=BackendConfig)
    loop: LoopConfig = Field(default_factory=LoopConfig)
    budgets: BudgetDefaults = Field(default_factory=BudgetDefaults)
    strategy: StrategyName = Field("auto", description="Default strategy.")

    def fingerprint(self) -> str:
        """A short stable hash of every setting that changes results (secrets and paths excluded)."""
        data = self.model_dump(mode="json", exclude={"library": {"path"}, "backend": {"endpoint_source"}})
        blob = json.dumps(data, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


PRESETS: dict[str, EngineConfig] = {
    "balanced": EngineConfig(),
    "fast": EngineConfig(
        retrieval=RetrievalConfig(top_k=6, per_retriever_k=12),
        budgets=BudgetDefaults(
            simple=_budget(1, 4, 8, 6, 5000, 10.0),
            moderate=_budget(2, 6, 16, 10, 8000, 15.0),
            complex=_budget(3, 8, 24, 14, 12000, 20.0),
        ),
    ),
    "thorough": EngineConfig(
        retrieval=RetrievalConfig(top_k=10, per_retriever_k=30),
        budgets=BudgetDefaults(
            simple=_budget(3, 8, 24, 14, 12000, 30.0),
            moderate=_budget(4, 12, 40, 24, 24000, 45.0),
            complex=_budget(4, 16, 60, 32, 40000, 90.0),
        ),
    ),
}
"""Named configurations a person can pick; ``balanced`` is the default."""


def preset(name: str) -> EngineConfig:
    """Return a named preset; raises ``KeyError`` with the valid names otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        raise KeyError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}") from None
