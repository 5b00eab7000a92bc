"""How people write numbers: rounding modes, units (K, 万, 亿, million, bn), percent and per-mille,
full-width digits, Chinese numerals and English number words. Pure functions over exact Decimals."""

from __future__ import annotations

from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from typing import Literal

Rounding = Literal["half_up", "half_even", "truncate"]
_MODES = {"half_up": ROUND_HALF_UP, "half_even": ROUND_HALF_EVEN, "truncate": ROUND_DOWN}
_FULL_WIDTH = str.maketrans("0123456789.,-%", "０１２３４５６７８９．，－％")
_ZH_DIGITS = "零一二三四五六七八九"
_EN_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty"
).split()


def rounded(value: Decimal, places: int, mode: Rounding = "half_up") -> Decimal:
    return value.quantize(Decimal(1).scaleb(-places), rounding=_MODES[mode])


def num(value: Decimal, places: int = 2, *, sep: bool = True, mode: Rounding = "half_up") -> str:
    """`value` at `places` decimals, with thousands separators unless `sep` is false."""
    text = f"{rounded(value, places, mode):,.{places}f}"
    return text if sep else text.replace(",", "")


def scaled(value: Decimal, unit: str, places: int = 2, *, mode: Rounding = "half_up", space: str = "") -> str:
    """In a unit: K, 万, 亿, million, M, m, bn."""
    divisor = {"K": 3, "万": 4, "亿": 8, "million": 6, "M": 6, "m": 6, "bn": 9}[unit]
    return num(value.scaleb(-divisor), places, mode=mode) + space + unit


def pct(ratio: Decimal, places: int = 1, *, mode: Rounding = "half_up", sign: bool = True) -> str:
    shown = ratio * 100 if sign else abs(ratio) * 100
    return num(shown, places, mode=mode) + "%"


def permille(ratio: Decimal, places: int = 0) -> str:
    return num(ratio * 1000, places) + "‰"


def full_width(text: str) -> str:
    return text.translate(_FULL_WIDTH)


def zh_numeral(n: int) -> str:
    """0-99 in Chinese numerals: 五, 十二, 三十, 四十五."""
    if n < 10:
        return _ZH_DIGITS[n]
    tens, ones = divmod(n, 10)
    head = "" if tens == 1 else _ZH_DIGITS[tens]
    return head + "十" + (_ZH_DIGITS[ones] if ones else "")


def en_word(n: int) -> str:
    return _EN_WORDS[n]


def differs(written: Decimal, truth: Decimal, places: int) -> bool:
    """True when no rounding of `truth` to `places` decimals reads `written` (a fabricated value really is wrong)."""
    modes: tuple[Rounding, ...] = ("half_up", "half_even", "truncate")
    return all(rounded(truth, places, mode) != written for mode in modes)
