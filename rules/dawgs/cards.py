"""A pilot's control cards: the hand, the legal pairs, and checking a secret choice."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from rules.base import ActionFormatError, RulesError
from rules.dawgs import data
from rules.dawgs.flow import undecided

State = dict[str, Any]
BASIC_HAND = (*data.NUMBER_CARDS, data.CLOCKWISE, data.COUNTER_CLOCKWISE, data.NO_CHANGE)


def hand(state: State, player: int) -> list[str]:
    """The cards in ``player``'s hand, the special by its real id (private to him).

    Basic cards always come back after a round, so only the special is stored.
    """
    plane = state["planes"][player]
    if plane["status"] == "eliminated":
        return []
    return [*BASIC_HAND, *([plane["special"]] if plane["special"] else [])]


def card_choices(state: State, player: int) -> Iterator[dict[str, Any]]:
    """Every pair ``player`` may choose now: the buttons of his private hand."""
    if state["phase"] != "place" or state["queue"] or player not in undecided(state):
        return
    seconds = list(data.SECOND_CARDS)
    if state["planes"][player]["special"] is None:
        seconds.remove(data.SPECIAL)
    for number in data.NUMBER_CARDS:
        for second in seconds:
            yield {"type": "choose_cards", "player": player, "cards": [number, second]}


def check_choice(plane: dict[str, Any], cards: Sequence[Any]) -> list[str]:
    """The stored form ``[number, second]`` of a legal choice; raises naming the rule."""
    if len(cards) != 2 or not all(isinstance(c, str | int) for c in cards):
        raise ActionFormatError("cards", "cards is a list of exactly two card names")
    names = [str(c) for c in cards]
    numbers = [c for c in names if c in data.NUMBER_CARDS]
    others = [c for c in names if c not in data.NUMBER_CARDS]
    if len(numbers) != 1 or len(others) != 1:
        raise RulesError("place-cards", "play exactly one number card (1, 2 or 3)")
    second = others[0]
    if plane["special"] is not None and second == plane["special"]:
        second = data.SPECIAL
    if second == data.SPECIAL and plane["special"] is None:
        raise RulesError("place-cards", "you hold no special ability card")
    if second not in data.SECOND_CARDS:
        allowed = ", ".join(data.SECOND_CARDS)
        raise RulesError("place-cards", f"the second card must be one of {allowed}")
    return [numbers[0], second]
