"""What the browser's screen-reader mode reads of an Ishigaki Race game
(``docs/accessibility.md``).

Nothing is hidden, so every viewer hears the same wall: step by step from the goal down,
the ninjas on each and the "−2" squares; as a list, each ninja's step; whose turn it is,
with the die to decide on and what stopping would do. The last turn is told by the
game's move list (``narrate_moves``), so this gives no ``last``.

>>> import stairgames
>>> from stairgames.i18n import localize
>>> state = stairgames.load("ishigaki_race", players=2, first_player=0).new_initial_state()
>>> _ = state.apply_move("die:5")
>>> localize(turn(state, None))
'Red to decide: first die 5. Stop climbs 2 to step 2; roll throws the second die.'
>>> localize(items(state, None)[0])
'Red ninja: step 0'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from stairgames.core.registry import Accessible, drawn_once
from stairgames.games.ishigaki_race.view.board import board_view as draw_board
from stairgames.games.ishigaki_race.view.narrate import CAPITALISED
from stairgames.i18n import N_, Names, Text

if TYPE_CHECKING:
    from stairgames.core.game import State

board_view = drawn_once(draw_board)
"""The game's drawing for a viewer, made once for the three texts that read it."""


def rows(state: State, viewer: int | None) -> list[Any]:
    """Each step from the goal down to the start that holds a ninja or a "−2" square."""
    view = board_view(state, viewer)
    crumbling = set(view["crumbling"])
    said: list[Any] = []
    for step in range(view["goal"], -1, -1):
        here = tuple(
            Text(CAPITALISED[ninja["seat"]]) for ninja in view["ninjas"] if ninja["step"] == step
        )
        if not here and step not in crumbling and step not in (0, view["goal"]):
            continue
        what: list[Any] = list(here) or [Text(N_("nobody"))]
        if step in crumbling:
            what.append(Text(N_("a −2 square")))
        label = (
            N_("Goal, step {step}: {what}")
            if step == view["goal"]
            else N_("Start, step {step}: {what}")
            if step == 0
            else N_("Step {step}: {what}")
        )
        said.append(Text(label, {"step": step, "what": Names(tuple(what), conjunction=False)}))
    return said


def items(state: State, viewer: int | None) -> list[Any]:
    """Each ninja's step, then the goal and the "−2" squares."""
    view = board_view(state, viewer)
    said: list[Any] = [
        Text(
            N_("{name} ninja: step {step}"),
            {"name": Text(CAPITALISED[ninja["seat"]]), "step": ninja["step"]},
        )
        for ninja in view["ninjas"]
    ]
    said.append(Text(N_("The goal is step {goal}."), {"goal": view["goal"]}))
    if view["crumbling"]:
        steps = tuple(Text(N_("{step}"), {"step": step}) for step in view["crumbling"])
        said.append(Text(N_("−2 squares: {steps}"), {"steps": Names(steps)}))
    return said


def turn(state: State, viewer: int | None) -> Any:
    """Who acts and, at a decision, the die and what each choice does."""
    view = board_view(state, viewer)
    if view["turn"] is None:
        return Text(N_("The start player is drawn next."))
    name = Text(CAPITALISED[view["turn"]])
    choice = view["choice"]
    if choice is None:
        return Text(N_("{name} rolls next."), {"name": name})
    if choice["rolloff"]:
        return Text(
            N_(
                "{name} to decide in the roll-off: first die {die}. Stop scores {score}; "
                "roll throws the second die."
            ),
            {"name": name, "die": choice["first"], "score": choice["stop"]["score"]},
        )
    return Text(
        N_(
            "{name} to decide: first die {die}. Stop climbs {climb} to step {to}; "
            "roll throws the second die."
        ),
        {
            "name": name,
            "die": choice["first"],
            "climb": choice["stop"]["climb"],
            "to": choice["stop"]["to"],
        },
    )


ACCESSIBLE: Final = Accessible(
    rows=rows,
    items=items,
    turn=turn,
)
"""The registration's ``accessible``."""
