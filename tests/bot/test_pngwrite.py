"""PNG files joined from bands compressed apart decode to the picture, as any decoder reads them."""

from __future__ import annotations

import io
import itertools
import random
import struct
import zlib

import pytest
from PIL import Image

from bot.pictures import pngwrite


def noisy_palette_image(width: int, height: int, seed: int) -> Image.Image:
    rng = random.Random(seed)
    image = Image.new("P", (width, height), 0)
    image.putdata([rng.choice((0, 0, 0, 1, 2, rng.randrange(96))) for _ in range(width * height)])
    return image


PALETTE = bytes(i * 7 % 256 for i in range(96 * 3))


def chunks(data: bytes):
    """The file's chunks as (kind, data), each CRC checked."""
    assert data[:8] == pngwrite.SIGNATURE
    at = 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + body), f"bad CRC in {kind}"
        yield kind, body
        at += 12 + length


@pytest.mark.parametrize("cuts", [(), (1,), (17, 40), (5, 6, 7, 50)])
def test_bands_compressed_apart_join_into_the_picture(cuts):
    image = noisy_palette_image(83, 61, seed=len(cuts))
    edges = [0, *cuts, image.height]
    bands = [
        pngwrite.band_of(image.crop((0, a, image.width, b))) for a, b in itertools.pairwise(edges)
    ]
    data = pngwrite.write(pngwrite.head(image.width, image.height, PALETTE), bands)
    found = list(chunks(data))
    assert [kind for kind, _ in found[:2]] == [b"IHDR", b"PLTE"] and found[-1] == (b"IEND", b"")
    stream = b"".join(body for kind, body in found if kind == b"IDAT")
    rows = zlib.decompress(stream)  # checks the stream's adler32 too
    width = image.width
    assert rows == b"".join(
        b"\0" + image.tobytes()[y * width : (y + 1) * width] for y in range(image.height)
    )
    decoded = Image.open(io.BytesIO(data))
    assert (decoded.mode, decoded.size) == ("P", image.size)
    assert decoded.tobytes() == image.tobytes()
    assert bytes(decoded.getpalette()) == PALETTE


def test_the_rows_checksum_is_combined_from_the_bands():
    rng = random.Random(1)
    for _ in range(50):
        first = rng.randbytes(rng.randrange(0, 3000))
        second = rng.randbytes(rng.randrange(0, 200_000))
        combined = pngwrite._adler_combine(zlib.adler32(first), zlib.adler32(second), len(second))
        assert combined == zlib.adler32(first + second)
