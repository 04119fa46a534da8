"""Keyword retrieval: a Whoosh BM25F index over a document's chunks.

Two indexed fields and nothing stored: ``body`` (stemmed text) and ``section`` (section titles +
bold run-in terms, boosted by ``RetrievalConfig.heading_boost``). A hit's whoosh document number
is the chunk's position in the parsed document (one segment, written in chunk order), so ids and
pages need no postings of their own; page filters are sets of document numbers. Terms are
computed once per chunk by :func:`index_terms` (the same terms as whoosh's ``StemmingAnalyzer``,
which still parses queries) instead of whoosh's token-object pipeline, and written straight into
the segment (:func:`_add_chunks`: the same bytes as whoosh's ``add_document`` + ``commit``, in
about half the time). ``loupe-index.json`` records the format and the chunk ids the index was
built from; any mismatch reads as stale. The whoosh searcher is opened once and reused under a lock.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Iterator, Sequence
from pathlib import Path

from whoosh import index as whoosh_index
from whoosh.analysis import STOP_WORDS, StemmingAnalyzer
from whoosh.analysis.tokenizers import default_pattern
from whoosh.codec.whoosh3 import W3Codec
from whoosh.fields import TEXT, Schema
from whoosh.filedb.filestore import RamStorage
from whoosh.lang.porter import stem as porter_stem
from whoosh.qparser import MultifieldParser, OrGroup
from whoosh.system import pack_uint
from whoosh.util.numeric import byte_to_length, length_to_byte
from whoosh.writing import SegmentWriter

from engine.config import RetrievalConfig
from engine.contracts import Chunk, ParsedDocument, RankedList
from engine.documents.text import DOUBLED_CONSONANT, content_words, tokenize
from engine.errors import LibraryCorruptError
from engine.retrieval.hit_map import ChunkMap
from engine.retrieval.protocols import KEYWORD_META_NAME
from engine.retrieval.segment_terms import add_terms

log = logging.getLogger(__name__)

INDEX_FORMAT = 3
"""Bump when the schema or the term computation changes: older indexes read as stale and are rebuilt."""
META_NAME = KEYWORD_META_NAME
_WHOOSH_SUFFIXES = (".toc", ".seg", ".pst", ".trm", ".fln", ".lck", ".ctmp")

_SYNTAX = re.compile(r"[^\w.]+")
_MIN_TERM = 2  # StemmingAnalyzer's StopFilter minsize
_STOP = frozenset(STOP_WORDS)

_WORD = re.compile(default_pattern.pattern.replace("(\\.?", "(?:\\.?"))
"""Whoosh's token pattern without its capturing group, so ``findall`` returns whole tokens."""
_STEMS: dict[str, str] = {}
_MAX_STEMS = 200_000


def stem(word: str) -> str:
    """Whoosh's Porter stem, with the step its port skips: a consonant doubled before "-ing" or "-ed" is undone
    ("tripping" -> "trip", as "trip"; whoosh gives "tripp"), so a question's "round-tripping" finds "round-trip"."""
    term = porter_stem(word)
    if term != word and word.endswith(("ing", "ed")) and len(term) >= 4 and DOUBLED_CONSONANT.search(term):
        return term[:-1]
    return term


def _stem_all(words: list[str]) -> list[str]:
    stems = _STEMS
    if len(stems) > _MAX_STEMS:
        stems.clear()
    out = []
    for word in words:
        if len(word) < _MIN_TERM or word in _STOP:
            continue
        term = stems.get(word)
        if term is None:
            term = stems[word] = stem(word)
        out.append(term)
    return out


def index_terms(text: str) -> dict[str, int]:
    """Term frequencies of ``text`` exactly as whoosh's default ``StemmingAnalyzer`` produces them
    (regex tokens, lower-cased, stop words and 1-letter tokens dropped, Porter-stemmed)."""
    words = _WORD.findall(text)
    if not words:
        return {}
    return Counter(_stem_all(" ".join(words).lower().split(" ")))  # one lower() call; tokens hold no spaces


class _PrecountedText(TEXT):
    """A TEXT field indexed from :func:`index_terms` (queries still go through the analyzer)."""

    def index(self, value: str, **kwargs: object) -> Iterator[tuple[bytes, int, float, bytes]]:
        boost = self.format.field_boost
        for term, freq in index_terms(value).items():
            yield term.encode("utf-8"), freq, freq * boost, pack_uint(freq)


