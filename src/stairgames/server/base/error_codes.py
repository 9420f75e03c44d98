"""Stable machine codes of the server's refusals, apart from their translatable texts.

An error answer carries a message id (an English sentence, the key of its translations)
and a ``code`` (a short snake_case name). Clients and tests match the code; the sentence
may be reworded without breaking them, provided its entry here is renamed with it:
``tests/test_error_codes.py`` finds every message id the server can refuse with and
fails on one missing here, and on an entry here that nothing raises any more.

Errors of the rules engines (an illegal move, a malformed position, a wrong option) take
their code from their class: see :func:`code_of`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from stairgames.core.errors import (
    IllegalMoveError,
    InvalidOptionError,
    InvalidPositionError,
    InvalidRecordError,
    StairgamesError,
)
from stairgames.core.views import NoViewError

#: The code of a refusal whose message id is not listed (never, while the test holds).
REFUSED: Final = "refused"
#: The code of an error that is not a refusal: the server failed.
SERVER_ERROR: Final = "server_error"

#: Codes of the rules engines' errors, by class (the nearest class in the MRO decides).
ENGINE_CODES: Final[tuple[tuple[type[BaseException], str], ...]] = (
    (IllegalMoveError, "illegal_move"),
    (InvalidPositionError, "invalid_position"),
    (InvalidOptionError, "invalid_option"),
    (InvalidRecordError, "invalid_record"),
    (NoViewError, "no_view"),
)

#: Message id of each refusal the server makes -> its code.
ERROR_CODES: Final[Mapping[str, str]] = {
    # bodies and requests
    "malformed message: {reason}": "malformed_body",
    "the message is too large ({size} bytes; at most {limit})": "body_too_large",
    "the message must be sent as {type}": "wrong_content_type",
    "there is nothing at {path}": "not_found",
    "{method} is not allowed here": "method_not_allowed",
    "the request was refused ({code})": "refused",
    "the server could not carry out this request": "server_error",
    "unknown request type {type!r}": "unknown_request_type",
    "unknown language {language!r}": "unknown_language",
    "no board drawing for {game!r}": "no_board_drawing",
    "the web pages are not installed": "pages_not_installed",
    # limits
    "too many requests; wait a moment": "too_many_requests",
    "too many messages; wait a moment": "too_many_messages",
    "too many connections open (at most {limit})": "too_many_connections",
    "this match has as many spectators as it can take ({limit}); try again later": (
        "too_many_spectators"
    ),
    "you are sending messages too quickly; wait a few seconds": "chat_too_fast",
    # players and accounts
    "choose a name first": "name_needed",
    "no such player": "player_not_found",
    "a name must be text": "name_not_text",
    "a name has {min} to {max} characters": "name_length",
    "a name may not hold control or invisible characters": "name_characters",
    "the names “Anonymous N” are given by the server": "name_reserved",
    "that name is taken": "name_taken",
    "a name may not hold combining marks on their own": "name_marks",
    "a name needs a letter or a digit": "name_needs_letter",
    "a name may not hold “/” or “\\”": "name_slash",
    "that name is not allowed": "name_refused",
    "a player with rated games may change their name once": "rename_spent",
    "no name could be given; try again": "name_unavailable",
    "a password has {min} to {max} characters": "password_length",
    "wrong name or password": "wrong_login",
    "the current password is wrong": "wrong_password",
    "this player has a password already": "password_exists",
    # blocks, mutes and reports
    "a block stands between you and a player of this game": "blocked",
    "'kind' is block, mute or none": "bad_block_kind",
    "you cannot block or report yourself": "block_yourself",
    "a report says what happened in 1 to {max} characters": "report_length",
    # API tokens and bot accounts
    "an API token is needed (Authorization: Bearer <token>)": "token_missing",
    "this API token is unknown or revoked": "token_invalid",
    "this API token does not allow this (it needs {scope})": "token_scope",
    "a token's scopes are a list of {scopes}": "token_bad_scopes",
    "a token's description is 1 to {max} characters": "token_description_length",
    "at most {max} tokens are kept at once; revoke one first": "too_many_tokens",
    "no such token": "token_not_found",
    "only an account (a player with a password) may make API tokens": "token_needs_account",
    "tokens are made and revoked on the site, not with a token": "token_not_here",
    "a player who has played a game as a person cannot become a bot": "bot_has_played",
    "a person's rated challenge in the lobby is for people; a bot plays one when challenged": (
        "bot_rated_challenge"
    ),
    # the Bot API's streams and actions
    "too many streams open (at most {limit})": "too_many_streams",
    "say what is offered: 'takeback' or 'rematch'": "bad_offer_kind",
    "say whether the offer is accepted ('accept': true or false)": "bad_offer_answer",
    # e-mail
    "this server sends no e-mail": "no_mail",
    "that is not an e-mail address": "bad_address",
    "this link is no longer valid": "link_invalid",
    "'on' is true or false": "bad_flag",
    "this player has no e-mail address": "no_address",
    "only a player with a password can give an e-mail address": "address_needs_password",
    # matches and seats
    "a match needs a game name and an object of options": "bad_match_request",
    "a match needs a list of seats": "bad_seats",
    "{game} needs {count} seats, not {given}": "seat_count",
    "seat {seat}: say human, online or computer:LEVEL": "bad_seat",
    "seat {seat}: a computer plays at one of the levels {levels}, not {player!r}": (
        "unknown_level"
    ),
    "seat {seat}: the computer player {player!r} cannot play {game}: {reason}": (
        "computer_cannot_play"
    ),
    "a position must be a text of at most {limit} characters": "bad_position_text",
    "a game of {title} cannot start from a position: its cards are hidden": ("position_hidden"),
    "the game is over in this position": "position_over",
    "no match {match!r}": "match_not_found",
    "this token holds no seat in this match": "not_seated",
    "spectators cannot play; join a free seat to play": "spectator",
    "you resigned this game; you can watch it": "resigned",
    "no seat is free in this match; you can watch": "match_full",
    "the first message must be a hello with the seat's token": "hello_expected",
    "a seat's token is not taken in an address: send it in the X-Seat-Token header, "
    "or as the WebSocket's first message": "token_in_address",
    "the match changed meanwhile; try again": "match_changed",
    # moves
    "a move must be a short text in the game's notation": "bad_move_text",
    "a move must say the last event seen ('event')": "event_missing",
    "'event' must be a number": "bad_event",
    "stale request: it was made at event {seen}, the match is at {event}": "stale",
    "it is not your turn": "not_your_turn",
    "the game is over": "game_over",
    "your time ran out before this move arrived": "flagged",
    "the game was aborted before your first move arrived": "aborted",
    # undo, takebacks, rematches
    "moves cannot be taken back in games with dice or cards": "no_takebacks_here",
    "online, ask your opponent for a takeback instead": "ask_takeback",
    "takebacks are asked of an online opponent; use undo": "use_undo",
    "there is no move to take back": "nothing_to_take_back",
    "a takeback is already asked": "takeback_pending",
    "'accept' must be true or false": "bad_accept",
    "there is no takeback for you to answer": "no_takeback_asked",
    "a rematch can be asked once the game is over": "rematch_too_early",
    "there is no rematch offer to decline": "no_rematch_offer",
    # clocks
    "'time_control' must be an object with a 'kind'": "bad_time_control",
    "unknown time control field {field!r}": "unknown_time_control_field",
    "the time control's kind must be none, realtime or correspondence": "time_control_kind",
    "minutes must be ¼, ½, ¾ or a whole number from 1 to {most}": "bad_minutes",
    "the increment must be whole seconds from 0 to {most}": "bad_increment",
    "minutes and increment must be numbers": "clock_not_numbers",
    "days per move must be one of {days}": "bad_days",
    # vacation
    "you have no vacation days left": "no_vacation_days",
    "you are on vacation already": "already_on_vacation",
    "you are not on vacation": "not_on_vacation",
    "'action' must be start or end, and 'automatic' true or false": "bad_vacation",
    # planned replies
    "planned replies are a list of lines, each a list of moves": "plans_not_lines",
    "replies are planned in correspondence games only": "plans_need_correspondence",
    "replies are planned in games of two players only": "plans_need_two_players",
    "replies cannot be planned in games with hidden cards": "plans_hidden_cards",
    "replies are planned while your opponent is to move": "plans_not_now",
    "at most {most} lines of planned replies": "too_many_plan_lines",
    "line {line} must be moves in the game's notation, your opponent's first and your "
    "reply last, at most {most}": "bad_plan_line",
    "line {line}: move {move} is not legal there": "illegal_plan_move",
    "line {line} goes past the game's end, dice or a draw: plan up to it": "plan_past_chance",
    "line {line} answers a move that another line answers differently": "plan_two_replies",
    # computers
    "no computer player can take this seat": "no_computer_for_seat",
    "the computer ({player}) could not choose a move": "computer_failed",
    "the computer ({player}) took longer than {seconds} seconds and was stopped": (
        "computer_overran"
    ),
    "the server runs as many games of computers only as it can ({limit}); try again "
    "later, or play one yourself": "computer_games_full",
    "the computers of this game stopped: the server runs as many games of computers only "
    "as it can ({limit})": "computer_games_stopped_full",
    "the computers of this game stopped: nobody watched it for {minutes} minutes": (
        "computer_games_unwatched"
    ),
    "you have {limit} games of computers only running already; wait for one to end (a "
    "game nobody watches for {minutes} minutes is stopped)": "computer_games_per_player",
    # lobby
    "a challenge has one seat for its creator ('human')": "challenge_creator_seat",
    "a challenge needs a seat for someone from the lobby": "challenge_online_seat",
    "a rated game is between people only": "rated_people_only",
    "'rated' is true or false": "bad_rated",
    "a rated game cannot use an uploaded file: {option}": "rated_uploaded_file",
    "there is no such challenge": "challenge_not_found",
    "this challenge is no longer open": "challenge_closed",
    "you have a seat in this game already": "already_seated",
    "only its creator can withdraw a challenge": "not_challenge_creator",
    "'to' is a player's name": "bad_challenge_to",
    "you cannot challenge yourself": "challenge_yourself",
    "a challenge to a player has one seat for them": "direct_challenge_seats",
    "this challenge is for another player": "challenge_for_another",
    "you hold no seat in this game": "not_your_game",
    "only a game going on against the computer can be hidden or resigned here": (
        "not_against_the_computer"
    ),
    # chat
    "a chat message must be text": "chat_not_text",
    "a chat message cannot be empty": "chat_empty",
    "a chat message has at most {max} characters": "chat_too_long",
    "a chat message may not hold control characters": "chat_characters",
    "a chat message has either a 'text' or a 'phrase'": "chat_text_or_phrase",
    "unknown phrase {phrase!r}": "unknown_phrase",
    # analysis
    "a game can be analysed only once it is over": "analysis_too_early",
    "a game of {title} can be analysed only once its rules end it: before that the "
    "analysis would need cards hidden from the players": "analysis_hidden",
    "the analysis failed; try again later": "analysis_failed",
    "the analysis took longer than {seconds} seconds and was stopped": "analysis_overran",
    "a position needs a game name and an object of options": "bad_position_request",
    "'moves' must be a list of at most {limit} moves in the game's notation": "bad_moves",
    "move {number} ({move!r}): the game is over": "move_after_end",
    "move {number} ({move!r}) cannot be played: {reason}": "move_not_playable",
    # puzzles
    "there is no puzzle {puzzle!r}": "puzzle_not_found",
    "there are no puzzles of {game!r}": "no_puzzles_for_game",
    "the moves played are not this puzzle's line": "puzzle_off_line",
    "{move} is not a legal move here": "illegal_move",
    "your attempt at this puzzle stands at another move; open it again": "puzzle_out_of_step",
    "'played' must be the list of the moves played so far": "bad_played",
    "a streak's end names its game and its count": "bad_streak",
    # card files
    "a card file must be UTF-8 text": "card_file_not_text",
    "unknown card set; upload its file first": "unknown_card_set",
    "you keep {count} card files that no match uses, the most allowed; start a match "
    "with one, or upload again after one is deleted ({days} days after its upload)": (
        "card_file_quota"
    ),
    # outages (base/outages.py)
    "the database cannot be reached now; try again in a few seconds": "database_unavailable",
    # tournaments
    "'kind' is arena, swiss or tables": "tournament_kind",
    "'starts_at' is a moment in ISO 8601 with its time zone, not in the past": ("tournament_start"),
    "'minutes' and 'rounds' are whole numbers": "tournament_length_type",
    "'bots' is true or false": "tournament_bots_flag",
    "you have {count} tournaments not finished; that is the most": "too_many_tournaments",
    "there is no such tournament": "tournament_not_found",
    "this tournament is over": "tournament_over",
    "this tournament has begun; only an arena may be joined then": "tournament_begun",
    "you are not in this tournament": "tournament_not_entered",
    "an arena or a Swiss is for 2-player games; round tables for 3 or 4": ("tournament_game_seats"),
    "a tournament starts within {days} days": "tournament_too_far",
    "an arena lasts {low} to {high} minutes": "tournament_minutes",
    "a Swiss or round tables have {low} to {high} rounds": "tournament_rounds",
    "bots may not play in this tournament": "tournament_no_bots",
    "only an account (a player with a password) may create a tournament": (
        "tournament_needs_account"
    ),
    # web push
    "a push subscription's endpoint must be an https address of a push service": (
        "push_endpoint_invalid"
    ),
    "a push subscription's keys are p256dh (a P-256 key) and auth (16 bytes), base64url": (
        "push_keys_invalid"
    ),
    "no such push subscription": "push_subscription_not_found",
}


def code_of(error: BaseException) -> str:
    """The machine code of ``error``: its message id's entry for a refusal of the server,
    its class's for an error of a rules engine, :data:`SERVER_ERROR` for anything else."""
    message_id = getattr(error, "message_id", None)
    if isinstance(message_id, str) and message_id in ERROR_CODES:
        return ERROR_CODES[message_id]
    for kind, code in ENGINE_CODES:
        if isinstance(error, kind):
            return code
    if isinstance(error, StairgamesError):
        return REFUSED
    return SERVER_ERROR


__all__ = ["ENGINE_CODES", "ERROR_CODES", "REFUSED", "SERVER_ERROR", "code_of"]
