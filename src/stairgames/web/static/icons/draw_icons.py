"""Draws the app's icons (``icon-192.png``, ``icon-512.png``, ``maskable-512.png``) from the
site's look: the header's brand mark, three rising steps of light wood (``#e9cf9f``) on
the header's dark brown (``#3a2a1a``), as ``style.css`` draws it.

Run ``python src/stairgames/web/static/icons/draw_icons.py`` after changing it;
``tests/test_web_install.py`` checks that the committed files are what it draws. Pure
Python (``zlib``), so that it needs nothing installed.
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

DARK = (0x3A, 0x2A, 0x1A)
WOOD = (0xE9, 0xCF, 0x9F)
EDGE = (0xB9, 0x8A, 0x52)
"""The wood's darker tone (``--wood-dark``): a line where each step meets the next."""
ICONS = {
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "maskable-512.png": (512, True),
}
"""Each icon: its size, and whether it is maskable (full bleed, the steps inside the
safe zone: a circle of 80% of its width)."""
SAMPLES = 4
"""Samples a pixel's side at the rounded corners (their edge antialiased)."""


def _inside_rounded(x: float, y: float, size: int, radius: float) -> bool:
    cx = min(max(x, radius), size - radius)
    cy = min(max(y, radius), size - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius**2


def _colour(x: float, y: float, size: int, box: float) -> tuple[int, int, int]:
    """The colour at ``(x, y)``: a step of wood, or the dark ground."""
    left, bottom = (size - box) / 2, (size + box) / 2
    step = box / 3
    column = int((x - left) // step)
    if 0 <= column < 3 and x >= left:
        top = bottom - step * (column + 1)
        if top <= y < bottom:
            edge = column > 0 and x - (left + column * step) < max(1.0, size / 128)
            return EDGE if edge else WOOD
    return DARK


def pixels(size: int, maskable: bool) -> list[bytes]:
    """The icon's rows, RGBA."""
    box = size * (0.56 if maskable else 0.62)
    radius = 0.0 if maskable else size * 0.18
    rows = []
    for y in range(size):
        row = bytearray()
        for x in range(size):
            r, g, b = _colour(x + 0.5, y + 0.5, size, box)
            alpha = 255
            if radius and not _inside_rounded(x + 0.5, y + 0.5, size, radius - 2):
                hits = sum(
                    _inside_rounded(x + (i + 0.5) / SAMPLES, y + (j + 0.5) / SAMPLES, size, radius)
                    for i in range(SAMPLES)
                    for j in range(SAMPLES)
                )
                alpha = round(255 * hits / SAMPLES**2)
            row += bytes((r, g, b, alpha))
        rows.append(bytes(row))
    return rows


def png(size: int, maskable: bool) -> bytes:
    """The icon as a PNG file (8-bit RGBA, no filter, deflated)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + row for row in pixels(size, maskable))
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def main(folder: Path) -> None:
    for name, (size, maskable) in ICONS.items():
        (folder / name).write_bytes(png(size, maskable))


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent)
