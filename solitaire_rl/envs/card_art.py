"""The play page's card art drawn with Pillow: faces, backs, empty places, highlight frames.

The same look as ``solitaire_rl/play/static/common.css``: a white face with the rank and suit in the corner
and a large suit (or the face card's letter and suit) in the middle, red hearts and diamonds;
the back in blue stripes with a white edge; an empty place as a dashed outline on the green felt.
Suits are drawn as shapes, so no font needs them; the ranks use DejaVu Sans Bold when Pillow
finds it (matplotlib ships it too), else Pillow's own font. Pillow comes with the ``render``
extra (``pip install -e ".[render]"``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from solitaire_rl.envs.cards import RANK_NAMES, rank, suit
from solitaire_rl.envs.errors import SolitaireError

FELT = (27, 94, 56)
INK = (27, 27, 27)
RED = (200, 16, 46)
BORDER = (138, 138, 138)
BACK_DARK = (35, 64, 138)
BACK_LIGHT = (47, 86, 173)
HINT = (255, 95, 210)
"""The page's hint colour: the frame of a highlighted place."""
WHITE = (255, 255, 255)
COVERED = 0.8
"""Brightness of a covered (unusable) card, as on the page."""

Box = tuple[int, int, int, int]
"""``(left, top, width, height)`` in pixels."""


class DependencyNotInstalled(SolitaireError):
    """A render mode needs a package that is not installed."""


def new_table(width: int, height: int) -> Any:
    """A blank table: the page's green felt."""
    return pillow()[0].new("RGB", (width, height), FELT)


def pillow() -> Any:
    """Pillow's ``Image`` and ``ImageDraw`` modules, or a clear error naming the extra."""
    try:
        from PIL import Image, ImageDraw
    except ImportError:  # pragma: no cover - Pillow comes with the render and test extras
        raise DependencyNotInstalled(
            'render_mode="rgb_array" needs Pillow: pip install -e ".[render]"'
        ) from None
    return Image, ImageDraw


@lru_cache(maxsize=16)
def font(size: int, serif: bool = False) -> Any:
    from PIL import ImageFont

    names = ("DejaVuSerif-Bold.ttf",) if serif else ("DejaVuSans-Bold.ttf",)
    for name in names:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            pass
        try:
            import matplotlib

            return ImageFont.truetype(f"{matplotlib.get_data_path()}/fonts/ttf/{name}", size)
        except (ImportError, OSError):
            pass
    return ImageFont.load_default(size)


def _suit_shape(draw: Any, suit_index: int, cx: float, cy: float, size: float,
                color: tuple[int, int, int]) -> None:
    """One suit symbol centred at ``(cx, cy)``, ``size`` pixels high: clubs, diamonds, hearts, spades."""
    r = size / 2
    if suit_index == 1:  # diamond
        draw.polygon([(cx, cy - r), (cx + r * 0.72, cy), (cx, cy + r), (cx - r * 0.72, cy)], fill=color)
        return
    if suit_index == 2:  # heart: two lobes and a point
        lobe = r * 0.52
        draw.ellipse([cx - 2 * lobe, cy - r * 0.75, cx, cy - r * 0.75 + 2 * lobe], fill=color)
        draw.ellipse([cx, cy - r * 0.75, cx + 2 * lobe, cy - r * 0.75 + 2 * lobe], fill=color)
        draw.polygon([(cx - 2 * lobe + r * 0.04, cy - r * 0.15), (cx + 2 * lobe - r * 0.04, cy - r * 0.15),
                      (cx, cy + r)], fill=color)
        return
    if suit_index == 3:  # spade: a point, two lobes and a stem
        lobe = r * 0.5
        draw.polygon([(cx, cy - r), (cx + 2 * lobe - r * 0.02, cy + r * 0.1),
                      (cx - 2 * lobe + r * 0.02, cy + r * 0.1)], fill=color)
        draw.ellipse([cx - 2 * lobe, cy - r * 0.2, cx, cy - r * 0.2 + 2 * lobe], fill=color)
        draw.ellipse([cx, cy - r * 0.2, cx + 2 * lobe, cy - r * 0.2 + 2 * lobe], fill=color)
        draw.polygon([(cx, cy + r * 0.3), (cx + r * 0.3, cy + r), (cx - r * 0.3, cy + r)], fill=color)
        return
    lobe = r * 0.46  # club: three leaves and a stem
    draw.ellipse([cx - lobe, cy - r, cx + lobe, cy - r + 2 * lobe], fill=color)
    draw.ellipse([cx - 2 * lobe - r * 0.08, cy - r * 0.2, cx - r * 0.08, cy - r * 0.2 + 2 * lobe], fill=color)
    draw.ellipse([cx + r * 0.08, cy - r * 0.2, cx + 2 * lobe + r * 0.08, cy - r * 0.2 + 2 * lobe], fill=color)
    draw.polygon([(cx, cy), (cx + r * 0.3, cy + r), (cx - r * 0.3, cy + r)], fill=color)


