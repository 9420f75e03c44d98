"""An account of each Ishigaki Race action for people to read, in the current language.

:func:`account` gives each sentence still unfilled (a :class:`~stairgames.i18n.Text` or a
:class:`Plural`, whose arguments may be counts, lists of names and joined texts), so that
the browser can show it in its own language (``web.py`` sends it as JSON);
:func:`narrate` gives the sentences in the current language, for the terminal.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from stairgames.core.game import State
from stairgames.games.ishigaki_race.notation import ROLL
from stairgames.games.ishigaki_race.position import SEAT_NAMES
from stairgames.games.ishigaki_race.rules import (
    CRUMBLE_DROP,
    START,
    Board,
    Fall,
    Phase,
    Race,
    Result,
    rolloff_leaders,
    rolloff_score,
    turn_effect,
)
from stairgames.i18n import N_, Count, Names, Text, _, localize, ngettext

CAPITALISED = (N_("Red"), N_("Blue"), N_("Yellow"), N_("Green"))
"""Seat names at the start of a sentence, by seat."""


@dataclasses.dataclass(frozen=True)
class Plural:
    """A sentence whose form depends on ``count`` (how many ninjas fall, say): the two
    English forms are the message ids, as :func:`~stairgames.i18n.ngettext` takes them."""

    singular: str
    plural: str
    count: int
    arguments: Mapping[str, Any] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Joined:
    """Texts written one after the other with nothing between them."""

    items: tuple[Text, ...]


def _plural_forms() -> list[str]:
    """The plural sentences and counts of the account, as ``ngettext`` calls so that ``make
    messages`` extracts each pair as one plural message (it finds pairs only there)."""
    return [
        ngettext("{count} step", "{count} steps", 2),
        ngettext(
            "{name} rolls {value}: doubles! {who} is highest but on the start, "
            "and nobody falls below it.",
            "{name} rolls {value}: doubles! {who} are highest but on the start, "
            "and nobody falls below it.",
            2,
        ),
        ngettext(
            "{name} rolls {value}: doubles! {who} falls 3.",
            "{name} rolls {value}: doubles! {who} fall 3.",
            2,
        ),
    ]


Said = Text | Plural
"""One sentence of the account, not yet in a language."""


def say(value: object) -> str:
    """``value`` (a sentence of :func:`account` or one of its arguments) in the current
    language."""
    if isinstance(value, Text):
        return _(value.message_id).format(**_said_arguments(value.arguments))
    if isinstance(value, Plural):
        form = ngettext(value.singular, value.plural, value.count)
        return form.format(**_said_arguments(value.arguments))
    if isinstance(value, Joined):
        return "".join(say(item) for item in value.items)
    return localize(value)


def _said_arguments(arguments: Mapping[str, Any]) -> dict[str, Any]:
    return {
        name: value if isinstance(value, int | float | str) else say(value)
        for name, value in arguments.items()
    }


def _name(seat: int) -> Text:
    return Text(CAPITALISED[seat])


def _names(seats: list[int] | tuple[int, ...], *, capital: bool = False) -> Names:
    words = [SEAT_NAMES[s] for s in seats]
    if capital and words:
        words[0] = CAPITALISED[seats[0]]
    return Names(tuple(words))


def _steps(count: int) -> Count:
    return Count("{count} step", "{count} steps", count)


def narrate(before: State, action: int, after: State) -> list[str]:
    """What an action did: the start player, a die, a decision, the moves of the ninjas
    (with "−2" drops), arrivals on the goal, the end of the goal round and the roll-off."""
    from stairgames.games.ishigaki_race.game import IshigakiRaceState

    assert isinstance(before, IshigakiRaceState) and isinstance(after, IshigakiRaceState)
    return [say(line) for line in account(before.board, before.race, action, after.race)]


def awaiting_die(race: Race) -> bool:
    """A die is rolled next (the first of a roll, or the second asked for)."""
    return race.phase not in (Phase.SETUP, Phase.OVER) and (race.first_die == 0 or race.rolling)


def account(board: Board, race: Race, action: int, after: Race) -> list[Said]:
    """The sentences of :func:`narrate`, unfilled: what ``action`` did to ``race``, which
    it turned into ``after``."""
    if race.phase == Phase.SETUP:
        return [Text(N_("{name} starts."), {"name": _name(action)})]
    name = _name(race.turn)
    if awaiting_die(race) and race.first_die == 0:
        return [Text(N_("{name} rolls {value}."), {"name": name, "value": action})]
    if not awaiting_die(race) and action == ROLL:
        return [Text(N_("{name} rolls the second die."), {"name": name})]
    second = action if awaiting_die(race) else None
    lines: list[Said]
    if race.phase == Phase.ROLLOFF:
        lines = [_rolloff_roll(race, second)]
    else:
        lines = _turn_account(board, race, second)
    return lines + _consequences(race, after, board.goal, second)


def _turn_account(board: Board, race: Race, second: int | None) -> list[Said]:
    name = _name(race.turn)
    effect = turn_effect(board, race.heights, race.turn, race.first_die, second)
    if effect.result == Result.DOUBLES:
        assert second is not None
        fallers = [m.seat for m in effect.moves]  # never empty: the roller is off the goal
        arguments = {"name": name, "value": second, "who": _names(fallers, capital=True)}
        if all(m.start == START for m in effect.moves):
            # Tied highest on the start: nobody falls below it (I3).
            return [
                Plural(
                    "{name} rolls {value}: doubles! {who} is highest but on the start, "
                    "and nobody falls below it.",
                    "{name} rolls {value}: doubles! {who} are highest but on the start, "
                    "and nobody falls below it.",
                    len(fallers),
                    arguments,
                )
            ]
        sentence = Plural(
            "{name} rolls {value}: doubles! {who} falls 3.",
            "{name} rolls {value}: doubles! {who} fall 3.",
            len(fallers),
            arguments,
        )
        return [sentence, *(_where(m) for m in effect.moves)]
    move = effect.moves[0]
    line: Said
    if effect.result == Result.SLIP:
        line = Text(
            N_("{name} rolls {value}, lower than {first}: slips 1 step."),
            {"name": name, "value": second, "first": race.first_die},
        )
    elif second is None:
        line = Text(
            N_("{name} stops on {first}: climbs {steps}."),
            {"name": name, "first": race.first_die, "steps": _steps(effect.steps)},
        )
    else:
        line = Text(
            N_("{name} rolls {value}, making {total}: climbs {steps}."),
            {
                "name": name,
                "value": second,
                "total": race.first_die + second,
                "steps": _steps(effect.steps),
            },
        )
    return [line, _where(move)]


def _where(move: Fall) -> Text:
    name = _name(move.seat)
    if move.end != move.moved_to:
        # I7: each "−2" square drops it 2 steps, so the chain passes moved_to, moved_to - 2, ...
        landings = [*range(move.moved_to, move.end, -CRUMBLE_DROP)][1:]
        chain = Joined(
            tuple(
                Text(N_("{step}, crumbling too, then to step "), {"step": step})
                for step in landings
            )
        )
        return Text(
            N_("{name} lands on the crumbling step {step} and drops to step {chain}{end}."),
            {"name": name, "step": move.moved_to, "chain": chain, "end": move.end},
        )
    if move.end == move.start:
        return Text(N_("{name} stays on step {step}."), {"name": name, "step": move.end})
    return Text(
        N_("{name} goes from step {start} to step {end}."),
        {"name": name, "start": move.start, "end": move.end},
    )


def _rolloff_roll(race: Race, second: int | None) -> Text:
    name = _name(race.turn)
    score = rolloff_score(race.first_die, second)
    if second is None:
        return Text(
            N_("{name} stops on {first}: scores {score} in the roll-off."),
            {"name": name, "first": race.first_die, "score": score},
        )
    if second < race.first_die:
        return Text(
            N_("{name} rolls {value}, lower than {first}: scores 0 in the roll-off."),
            {"name": name, "value": second, "first": race.first_die},
        )
    if second == race.first_die:
        sentence = N_("{name} rolls {value} (doubles): scores {score} in the roll-off.")
    else:
        sentence = N_("{name} rolls {value} (higher): scores {score} in the roll-off.")
    return Text(sentence, {"name": name, "value": second, "score": score})


def _consequences(race: Race, after: Race, goal: int, second: int | None) -> list[Said]:
    """Arrivals on the goal, the start and end of the goal round, roll-off results."""
    lines: list[Said] = []
    seat = race.turn
    if race.phase in (Phase.RACE, Phase.GOAL) and after.heights[seat] == goal:
        if race.phase == Phase.RACE:
            sentence = N_("{name} reaches the goal! Everyone else plays one more turn.")
        else:
            sentence = N_("{name} reaches the goal too!")
        lines.append(Text(sentence, {"name": _name(seat)}))
    if race.phase == Phase.GOAL and after.phase != Phase.GOAL:
        on_goal = [s for s, h in enumerate(after.heights) if h == goal]
        if after.phase == Phase.ROLLOFF:
            lines.append(
                Text(
                    N_(
                        "The goal round is over: {names} are on the goal and roll off, "
                        "{order} in that order."
                    ),
                    {"names": _names(on_goal), "order": _names(after.rollers)},
                )
            )
        else:
            lines.append(
                Text(
                    N_("The goal round is over: {name} is alone on the goal."),
                    {"name": _names(on_goal)},
                )
            )
    if race.phase == Phase.ROLLOFF and after.phase == Phase.ROLLOFF and not after.scores:
        scores = (*race.scores, rolloff_score(race.first_die, second))
        leaders = rolloff_leaders(race.rollers, scores)
        lines.append(
            Text(
                N_("{names} tie on {score} and roll off again."),
                {"names": _names(leaders, capital=True), "score": max(scores)},
            )
        )
    if after.phase == Phase.OVER:
        lines.append(Text(N_("{name} wins!"), {"name": _name(after.winner)}))
    return lines