def _schema(config: RetrievalConfig) -> Schema:
    return Schema(
        body=_PrecountedText(analyzer=StemmingAnalyzer(stemfn=stem), phrase=False),
        section=_PrecountedText(analyzer=StemmingAnalyzer(stemfn=stem), phrase=False, field_boost=config.heading_boost),
    )


def _section_text(chunk: Chunk) -> str:
    return " ".join((*chunk.section_path, *chunk.bold_terms))


def _fingerprint(doc: ParsedDocument) -> str:
    sha = hashlib.sha1()
    for chunk in doc.chunks:
        sha.update(chunk.chunk_id.encode())
        sha.update(b"\0")
    return sha.hexdigest()


def name_terms(doc: ParsedDocument) -> frozenset[str]:
    """The terms of the running headers and footers holding a word: what the document calls itself."""
    return frozenset(t for line in doc.repeated_lines if any(c.isalpha() for c in line) for t in index_terms(line))


def weighted_query(text: str, names: frozenset[str]) -> str:
    """``text`` (cleaned words), each naming the document weighted ``NAME_WEIGHT`` if another word is asked."""
    words = text.split()
    named = [bool(set(_stem_all([w])) & names) for w in words]
    if not any(named) or all(named):
        return text
    return " ".join(f"{w}^{NAME_WEIGHT}" if n else w for w, n in zip(words, named, strict=True))


def clean_query(query: str) -> str:
    """User text reduced to plain lower-case words, so no query syntax can reach the parser."""
    words = content_words(query) or tokenize(query)
    cleaned = (_SYNTAX.sub(" ", w).strip(" .") for w in words)
    return " ".join(w for w in cleaned if w)


class _PrivateRamStorage(RamStorage):
    """Whoosh's RamStorage gives the writer's posting pool a folder ``<tmp>/MAIN.tmp``, shared by every
    process that builds an index at the same moment. This one gives it a private in-memory storage:
    :func:`_add_chunks` writes the segment itself and never fills the pool, so a build touches no
    temporary folder at all, and one stopped midway (a cancelled ingest stops the PDF worker's
    processes, the keyword builder among them) leaves nothing behind in the temporary directory."""

    def temp_storage(self, name: str | None = None) -> RamStorage:
        return RamStorage()


def segment_codec() -> W3Codec:
    """Whoosh's codec with its posting blocks left uncompressed: zlib took a fifth of a build's time and the
    blocks of one document's index are small. A block records its own compression, so indexes written
    compressed (older builds) read alike, and the postings, hence every score and ranking, are the same."""
    return W3Codec(compression=0)


def _write(ix: whoosh_index.Index, doc: ParsedDocument) -> None:
    writer = ix.writer(codec=segment_codec())
    try:
        if doc.chunks:
            _add_chunks(writer, doc.chunks)
        writer.commit()
    except BaseException:
        writer.cancel()
        raise


_KEPT_SEARCHES = 64  # searches whose result an index keeps (a few questions' worth; each is ``k`` tuples)

NAME_WEIGHT = 0.3
"""Weight of a query word naming the document itself, a word of its running header ("Kestrel", "90" under
"Owner's guide Kestrel 90"): every page is about it, yet the body, header stripped, prints it rarely, so
BM25 would rank the pages that do (cover, hotline) above the one that answers. A tie-break, no more."""

_FIELDS = ("body", "section")  # the indexed fields in the order whoosh writes them (sorted by name)


