"""OCR of pages without a text layer, with Tesseract through PyMuPDF (``get_textpage_ocr``).

Tesseract counts as installed when the ``tesseract`` program is on the PATH and its language
folder holds English (Debian: ``tesseract-ocr`` and ``tesseract-ocr-eng``), or when
``TESSDATA_PREFIX`` names a folder holding ``eng.traineddata``. Without it, a scan is refused with
a message saying how to make it readable.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import shutil
import subprocess
from pathlib import Path

import pymupdf

from engine.config import LibraryConfig
from engine.documents.layout import Line, extract_lines

logger = logging.getLogger(__name__)

LANGUAGE = "eng"
_LANG_FOLDER = re.compile(r'available languages in "(.+?)"')


def _has_language(folder: str | os.PathLike[str]) -> bool:
    return (Path(folder) / f"{LANGUAGE}.traineddata").is_file()


@functools.cache
def _installed_folder(program: str | None, prefix: str | None) -> str | None:
    if prefix:
        return prefix if _has_language(prefix) else None
    if program is None:
        return None
    try:
        listed = subprocess.run([program, "--list-langs"], capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        logger.info("tesseract could not be run: %s", exc)
        return None
    match = _LANG_FOLDER.search(listed.stdout + listed.stderr)
    return match.group(1) if match and _has_language(match.group(1)) else None


def tessdata_folder() -> str | None:
    """Tesseract's language folder when Tesseract with English is installed, else None."""
    return _installed_folder(shutil.which("tesseract"), os.environ.get("TESSDATA_PREFIX") or None)


def no_text_message(limits: LibraryConfig) -> str:
    """Why a document without any text was refused, and what to do."""
    base = "this PDF has no text layer (it looks like a scan); OCR it first, e.g. with ocrmypdf, and upload the result"
    if limits.ocr and tessdata_folder() is None:
        return base + " (or install Tesseract with English, e.g. apt-get install tesseract-ocr tesseract-ocr-eng)"
    return base


def needs_ocr(blocks: list[list[Line]], page: pymupdf.Page, min_chars: int) -> bool:
    """A page with (almost) no text but an image on it: a scanned page."""
    chars = sum(line.chars for lines in blocks for line in lines)
    return chars < max(min_chars, 1) and bool(page.get_images(full=False))


def ocr_lines(page: pymupdf.Page, dpi: int) -> list[list[Line]] | None:
    """The page's lines read by Tesseract, or None when Tesseract is not installed or fails."""
    folder = tessdata_folder()
    if folder is None:
        return None
    try:
        textpage = page.get_textpage_ocr(language=LANGUAGE, dpi=dpi, full=True, tessdata=folder)
        return extract_lines(page.get_text("dict", textpage=textpage))
    except (RuntimeError, ValueError) as exc:
        logger.warning("OCR of page %d failed: %s", page.number + 1, exc)
        return None
