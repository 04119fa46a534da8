"""One field's postings written straight into a whoosh-reloaded 2.7.5 W3 segment (the keyword index's writer).

:func:`add_terms` writes the bytes ``W3FieldWriter.start_term`` / ``W3PostingsWriter.add_posting`` /
``finish_term`` write for each term, without their per-posting and per-block method calls, block buffers and
term-info objects: the posting blocks (``_write_block``: delta-coded ids, the weights as ``array("f")`` keeps
them, the values joined, each pickled with the block's info), the term's extent and its ``W3TermInfo`` row.
Writing the postings through those calls was about half of a keyword build; this writes them in two thirds
of that time. tests/retrieval/test_keyword_writer.py checks that the segment's bytes equal whoosh's own.
"""

from __future__ import annotations

import zlib
from array import array
from pickle import dumps

from whoosh.codec.whoosh3 import WHOOSH3_HEADER_MAGIC, W3FieldWriter, W3TermInfo
from whoosh.system import pack_int, pack_long, pack_uint, pack_ushort
from whoosh.util.numeric import length_to_byte

_PACKED = [pack_uint(n) for n in range(256)]
_TERM_INFO = W3TermInfo._struct
_NOT_INLINED = 0  # the term info's flags: postings in the postings file (the codec's inline limit is 1)


def add_terms(
    fields: W3FieldWriter, table: dict[bytes, tuple[list[int], list[int]]], lengths: list[int], boost: float
) -> None:
    """Write one field's terms (``table``: term bytes -> ascending document numbers and their frequencies), in
    byte order, each posting list cut in blocks of the codec's block limit; ``lengths``: each document's field
    length as the length column reads it back. The field was started on ``fields`` (``start_field``)."""
    post = fields._postwriter
    write, tell = post._postfile.file.write, post._postfile.file.tell  # StructFile.write/tell only delegate
    limit = post._blocklimit
    compression = post._compression
    add_row = fields._tindex.add
    prefix = pack_ushort(fields._fieldid)
    length_byte = _LengthBytes()
    for key in sorted(table):
        docnums, freqs = table[key]
        start = tell()
        weight_sum: float = 0  # whoosh's TermInfo starts its sums at int 0
        maxweight: float = 0
        df, maxlength, minlength = 0, 0, None
        count = len(docnums)
        for first in range(0, count, limit):
            ids, counts = docnums[first : first + limit], freqs[first : first + limit]
            raw = [float(freq * boost) for freq in counts]
            weights = array("f", raw)  # the block buffer's type: its values as float32
            block_lengths = [lengths[d] for d in ids]
            low, high, top = min(block_lengths), max(block_lengths), max(0, *raw)
            deltas = tuple([b - a for a, b in zip([0, *ids[:-1]], ids, strict=True)])  # delta-coded per block
            mini: float | tuple[float, ...] | None = weights[0]
            if weights.count(weights[0]) != len(weights):
                mini = tuple(weights)
            elif mini == 1.0:
                mini = None
            values = b"".join([_PACKED[f] if f < 256 else pack_uint(f) for f in counts])
            data = dumps((deltas, mini, values), 2)
            if compression:
                data = zlib.compress(data, compression)
            info = dumps((len(ids), ids[-1], top, compression, length_byte[low], length_byte[high]), 2)
            size = len(info) + len(data)
            head = pack_int(-size if first + limit >= count else size)
            write(b"".join((WHOOSH3_HEADER_MAGIC, head, info, data)) if not first else head + info + data)
            weight_sum += sum(weights)
            df += len(ids)
            minlength = low if minlength is None else min(minlength, low)
            maxlength, maxweight = max(maxlength, high), max(maxweight, top)
        row = _TERM_INFO.pack(_NOT_INLINED, weight_sum, df, 0 if minlength is None else length_byte[minlength],
                              length_byte[maxlength], maxweight, docnums[0], docnums[-1])  # fmt: skip
        add_row(prefix + key, row + pack_long(start) + pack_int(tell() - start))


class _LengthBytes(dict[int, int]):
    """``length_to_byte`` of each field length asked, computed once."""

    def __missing__(self, length: int) -> int:
        self[length] = value = length_to_byte(length)
        return value