def _add_chunks(writer: SegmentWriter, chunks: Sequence[Chunk]) -> None:
    """Write every chunk into ``writer``'s new segment: the same files ``add_document`` + ``commit`` write.

    Whoosh's own path puts each posting as a tuple into a pool, sorts the pool, then looks each
    posting's field length up again in the column it just wrote and adds the postings one call
    each; here the postings are grouped per term as the chunks are read (document numbers ascend
    by construction), the terms are sorted once, the lengths come from a list and each block of
    postings is filled in one go. Each chunk is one document, numbered in chunk order. Section
    texts repeat from chunk to chunk, so their terms are computed once per distinct text. The postings
    go straight into the W3 codec's files of the pinned whoosh-reloaded 2.7.5 (``segment_terms.add_terms``);
    tests/retrieval/test_keyword_writer.py checks that the segment's bytes equal whoosh's own.
    """
    schema = writer.schema
    perdoc = writer.perdocwriter
    postings: list[dict[bytes, tuple[list[int], list[int]]]] = [{} for _ in _FIELDS]
    lengths: list[list[int]] = [[] for _ in _FIELDS]  # as the length column reads back (quantized)
    sections: dict[str, dict[str, int]] = {}
    encoded: dict[str, bytes] = {}
    for docnum, chunk in enumerate(chunks):
        perdoc.start_doc(docnum)
        section = _section_text(chunk)
        found = sections.get(section)
        if found is None:
            found = sections[section] = index_terms(section)
        for slot, terms in enumerate((index_terms(chunk.text), found)):
            length = sum(terms.values())
            lengths[slot].append(byte_to_length(length_to_byte(length)) if length else 0)
            table = postings[slot]
            for term, freq in terms.items():
                key = encoded.get(term)
                if key is None:
                    key = encoded[term] = term.encode("utf-8")
                pair = table.get(key)
                if pair is None:
                    table[key] = ([docnum], [freq])
                else:
                    pair[0].append(docnum)
                    pair[1].append(freq)
            perdoc.add_field(_FIELDS[slot], schema[_FIELDS[slot]], None, length)
        perdoc.finish_doc()
    fields = writer.fieldwriter
    for slot, name in enumerate(_FIELDS):
        if postings[slot]:
            fields.start_field(name, schema[name])
            add_terms(fields, postings[slot], lengths[slot], schema[name].format.field_boost)
            fields.finish_field()
    writer.docnum = len(chunks)
    writer._added = True


def _build_in_memory(doc: ParsedDocument, config: RetrievalConfig) -> RamStorage:
    storage = _PrivateRamStorage()
    _write(storage.create_index(_schema(config)), doc)
    return storage