def _shade(color: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    return tuple(int(c * factor) for c in color)  # type: ignore[return-value]


def draw_face(image: Any, box: Box, card: int, *, covered: bool = False) -> None:
    """A card's face in ``box`` on ``image``; ``covered`` dims it as the page dims an unusable card."""
    draw = pillow()[1].Draw(image)
    x, y, w, h = box
    factor = COVERED if covered else 1.0
    radius = max(2, int(w * 0.09))
    draw.rounded_rectangle([x, y, x + w - 1, y + h - 1], radius, fill=_shade(WHITE, factor),
                           outline=_shade(BORDER, factor))
    color = _shade(RED if suit(card) in (1, 2) else INK, factor)
    name = RANK_NAMES[rank(card) - 1]
    size = max(8, int(w * 0.27))
    corner = font(size)
    draw.text((x + w * 0.06, y + w * 0.03), name, fill=color, font=corner)
    right = draw.textbbox((x + w * 0.06, y + w * 0.03), name, font=corner)[2]
    _suit_shape(draw, suit(card), right + size * 0.42, y + w * 0.03 + size * 0.62, size * 0.62, color)
    if name in ("J", "Q", "K"):
        face = font(max(8, int(w * 0.42)), serif=True)
        draw.text((x + w * 0.42, y + h * 0.5), name, fill=color, font=face, anchor="mm")
        _suit_shape(draw, suit(card), x + w * 0.72, y + h * 0.52, w * 0.22, color)
    else:
        _suit_shape(draw, suit(card), x + w * 0.5, y + h * 0.5, w * 0.42, color)


def draw_back(image: Any, box: Box, count: int | None = None) -> None:
    """A card's back (blue stripes, white edge) on ``image``; ``count`` written on it if given."""
    Image, ImageDraw = pillow()
    x, y, w, h = box
    radius = max(2, int(w * 0.09))
    tile = Image.new("RGB", (w, h), BACK_DARK)
    stripes = ImageDraw.Draw(tile)
    for k in range(0, w + h, 10):
        stripes.line([(k, 0), (k - h, h)], fill=BACK_LIGHT, width=5)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle([0, 0, w - 1, h - 1], radius, fill=255)
    image.paste(tile, (x, y), mask)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([x, y, x + w - 1, y + h - 1], radius, outline=WHITE, width=3)
    if count is not None:
        text = font(max(8, int(w * 0.34)))
        draw.text((x + w / 2, y + h / 2), str(count), fill=WHITE, font=text, anchor="mm", stroke_width=2,
                  stroke_fill=(0, 0, 0))


def draw_empty(image: Any, box: Box, label: str = "") -> None:
    """An empty place: a light dashed outline, with a short label."""
    draw = pillow()[1].Draw(image)
    x, y, w, h = box
    light = (200, 220, 205)
    for k in range(0, w, 8):
        draw.line([(x + k, y), (x + min(k + 4, w - 1), y)], fill=light, width=2)
        draw.line([(x + k, y + h - 1), (x + min(k + 4, w - 1), y + h - 1)], fill=light, width=2)
    for k in range(0, h, 8):
        draw.line([(x, y + k), (x, y + min(k + 4, h - 1))], fill=light, width=2)
        draw.line([(x + w - 1, y + k), (x + w - 1, y + min(k + 4, h - 1))], fill=light, width=2)
    if label:
        draw.text((x + w / 2, y + h / 2), label, fill=light, font=font(max(8, int(w * 0.2))), anchor="mm")


def draw_frame(image: Any, box: Box, color: tuple[int, int, int] = HINT) -> None:
    """A thick frame around ``box`` (the highlighted places of a move)."""
    draw = pillow()[1].Draw(image)
    x, y, w, h = box
    draw.rounded_rectangle([x - 3, y - 3, x + w + 2, y + h + 2], max(2, int(w * 0.12)), outline=color,
                           width=4)


def draw_status(image: Any, xy: tuple[int, int], text: str) -> None:
    """A line of status text in light ink."""
    pillow()[1].Draw(image).text(xy, text, fill=(245, 245, 245), font=font(15))


__all__ = [
    "FELT", "HINT", "Box", "DependencyNotInstalled", "draw_back", "draw_empty", "draw_face", "draw_frame",
    "draw_status", "font", "new_table", "pillow",
]
