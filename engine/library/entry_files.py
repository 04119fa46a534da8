"""The files of a library entry: ``<root>/<doc_id>/{original.pdf, parsed.json, manifest.json, index/, dense.npz}``.

Named apart from the modules that write them, so that what only needs the names (ingest, listing the entries)
loads neither whoosh nor numpy.
"""

from __future__ import annotations

PDF_NAME = "original.pdf"
PARSED_NAME = "parsed.json"
MANIFEST_NAME = "manifest.json"
"""Written last: a folder without it is not an entry."""
INDEX_DIR = "index"
"""The keyword index's folder."""
DENSE_NAME = "dense.npz"
"""The LSA's file."""
