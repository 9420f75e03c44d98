"""An account of each Ishigaki Race action for people to read."""

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


def _names(seats: list[int]) -> str:
    names = [SEAT_NAMES[s] for s in seats]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _steps(count: int) -> str:
    return f"{count} step{'s' if count != 1 else ''}"


def narrate(before: State, action: int, after: State) -> list[str]:
    """What an action did: the start player, a die, a decision, the moves of the ninjas
    (with "−2" drops), arrivals on the goal, the end of the goal round and the roll-off."""
    from stairgames.games.ishigaki_race.game import IshigakiRaceState

    assert isinstance(before, IshigakiRaceState) and isinstance(after, IshigakiRaceState)
    race = before.race
    if race.phase == Phase.SETUP:
        return [f"{SEAT_NAMES[action].capitalize()} starts."]
    name = SEAT_NAMES[race.turn].capitalize()
    if before.awaiting_die() and race.first_die == 0:
        return [f"{name} rolls {action}."]
    if not before.awaiting_die() and action == ROLL:
        return [f"{name} rolls the second die."]
    second = action if before.awaiting_die() else None
    if race.phase == Phase.ROLLOFF:
        lines = [_rolloff_roll(race, second)]
    else:
        lines = _turn_account(before, race, second)
    return lines + _consequences(race, after.race, before.board.goal, second)


def _turn_account(before: State, race: Race, second: int | None) -> list[str]:
    from stairgames.games.ishigaki_race.game import IshigakiRaceState

    assert isinstance(before, IshigakiRaceState)
    name = SEAT_NAMES[race.turn].capitalize()
    effect = turn_effect(before.board, race.heights, race.turn, race.first_die, second)
    if effect.result == Result.DOUBLES:
        assert second is not None
        fallers = [m.seat for m in effect.moves]  # never empty: the roller is off the goal
        if all(m.start == START for m in effect.moves):
            # Tied highest on the start: nobody falls below it (I3).
            verb = "is" if len(fallers) == 1 else "are"
            return [
                f"{name} rolls {second}: doubles! {_names(fallers).capitalize()} {verb} highest "
                "but on the start, and nobody falls below it."
            ]
        verb = "falls" if len(fallers) == 1 else "fall"
        lines = [f"{name} rolls {second}: doubles! {_names(fallers).capitalize()} {verb} 3."]
        return lines + [_where(m) for m in effect.moves]
    move = effect.moves[0]
    if effect.result == Result.SLIP:
        lines = [f"{name} rolls {second}, lower than {race.first_die}: slips 1 step."]
    elif second is None:
        lines = [f"{name} stops on {race.first_die}: climbs {_steps(effect.steps)}."]
    else:
        total = race.first_die + second
        lines = [f"{name} rolls {second}, making {total}: climbs {_steps(effect.steps)}."]
    return [*lines, _where(move)]


def _where(move: Fall) -> str:
    name = SEAT_NAMES[move.seat].capitalize()
    if move.end != move.moved_to:
        # I7: each "−2" square drops it 2 steps, so the chain passes moved_to, moved_to - 2, ...
        landings = [*range(move.moved_to, move.end, -CRUMBLE_DROP)][1:]
        chain = "".join(f"{step}, crumbling too, then to step " for step in landings)
        return (
            f"{name} lands on the crumbling step {move.moved_to} and drops to step "
            f"{chain}{move.end}."
        )
    if move.end == move.start:
        return f"{name} stays on step {move.end}."
    return f"{name} goes from step {move.start} to step {move.end}."


def _rolloff_roll(race: Race, second: int | None) -> str:
    name = SEAT_NAMES[race.turn].capitalize()
    score = rolloff_score(race.first_die, second)
    if second is None:
        return f"{name} stops on {race.first_die}: scores {score} in the roll-off."
    if second < race.first_die:
        return f"{name} rolls {second}, lower than {race.first_die}: scores 0 in the roll-off."
    kind = "doubles" if second == race.first_die else "higher"
    return f"{name} rolls {second} ({kind}): scores {score} in the roll-off."


def _consequences(race: Race, after: Race, goal: int, second: int | None) -> list[str]:
    """Arrivals on the goal, the start and end of the goal round, roll-off results."""
    lines = []
    seat = race.turn
    if race.phase in (Phase.RACE, Phase.GOAL) and after.heights[seat] == goal:
        name = SEAT_NAMES[seat].capitalize()
        if race.phase == Phase.RACE:
            lines.append(f"{name} reaches the goal! Everyone else plays one more turn.")
        else:
            lines.append(f"{name} reaches the goal too!")
    if race.phase == Phase.GOAL and after.phase != Phase.GOAL:
        on_goal = [s for s, h in enumerate(after.heights) if h == goal]
        if after.phase == Phase.ROLLOFF:
            lines.append(
                f"The goal round is over: {_names(on_goal)} are on the goal and roll off, "
                f"{_names(list(after.rollers))} in that order."
            )
        else:
            lines.append(f"The goal round is over: {_names(on_goal)} is alone on the goal.")
    if race.phase == Phase.ROLLOFF and after.phase == Phase.ROLLOFF and not after.scores:
        scores = (*race.scores, rolloff_score(race.first_die, second))
        best = max(scores)
        leaders = rolloff_leaders(race.rollers, scores)
        lines.append(f"{_names(list(leaders)).capitalize()} tie on {best} and roll off again.")
    if after.phase == Phase.OVER:
        lines.append(f"{SEAT_NAMES[after.winner].capitalize()} wins!")
    return lines
