"""The app's refusal messages (see docs/rules.md, Messages), in English here and in the
app's own Vietnamese and Slovak words in the catalogs (:mod:`model.i18n`)."""

from __future__ import annotations

from .i18n import LANGUAGES, N_, check_language, current, language_from_env, translations

MESSAGES: dict[str, str] = {
    "blocked": N_("This card is blocked"),
    "not_adjacent": N_("Must be one rank higher or lower"),
    "stuck": N_("No more valid moves"),
    "stock_empty": N_("The stock is empty"),
    "nothing_to_undo": N_("Nothing to undo"),
    "not_in_tableau": N_("This card is not in the peaks"),
    "draw_not_allowed": N_("Draw only when no card can be played"),
    "not_face_up": N_("No such card is face up in the peaks"),
    "game_over": N_("The game is won"),
}


def message(key: str, lang: str | None = None) -> str:
    """The text of message ``key`` in ``lang`` (default: the current language)."""
    return translations(lang or current()).gettext(MESSAGES[key])


__all__ = ["LANGUAGES", "MESSAGES", "check_language", "language_from_env", "message"]
