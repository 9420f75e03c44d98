"""An account of each Ishigaki Race action for people to read, in the current language."""

from __future__ import annotations

from stairgames.core.game import State
from stairgames.games.ishigaki_race.notation import ROLL
from stairgames.games.ishigaki_race.position import SEAT_NAMES
from stairgames.games.ishigaki_race.rules import (
    CRUMBLE_DROP,
    START,
    Fall,
    Phase,
    Race,
    Result,
    rolloff_leaders,
    rolloff_score,
    turn_effect,
)
from stairgames.i18n import _, join_and, ngettext


def _name(seat: int) -> str:
    return _(SEAT_NAMES[seat]).capitalize()


def _names(seats: list[int]) -> str:
    return join_and([_(SEAT_NAMES[s]) for s in seats])


def _steps(count: int) -> str:
    return ngettext("{count} step", "{count} steps", count).format(count=count)


def narrate(before: State, action: int, after: State) -> list[str]:
    """What an action did: the start player, a die, a decision, the moves of the ninjas
    (with "−2" drops), arrivals on the goal, the end of the goal round and the roll-off."""
    from stairgames.games.ishigaki_race.game import IshigakiRaceState

    assert isinstance(before, IshigakiRaceState) and isinstance(after, IshigakiRaceState)
    race = before.race
    if race.phase == Phase.SETUP:
        return [_("{name} starts.").format(name=_name(action))]
    name = _name(race.turn)
    if before.awaiting_die() and race.first_die == 0:
        return [_("{name} rolls {value}.").format(name=name, value=action)]
    if not before.awaiting_die() and action == ROLL:
        return [_("{name} rolls the second die.").format(name=name)]
    second = action if before.awaiting_die() else None
    if race.phase == Phase.ROLLOFF:
        lines = [_rolloff_roll(race, second)]
    else:
        lines = _turn_account(before, race, second)
    return lines + _consequences(race, after.race, before.board.goal, second)


def _turn_account(before: State, race: Race, second: int | None) -> list[str]:
    from stairgames.games.ishigaki_race.game import IshigakiRaceState

    assert isinstance(before, IshigakiRaceState)
    name = _name(race.turn)
    effect = turn_effect(before.board, race.heights, race.turn, race.first_die, second)
    if effect.result == Result.DOUBLES:
        assert second is not None
        fallers = [m.seat for m in effect.moves]  # never empty: the roller is off the goal
        who = _names(fallers).capitalize()
        if all(m.start == START for m in effect.moves):
            # Tied highest on the start: nobody falls below it (I3).
            sentence = ngettext(
                "{name} rolls {value}: doubles! {who} is highest but on the start, and "
                "nobody falls below it.",
                "{name} rolls {value}: doubles! {who} are highest but on the start, and "
                "nobody falls below it.",
                len(fallers),
            )
            return [sentence.format(name=name, value=second, who=who)]
        sentence = ngettext(
            "{name} rolls {value}: doubles! {who} falls 3.",
            "{name} rolls {value}: doubles! {who} fall 3.",
            len(fallers),
        )
        lines = [sentence.format(name=name, value=second, who=who)]
        return lines + [_where(m) for m in effect.moves]
    move = effect.moves[0]
    if effect.result == Result.SLIP:
        line = _("{name} rolls {value}, lower than {first}: slips 1 step.").format(
            name=name, value=second, first=race.first_die
        )
    elif second is None:
        line = _("{name} stops on {first}: climbs {steps}.").format(
            name=name, first=race.first_die, steps=_steps(effect.steps)
        )
    else:
        line = _("{name} rolls {value}, making {total}: climbs {steps}.").format(
            name=name, value=second, total=race.first_die + second, steps=_steps(effect.steps)
        )
    return [line, _where(move)]


def _where(move: Fall) -> str:
    name = _name(move.seat)
    if move.end != move.moved_to:
        # I7: each "−2" square drops it 2 steps, so the chain passes moved_to, moved_to - 2, ...
        landings = [*range(move.moved_to, move.end, -CRUMBLE_DROP)][1:]
        chain = "".join(
            _("{step}, crumbling too, then to step ").format(step=step) for step in landings
        )
        return _(
            "{name} lands on the crumbling step {step} and drops to step {chain}{end}."
        ).format(name=name, step=move.moved_to, chain=chain, end=move.end)
    if move.end == move.start:
        return _("{name} stays on step {step}.").format(name=name, step=move.end)
    return _("{name} goes from step {start} to step {end}.").format(
        name=name, start=move.start, end=move.end
    )


def _rolloff_roll(race: Race, second: int | None) -> str:
    name = _name(race.turn)
    score = rolloff_score(race.first_die, second)
    if second is None:
        return _("{name} stops on {first}: scores {score} in the roll-off.").format(
            name=name, first=race.first_die, score=score
        )
    if second < race.first_die:
        return _("{name} rolls {value}, lower than {first}: scores 0 in the roll-off.").format(
            name=name, value=second, first=race.first_die
        )
    if second == race.first_die:
        sentence = _("{name} rolls {value} (doubles): scores {score} in the roll-off.")
    else:
        sentence = _("{name} rolls {value} (higher): scores {score} in the roll-off.")
    return sentence.format(name=name, value=second, score=score)


def _consequences(race: Race, after: Race, goal: int, second: int | None) -> list[str]:
    """Arrivals on the goal, the start and end of the goal round, roll-off results."""
    lines = []
    seat = race.turn
    if race.phase in (Phase.RACE, Phase.GOAL) and after.heights[seat] == goal:
        if race.phase == Phase.RACE:
            sentence = _("{name} reaches the goal! Everyone else plays one more turn.")
        else:
            sentence = _("{name} reaches the goal too!")
        lines.append(sentence.format(name=_name(seat)))
    if race.phase == Phase.GOAL and after.phase != Phase.GOAL:
        on_goal = [s for s, h in enumerate(after.heights) if h == goal]
        if after.phase == Phase.ROLLOFF:
            lines.append(
                _(
                    "The goal round is over: {names} are on the goal and roll off, "
                    "{order} in that order."
                ).format(names=_names(on_goal), order=_names(list(after.rollers)))
            )
        else:
            lines.append(
                _("The goal round is over: {name} is alone on the goal.").format(
                    name=_names(on_goal)
                )
            )
    if race.phase == Phase.ROLLOFF and after.phase == Phase.ROLLOFF and not after.scores:
        scores = (*race.scores, rolloff_score(race.first_die, second))
        leaders = rolloff_leaders(race.rollers, scores)
        lines.append(
            _("{names} tie on {score} and roll off again.").format(
                names=_names(list(leaders)).capitalize(), score=max(scores)
            )
        )
    if after.phase == Phase.OVER:
        lines.append(_("{name} wins!").format(name=_name(after.winner)))
    return lines
