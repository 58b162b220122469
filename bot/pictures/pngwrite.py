"""PNG files of palette pictures, written from bands of rows compressed apart and joined.

Each band of rows becomes its own IDAT chunk: raw deflate blocks that end byte-aligned
(a sync flush) and refer to nothing before them, so bands compressed at different
times join into one zlib stream, as pigz joins its blocks. A picture whose top rows did
not change reuses their chunk as it is: only the bands that changed are compressed, and
the stream's checksum is combined from the bands' own. Compression is ISA-L's (python-isal),
a deflate three times as fast as zlib's at its fastest, and its output a little smaller.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from typing import NamedTuple

import numpy as np
from isal import isal_zlib
from PIL import Image

LEVEL = 1  # ISA-L's effort
FASTEST = 0  # its least: a quarter faster, a quarter larger
SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ADLER_BASE = 65521
#: The zlib header (deflate, 32 KB window, fastest), then the bands' chunks, then a final
#: empty deflate block and the checksum of all the rows.
_ZLIB_HEADER = b"\x78\x01"
_FINAL_BLOCK = b"\x03\x00"


class Band(NamedTuple):
    """Some rows of a picture, ready to join: their IDAT chunk and what the checksum needs."""

    chunk: bytes
    adler: int  # adler32 of the rows as stored (each with its filter byte)
    length: int  # how many bytes those rows are


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = isal_zlib.crc32(data, isal_zlib.crc32(kind))
    return b"".join((struct.pack(">I", len(data)), kind, data, struct.pack(">I", crc)))


def canvas(width: int, height: int) -> np.ndarray:
    """Empty rows of a palette picture `width` wide, as PNG stores them: each after its
    filter byte (column 0: none, as long as nothing is put there)."""
    return np.zeros((height, width + 1), np.uint8)


def band(rows: np.ndarray, level: int = LEVEL) -> Band:
    """The band of a `canvas` (its rows), compressed (with ISA-L's effort `level`)."""
    deflate = isal_zlib.compressobj(level, isal_zlib.DEFLATED, -15)
    data = deflate.compress(rows) + deflate.flush(isal_zlib.Z_SYNC_FLUSH)
    return Band(_chunk(b"IDAT", data), isal_zlib.adler32(rows), rows.nbytes)


def band_of(image: Image.Image) -> Band:
    """The whole of a palette image as one band."""
    rows = canvas(image.width, image.height)
    rows[:, 1:] = np.asarray(image)
    return band(rows)


def _adler_combine(first: int, second: int, second_length: int) -> int:
    """adler32 of two byte strings joined, from theirs (zlib's adler32_combine)."""
    rem = second_length % _ADLER_BASE
    low = (first & 0xFFFF) + (second & 0xFFFF) + _ADLER_BASE - 1
    high = rem * (first & 0xFFFF) + (first >> 16) + (second >> 16) + _ADLER_BASE - rem
    return (high % _ADLER_BASE) << 16 | low % _ADLER_BASE


def head(width: int, height: int, palette: bytes) -> bytes:
    """The signature, IHDR (8-bit palette) and PLTE: what comes before the bands."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return SIGNATURE + _chunk(b"IHDR", ihdr) + _chunk(b"PLTE", palette)


_START = _chunk(b"IDAT", _ZLIB_HEADER)
_IEND = _chunk(b"IEND", b"")


def write(head_bytes: bytes, bands: Iterable[Band]) -> bytes:
    """The PNG file: `head` and the bands top to bottom (together all the rows)."""
    parts = [head_bytes, _START]
    adler = 1
    for each in bands:
        parts.append(each.chunk)
        adler = _adler_combine(adler, each.adler, each.length)
    parts.append(_chunk(b"IDAT", _FINAL_BLOCK + struct.pack(">I", adler)))
    parts.append(_IEND)
    return b"".join(parts)


def fingerprint(data: bytes) -> str:
    """16 hex digits that tell pictures apart (two checksums of independent kinds, so
    a file name changes with its picture): a tenth of the time of a cryptographic hash."""
    return f"{isal_zlib.crc32(data):08x}{isal_zlib.adler32(data):08x}"