class KeywordIndex:
    """BM25F search over one document's chunks (on disk, one directory per document)."""

    engine = "Whoosh BM25F"

    def __init__(self, ix: whoosh_index.Index, doc: ParsedDocument, config: RetrievalConfig) -> None:
        self._ix = ix
        self._config = config
        self._lock = threading.Lock()
        self._searcher = ix.searcher()
        self._parser = MultifieldParser(["body", "section"], ix.schema, group=OrGroup.factory(0.9))
        self.doc = doc
        self.memory_backed = False
        self._order: tuple[tuple[str, int], ...] = tuple((c.chunk_id, c.page) for c in doc.chunks)
        self._docnums_by_page: dict[int, list[int]] = {}
        for number, (_, page) in enumerate(self._order):
            self._docnums_by_page.setdefault(page, []).append(number)
        self._map = ChunkMap(doc)
        self._name_terms = name_terms(doc)
        self._found: OrderedDict[tuple[str, int, frozenset[int] | None], list[tuple[str, int, float]]] = OrderedDict()

    # ---- construction -----------------------------------------------------------------------

    @staticmethod
    def write(doc: ParsedDocument, directory: Path, config: RetrievalConfig) -> RamStorage | None:
        """Write the keyword index of ``doc`` into ``directory`` (created; previous index files replaced), the
        metadata file last; the in-memory storage it was built in (None when the build fell back to the disk).
        Only the files: a process that builds the index for another (the PDF worker's) opens no searcher."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        for old in directory.iterdir():
            if old.is_file() and (old.suffix in _WHOOSH_SUFFIXES or old.name == META_NAME):
                old.unlink()
        storage: RamStorage | None = None
        try:
            storage = _build_in_memory(doc, config)
            for name, data in storage.files.items():
                (directory / name).write_bytes(bytes(data))
        except ValueError as exc:  # whoosh's in-memory column writer occasionally trips; use the disk
            log.warning("in-memory index build failed (%s); building on disk", exc)
            storage = None
            _write(whoosh_index.create_in(str(directory), _schema(config)), doc)
        meta = {
            "format": INDEX_FORMAT, "chunks": len(doc.chunks), "chunk_ids": _fingerprint(doc),
            "heading_boost": config.heading_boost,
        }  # fmt: skip
        (directory / META_NAME).write_text(json.dumps(meta), encoding="utf-8")
        log.debug("keyword index written: %d chunks in %s", len(doc.chunks), directory)
        return storage

    @classmethod
    def build(cls, doc: ParsedDocument, directory: Path, config: RetrievalConfig) -> KeywordIndex:
        """Index every chunk of ``doc`` into ``directory`` (created; previous index files replaced).

        The index is built in memory (whoosh's file storage stats a file per field per document)
        and its files are then written to ``directory`` in one go, the metadata file last. The
        returned index searches the in-memory copy (the same bytes), so the directory may be renamed
        into place while it is in use; ``memory_backed`` is False when the build fell back to the disk.
        """
        storage = cls.write(doc, directory, config)
        ix = storage.open_index() if storage is not None else whoosh_index.open_dir(str(directory))
        built = cls(ix, doc, config)
        built.memory_backed = storage is not None
        return built

    @classmethod
    def in_memory(cls, doc: ParsedDocument, config: RetrievalConfig) -> KeywordIndex:
        """An index kept in memory only (for a library that cannot be written)."""
        return cls(_build_in_memory(doc, config).open_index(), doc, config)

    @classmethod
    def open(cls, directory: Path, doc: ParsedDocument, config: RetrievalConfig) -> KeywordIndex:
        """Open an index built by :meth:`build`; ``LibraryCorruptError`` when unreadable or stale."""
        try:
            meta = json.loads((Path(directory) / META_NAME).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise LibraryCorruptError(f"the keyword index in {directory} is missing or unreadable ({exc})") from exc
        if not isinstance(meta, dict) or meta.get("format") != INDEX_FORMAT:
            raise LibraryCorruptError(f"the keyword index in {directory} has an older format; rebuild it")
        try:
            ix = whoosh_index.open_dir(str(directory), readonly=True)
            count = ix.doc_count()
        except Exception as exc:  # whoosh raises many unrelated types on damaged files
            raise LibraryCorruptError(f"the keyword index in {directory} is unreadable ({exc}); rebuild it") from exc
        if count != len(doc.chunks) or meta.get("chunks") != count:
            raise LibraryCorruptError(
                f"the keyword index in {directory} holds {count} chunks but the document has {len(doc.chunks)}"
            )
        if meta.get("chunk_ids") != _fingerprint(doc):
            raise LibraryCorruptError(f"the keyword index in {directory} was built from other chunks; rebuild it")
        if meta.get("heading_boost") != config.heading_boost:
            raise LibraryCorruptError(f"the keyword index in {directory} was built with another heading boost")
        try:
            return cls(ix, doc, config)
        except Exception as exc:
            raise LibraryCorruptError(f"the keyword index in {directory} cannot be searched ({exc})") from exc

    def matches(self, config: RetrievalConfig) -> bool:
        """Built with ``config``'s field boost (the only retrieval setting baked into the index)."""
        return bool(self._ix.schema["section"].format.field_boost == config.heading_boost)

    def with_document(self, doc: ParsedDocument) -> KeywordIndex:
        """The same whoosh index over replaced chunks (adaptive re-parse of some pages)."""
        clone = object.__new__(KeywordIndex)
        clone.__dict__.update(self.__dict__)
        clone.doc = doc
        clone._map = self._map.replaced(doc)
        return clone

    def close(self) -> None:
        with self._lock:
            self._searcher.close()

    # ---- search -----------------------------------------------------------------------------

    def search(self, query: str, k: int, pages: frozenset[int] | None = None) -> RankedList:
        """The ``k`` best chunks for ``query`` (optionally only on ``pages``); retriever="keyword"."""
        text = clean_query(query)
        if not text or k <= 0 or (pages is not None and not pages):
            return RankedList(query=query, retriever="keyword")
        allowed = None
        if pages:
            allowed = {n for p in pages for n in self._docnums_by_page.get(p, ())}
            if not allowed:
                return RankedList(query=query, retriever="keyword")
        limit = k * 2 if self._map.changed else k
        with self._lock:
            found = self._ranked(weighted_query(text, self._name_terms), limit, allowed)
        return RankedList(query=query, retriever="keyword", hits=self._map.hits(found, text.split(), k, "keyword"))

    def _ranked(self, text: str, limit: int, allowed: set[int] | None) -> list[tuple[str, int, float]]:
        """(chunk id, page, score) of whoosh's ``limit`` best documents. The last ``_KEPT_SEARCHES`` are kept: one
        question's passes and retrievers send the same words more than once (the main query alone, then fused
        with a section's), and a whoosh search of a long query takes tens of milliseconds on a long filing.
        Keyed by the cleaned words, the limit and the allowed documents: what whoosh's result depends on."""
        key = (text, limit, frozenset(allowed) if allowed is not None else None)
        found = self._found.get(key)
        if found is not None:
            self._found.move_to_end(key)
            return found
        results = self._searcher.search(self._parser.parse(text), limit=limit, filter=allowed)
        found = self._found[key] = [(*self._order[r.docnum], float(r.score)) for r in results]
        if len(self._found) > _KEPT_SEARCHES:
            self._found.popitem(last=False)
        return found
