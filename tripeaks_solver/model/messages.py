"""The refusal messages in English, Vietnamese and Slovak (see docs/rules.md, Messages)."""

from __future__ import annotations

import os

from ..errors import InputError

LANGUAGES = ("en", "vi", "sk")

MESSAGES: dict[str, dict[str, str]] = {
    "blocked": {
        "en": "This card is blocked",
        "vi": "Lá bài này bị chặn",
        "sk": "Táto karta je zablokovaná",
    },
    "not_adjacent": {
        "en": "Must be one rank higher or lower",
        "vi": "Phải cao hơn hoặc thấp hơn một bậc",
        "sk": "Musí mať hodnotu o jeden stupeň vyššiu alebo nižšiu",
    },
    "stuck": {
        "en": "No more valid moves",
        "vi": "Không còn nước đi hợp lệ",
        "sk": "Žiadny ďalší ťah nie je možný",
    },
    "stock_empty": {
        "en": "The stock is empty",
        "vi": "Chồng bài rút đã hết",
        "sk": "Doberací balíček je prázdny",
    },
    "nothing_to_undo": {
        "en": "Nothing to undo",
        "vi": "Không có gì để hoàn tác",
        "sk": "Nie je čo vrátiť",
    },
    "not_in_tableau": {
        "en": "This card is not in the peaks",
        "vi": "Lá bài này không ở trên các đỉnh",
        "sk": "Táto karta nie je vo vrcholoch",
    },
    "draw_not_allowed": {
        "en": "Draw only when no card can be played",
        "vi": "Chỉ rút bài khi không còn lá nào chơi được",
        "sk": "Doberať možno len vtedy, keď nemožno zahrať žiadnu kartu",
    },
    "not_face_up": {
        "en": "No such card is face up in the peaks",
        "vi": "Không có lá bài này đang ngửa trên các đỉnh",
        "sk": "Taká karta nie je odkrytá vo vrcholoch",
    },
    "game_over": {
        "en": "The game is won",
        "vi": "Ván chơi đã thắng",
        "sk": "Hra je vyhraná",
    },
}


def language_from_env() -> str:
    """The language named by ``LANG`` (``vi_VN.UTF-8`` -> ``vi``), English otherwise."""
    lang = os.environ.get("LANG", "")[:2].lower()
    return lang if lang in LANGUAGES else "en"


def check_language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise InputError(f"unknown language {lang!r} (expected one of {', '.join(LANGUAGES)})")
    return lang


def message(key: str, lang: str | None = None) -> str:
    """The text of message ``key`` in ``lang`` (default: from the environment)."""
    return MESSAGES[key][lang or language_from_env()]
