"""Sparta (Yannick Holtkamp, Queen Games 2011): the rules engine.

Two players move warriors and heroes on a square board, promote warriors in their own cities,
conquer the other side's cities and capture pieces by shutting them in along rows, columns and
diagonals. docs/rules/sparta.md maps every rule to this code and to its tests.

Actions (``player`` is the index of the acting player, squares are ``[row, column]`` with
row 0 at the top, or algebraic names such as ``"c3"``):

- ``{"type": "move", "player": 0, "path": [[9, 1], [8, 2], [7, 2]]}`` -- the first square is
  where the piece stands, the last where it stops, those between are the squares it passes;
- ``{"type": "promote", "player": 0, "square": [4, 3]}`` -- a warrior that starts the turn in
  its own city becomes a hero instead of moving;
- ``{"type": "pass", "player": 0}`` -- only when the player can do nothing else (our default;
  the rulebook is silent; option ``when_blocked``).

Text notation (``notation`` / ``parse_notation``): ``b1-c2-c3``, ``promote d6``, ``pass``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

from rules.base import (
    Action,
    ActionFormatError,
    Game,
    Outcome,
    Prompt,
    RulesError,
    State,
    require,
)
from rules.sparta.board import (
    EMPTY,
    LETTERS,
    OWNER,
    PIECES,
    algebraic,
    as_list,
    key,
    parse_square,
)
from rules.sparta.captures import (
    any_trapped,
    capture_squares,
    trapped_after_move,
    trapped_squares,
)
from rules.sparta.layout import (
    PLAYERS,
    board_of,
    cities_of,
    diagram,
    layout_from_diagram,
    normalise_layout,
    rows_of,
)
from rules.sparta.moves import (
    REACH_OF,
    can_move,
    check_path,
    iter_paths,
    paths_to,
    random_path,
    reachable,
)

COLOURS = ("yellow", "red")
BLOCKED_CHOICES = ("pass", "lose")
#: End reasons that come from an option rather than from the position on the board.
NON_BOARD_ENDS = ("quiet-move-limit", "blocked")
_OWN_PIECE = (re.compile("[WH]"), re.compile("[wh]"))


class Sparta(Game):
    name = "sparta"
    title = "Sparta"
    min_players = 2
    max_players = 2
    default_options: ClassVar[Mapping[str, Any]] = {
        # None = the documented default setup (layout.default_layout).
        "layout": None,
        # Heroes each player keeps beside the board for promotions.
        "hero_stock": 8,
        # English rules: only warriors conquer; the German original lets heroes conquer too.
        "heroes_conquer": False,
        # The younger player begins: seat them as this player index.
        "first_player": 0,
        # A player with no legal action passes ("pass") or loses the game ("lose").
        "when_blocked": "pass",
        # Draw after this many actions in a row with no capture, promotion or conquest
        # (None = never; the rulebook has no such rule).
        "quiet_move_limit": None,
    }

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        opts = self.options
        self.layout = normalise_layout(opts["layout"])
        self.size: int = self.layout["size"]
        self._start_board = board_of(self.layout)
        self._city_squares = set(cities_of(self.layout))
        self._city_index = {
            key(index, self.size): index for owned in self.layout["cities"] for index in owned
        }
        self._start_counts = [_counts(self._start_board, player) for player in PLAYERS]
        if not _is_int(opts["hero_stock"]) or opts["hero_stock"] < 0:
            raise RulesError("options.hero_stock", "hero_stock must be a whole number 0 or more")
        if not isinstance(opts["heroes_conquer"], bool):
            raise RulesError("options.heroes_conquer", "heroes_conquer must be true or false")
        if not _is_int(opts["first_player"]) or opts["first_player"] not in PLAYERS:
            raise RulesError("options.first_player", "first_player must be 0 or 1")
        if opts["when_blocked"] not in BLOCKED_CHOICES:
            raise RulesError(
                "options.when_blocked", f"when_blocked must be one of {', '.join(BLOCKED_CHOICES)}"
            )
        limit = opts["quiet_move_limit"]
        if limit is not None and (not _is_int(limit) or limit < 1):
            raise RulesError(
                "options.quiet_move_limit",
                "quiet_move_limit must be a whole number 1 or more, or null to switch it off",
            )

    @classmethod
    def from_diagram(cls, text: str, **options: Any) -> Sparta:
        """A game whose starting position is drawn as a diagram (see ``rules.sparta.layout``)."""
        return cls({**options, "layout": layout_from_diagram(text)})

    # --- setup ------------------------------------------------------------------------
    def new_state(self, players: Sequence[str]) -> State:
        if len(players) != 2:
            raise RulesError(
                "players", f"Sparta is played by exactly 2 players, got {len(players)}"
            )
        stock = self.options["hero_stock"]
        cities = cities_of(self.layout)
        state: State = {
            "game": self.name,
            "players": [str(p) for p in players],
            "size": self.size,
            "board": rows_of(self._start_board, self.size),
            "cities": cities,
            "stock": [stock, stock],
            "to_move": self.options["first_player"],
            "turn_number": 0,
            "quiet_moves": 0,
            "promotions": [0, 0],
            "lost": [{"warrior": 0, "hero": 0}, {"warrior": 0, "hero": 0}],
            "last": None,
            "outcome": None,
        }
        result = board_outcome(self._start_board, cities)
        if result is None and self.options["when_blocked"] == "lose":
            mover = state["to_move"]
            if not self._has_action(self._start_board, cities, [stock, stock], mover):
                result = Outcome((1 - mover,), "blocked")
        state["outcome"] = result.to_json() if result else None
        return state

    # --- legality -----------------------------------------------------------------------
    def legal_actions(self, state: State) -> Iterator[Action]:
        """Promotions first, then one move per (piece, destination) along a shortest path.

        Any other path to the same destination is legal too (``is_legal`` accepts it); the
        moves yielded here are the distinct outcomes.
        """
        if state["outcome"] is not None:
            return
        player = state["to_move"]
        board = "".join(state["board"])
        found = False
        for square in self._promotable(board, state["cities"], state["stock"], player):
            found = True
            yield {"type": "promote", "player": player, "square": as_list(square, self.size)}
        for piece in _OWN_PIECE[player].finditer(board):
            origin = piece.start()
            for path in iter_paths(board, self.size, origin, REACH_OF[board[origin]]):
                found = True
                yield {"type": "move", "player": player, "path": self._squares(path)}
        if not found and self.options["when_blocked"] == "pass":
            yield {"type": "pass", "player": player}

    def is_legal(self, state: State, action: Action) -> bool:
        try:
            self._check(state, action, "".join(state["board"]))
        except RulesError:
            return False
        return True

    def _check(self, state: State, action: Action, board: str) -> tuple[str, Any]:
        """Validate without copying; returns the action type and its squares as indices."""
        if not isinstance(action, Mapping):
            raise ActionFormatError("type", "an action is an object with a string 'type'")
        kind = require(action, "type", str)
        if kind not in ("move", "promote", "pass"):
            raise ActionFormatError(
                "type", f"unknown action {kind!r}: Sparta has move, promote and pass"
            )
        player = require(action, "player", int)
        if player not in PLAYERS:
            raise ActionFormatError("player", f"player must be 0 or 1, got {player}")
        if state["outcome"] is not None:
            raise RulesError("game-over", "the game is over; no more actions")
        if player != state["to_move"]:
            who = state["players"][state["to_move"]]
            raise RulesError("turn", f"it is {who}'s turn (player {state['to_move']})")
        if kind == "move":
            raw = require(action, "path", list)
            if not raw:
                raise ActionFormatError(
                    "path", "the path lists the squares of the move, start first"
                )
            path = [parse_square(s, self.size, "path") for s in raw]
            letter = board[path[0]]
            if letter == EMPTY or OWNER[letter] != player:
                raise RulesError(
                    "move.piece", f"a move starts on one of your pieces; {raw[0]} is not one"
                )
            check_path(board, self.size, path)
            return kind, path
        if kind == "promote":
            square = parse_square(require(action, "square", (list, str)), self.size, "square")
            if board[square] != LETTERS[(player, "warrior")] or (
                state["cities"].get(key(square, self.size)) != player
            ):
                raise RulesError(
                    "promote.square",
                    "only one of your warriors standing in one of your own cities may be promoted",
                )
            if state["stock"][player] <= 0:
                raise RulesError("promote.stock", "you have no hero left beside the board")
            return kind, square
        blocked = not self._has_action(board, state["cities"], state["stock"], player)
        if self.options["when_blocked"] != "pass" or not blocked:
            raise RulesError(
                "pass.not-blocked", "you may pass only when you can neither move nor promote"
            )
        return kind, None

    def _promotable(
        self, board: str, cities: Mapping[str, int], stock: Sequence[int], player: int
    ) -> list[int]:
        """Squares of the player's warriors standing in the player's own cities."""
        if stock[player] <= 0:
            return []
        warrior = LETTERS[(player, "warrior")]
        return sorted(
            index
            for square_key, index in self._city_index.items()
            if board[index] == warrior and cities[square_key] == player
        )

    def _has_action(
        self, board: str, cities: Mapping[str, int], stock: Sequence[int], player: int
    ) -> bool:
        for origin, letter in enumerate(board):
            if letter != EMPTY and OWNER[letter] == player and can_move(board, self.size, origin):
                return True
        return bool(self._promotable(board, cities, stock, player))

    # --- the effect of an action --------------------------------------------------------
    def apply(self, state: State, action: Action) -> State:
        flat = "".join(state["board"])
        kind, where = self._check(state, action, flat)
        player = action["player"]
        board = list(flat)
        cities = dict(state["cities"])
        stock = list(state["stock"])
        promotions = list(state["promotions"])
        lost = [dict(state["lost"][0]), dict(state["lost"][1])]
        last: dict[str, Any] = {
            "player": player,
            "type": kind,
            "path": None,
            "promoted": None,
            "conquered": None,
            "captured": [],
        }
        if kind == "promote":
            board[where] = LETTERS[(player, "hero")]
            stock[player] -= 1
            promotions[player] += 1
            last["promoted"] = as_list(where, self.size)
        elif kind == "move":
            origin, dest = where[0], where[-1]
            letter = board[origin]
            board[origin], board[dest] = EMPTY, letter
            last["path"] = self._squares(where)
            # 1. the city effect, then 2. captures (the rulebook's order).
            dest_key = key(dest, self.size)
            owner = cities.get(dest_key)
            is_warrior = PIECES[letter][1] == "warrior"
            if owner == player and is_warrior and stock[player] > 0:
                board[dest] = LETTERS[(player, "hero")]
                stock[player] -= 1
                promotions[player] += 1
                last["promoted"] = as_list(dest, self.size)
            elif (
                owner is not None
                and owner != player
                and (is_warrior or self.options["heroes_conquer"])
            ):
                cities[dest_key] = player
                last["conquered"] = as_list(dest, self.size)
            joined = "".join(board)
            for square in trapped_after_move(joined, self.size, dest):
                gone, kind_gone = PIECES[board[square]]
                board[square] = EMPTY
                lost[gone][kind_gone] += 1
                last["captured"].append(
                    {"square": as_list(square, self.size), "player": gone, "kind": kind_gone}
                )
        joined = "".join(board)
        eventful = last["promoted"] or last["conquered"] or last["captured"]
        new: State = {
            **state,
            "players": list(state["players"]),
            "board": rows_of(joined, self.size),
            "cities": cities,
            "stock": stock,
            "promotions": promotions,
            "lost": lost,
            "to_move": 1 - player,
            "turn_number": state["turn_number"] + 1,
            "quiet_moves": 0 if eventful else state["quiet_moves"] + 1,
            "last": last,
        }
        result = self._end_after(joined, cities, stock, new["quiet_moves"], player)
        new["outcome"] = result.to_json() if result else None
        return new

    def _end_after(
        self, board: str, cities: Mapping[str, int], stock: Sequence[int], quiet: int, mover: int
    ) -> Outcome | None:
        result = board_outcome(board, cities)
        if result is not None:
            return result
        limit = self.options["quiet_move_limit"]
        if limit is not None and quiet >= limit:
            return Outcome((0, 1), "quiet-move-limit", draw=True)
        if self.options["when_blocked"] == "lose" and not self._has_action(
            board, cities, stock, 1 - mover
        ):
            return Outcome((mover,), "blocked")
        return None

    def outcome(self, state: State) -> Outcome | None:
        data = state["outcome"]
        return None if data is None else Outcome.from_json(data)

    # --- what the table sees --------------------------------------------------------------
    def prompt(self, state: State) -> Prompt:
        names = state["players"]
        result = self.outcome(state)
        if result is not None:
            if result.draw:
                text = f"Game over: a tie ({result.reason})"
            else:
                text = f"Game over: {names[result.winners[0]]} wins ({result.reason})"
            return Prompt(None, "game_over", text, data={"outcome": result.to_json()})
        player = state["to_move"]
        board = "".join(state["board"])
        paths = self.all_paths(state)
        promotable = [
            as_list(i, self.size)
            for i in self._promotable(board, state["cities"], state["stock"], player)
        ]
        options: list[Action] = [
            {"type": "promote", "player": player, "square": sq} for sq in promotable
        ]
        who = f"{names[player]} ({COLOURS[player]})"
        accepts = ["move"] if paths else []
        text = f"{who} to move: touch a piece, then the square it goes to"
        if promotable:
            accepts.append("promote")
            text += ", or promote a warrior standing in your own city"
        if not paths and not promotable:
            options.append({"type": "pass", "player": player})
            accepts.append("pass")
            text = f"{who} cannot move and must pass"
        data = {
            "colour": COLOURS[player],
            "destinations": {
                origin: [path[-1] for path in dests.values()] for origin, dests in paths.items()
            },
            "paths": paths,
            "promotable": promotable,
            "last": state["last"],
        }
        return Prompt(player, "move", text, tuple(options), tuple(accepts), data)

    def all_paths(self, state: State) -> dict[str, dict[str, list[list[int]]]]:
        """Per movable piece of the player to move (``"r,c"``): destination ``"r,c"`` -> path."""
        player = state["to_move"]
        board = "".join(state["board"])
        table: dict[str, dict[str, list[list[int]]]] = {}
        for origin, letter in enumerate(board):
            if letter == EMPTY or OWNER[letter] != player:
                continue
            found = reachable(board, self.size, origin, REACH_OF[letter])
            if found:
                table[key(origin, self.size)] = {
                    key(dest, self.size): self._squares(path) for dest, path in found.items()
                }
        return table

    def destinations(self, state: State, square: Any) -> list[dict[str, list]]:
        """Every square the piece on ``square`` can reach, each with one shortest path.

        ``square`` is ``[r, c]`` or a name like ``"c3"``; an empty square has no destinations.
        Whose turn it is does not matter here (a UI may show the other side's reach too).
        """
        board = "".join(state["board"])
        origin = parse_square(square, self.size, "square")
        if board[origin] == EMPTY:
            return []
        found = reachable(board, self.size, origin, REACH_OF[board[origin]])
        return [
            {"to": as_list(dest, self.size), "path": self._squares(path)}
            for dest, path in found.items()
        ]

    def move_action(self, state: State, start: Any, end: Any) -> Action:
        """The move from ``start`` to ``end`` for the player to move, along a shortest path."""
        board = "".join(state["board"])
        origin = parse_square(start, self.size, "from")
        dest = parse_square(end, self.size, "to")
        letter = board[origin]
        if letter == EMPTY or OWNER[letter] != state["to_move"]:
            raise RulesError("move.piece", f"{start} holds none of the moving player's pieces")
        path = reachable(board, self.size, origin, REACH_OF[letter]).get(dest)
        if path is None:
            raise RulesError("move.unreachable", f"the piece on {start} cannot reach {end} now")
        action = {"type": "move", "player": state["to_move"], "path": self._squares(path)}
        self._check(state, action, board)
        return action

    def notation(self, action: Action) -> str:
        """Short text of an action: ``b1-c2-c3``, ``promote d6`` or ``pass``."""
        if action["type"] == "move":
            return "-".join(self._name(s) for s in action["path"])
        if action["type"] == "promote":
            return f"promote {self._name(action['square'])}"
        return "pass"

    def parse_notation(self, text: str, player: int) -> Action:
        """The inverse of ``notation`` for the given player."""
        words = text.strip().lower().split()
        if words == ["pass"]:
            return {"type": "pass", "player": player}
        if len(words) == 2 and words[0] == "promote":
            square = parse_square(words[1], self.size, "square")
            return {"type": "promote", "player": player, "square": as_list(square, self.size)}
        if len(words) == 1 and "-" in words[0]:
            path = [parse_square(s, self.size, "path") for s in words[0].split("-")]
            return {"type": "move", "player": player, "path": self._squares(path)}
        raise ActionFormatError(
            "text",
            f"{text!r} is not a Sparta action: write e.g. 'b1-c2-c3', 'promote d6' or 'pass'",
        )

    def describe_action(self, state: State, action: Action) -> str:
        last = self.apply(state, action)["last"]
        player = action["player"]
        who = f"{state['players'][player]} ({COLOURS[player]})"
        if last["type"] == "pass":
            return f"{who} cannot move and passes"
        if last["type"] == "promote":
            return f"{who} promotes the warrior on {self._name(last['promoted'])} to a hero"
        start = parse_square(action["path"][0], self.size)
        piece = PIECES["".join(state["board"])[start]][1]
        parts = [f"{who} moves a {piece} {self.notation(action)}"]
        if last["promoted"]:
            parts.append("it becomes a hero in its own city")
        if last["conquered"]:
            parts.append(f"conquers the city on {self._name(last['conquered'])}")
        if last["captured"]:
            taken = ", ".join(
                f"{COLOURS[c['player']]} {c['kind']} on {self._name(c['square'])}"
                for c in last["captured"]
            )
            parts.append(f"captures {taken}")
        return "; ".join(parts)

    def render(self, state: State) -> str:
        """The position as a text diagram (see ``rules.sparta.layout``)."""
        return diagram("".join(state["board"]), state["cities"], self.size)

    def _name(self, square: Any) -> str:
        return algebraic(parse_square(square, self.size), self.size)

    def _squares(self, path: Sequence[int]) -> list[list[int]]:
        return [as_list(i, self.size) for i in path]

    # --- self-play and checking -----------------------------------------------------------
    #: How often ``random_action`` first looks for an eventful move (see there).
    EVENTFUL_SHARE = 0.5

    def random_action(self, state: State, rng: random.Random) -> Action:
        """A random legal action for self-play, property tests and a computer opponent.

        Half of the time it first looks for an eventful action (a capture, a conquest, a
        promotion) and plays one of those at random if there is any; otherwise it picks a
        random piece and a random destination of that piece. Purely uniform play shuffles
        pieces for hundreds of turns before anything happens; this keeps random games short
        and brings captures, conquests and promotions into nearly every game.
        """
        player = state["to_move"]
        board = "".join(state["board"])
        promotable = self._promotable(board, state["cities"], state["stock"], player)
        if rng.random() < self.EVENTFUL_SHARE:
            action = self._random_eventful(state, board, promotable, rng)
            if action is not None:
                return action
        choices = [(-1, i) for i in promotable]
        choices += [(m.start(), m.start()) for m in _OWN_PIECE[player].finditer(board)]
        rng.shuffle(choices)
        for origin, square in choices:
            if origin < 0:
                return {"type": "promote", "player": player, "square": as_list(square, self.size)}
            path = random_path(board, self.size, origin, REACH_OF[board[origin]], rng)
            if path is not None:
                return {"type": "move", "player": player, "path": self._squares(path)}
        return super().random_action(state, rng)

    def _random_eventful(
        self, state: State, board: str, promotable: list[int], rng: random.Random
    ) -> Action | None:
        player, size = state["to_move"], self.size
        captures = capture_squares(board, size, player)
        own_cities, other_cities = set(), set()
        for square_key, index in self._city_index.items():
            if board[index] == EMPTY:
                (own_cities if state["cities"][square_key] == player else other_cities).add(index)
        options: list[Action] = [
            {"type": "promote", "player": player, "square": as_list(i, size)} for i in promotable
        ]
        for piece in _OWN_PIECE[player].finditer(board):
            origin = piece.start()
            is_warrior = PIECES[board[origin]][1] == "warrior"
            targets = set(captures)
            if is_warrior or self.options["heroes_conquer"]:
                targets |= other_cities
            if is_warrior and state["stock"][player] > 0:
                targets |= own_cities
            reach = REACH_OF[board[origin]]
            row, col = divmod(origin, size)
            near = [t for t in targets if max(abs(t // size - row), abs(t % size - col)) <= reach]
            if not near:
                continue
            options.extend(
                {"type": "move", "player": player, "path": self._squares(path)}
                for path in paths_to(board, size, origin, reach, near).values()
            )
        return rng.choice(options) if options else None

    @classmethod
    def random_setup(cls, rng: random.Random) -> tuple[Game, list[str]]:
        options: dict[str, Any] = {
            "heroes_conquer": rng.random() < 0.5,
            "first_player": rng.randint(0, 1),
            "when_blocked": rng.choice(BLOCKED_CHOICES),
        }
        # Some games start from a random position: small boards, heroes on the board, pieces
        # on cities, an empty hero stock.
        if rng.random() < 0.3:
            options["layout"] = random_layout(rng)
            options["hero_stock"] = rng.randint(0, 8)
        if rng.random() < 0.2:
            options["quiet_move_limit"] = rng.randint(10, 60)
        return cls(options), ["Ann", "Ben"]

    def check_invariants(self, state: State) -> list[str]:
        problems: list[str] = []
        rows, cities = state["board"], state["cities"]
        if len(rows) != self.size or any(len(row) != self.size for row in rows):
            return [f"the board is not {self.size}x{self.size}"]
        board = "".join(rows)
        if set(board) - {EMPTY, *PIECES}:
            return [f"unknown letters on the board: {set(board) - {EMPTY, *PIECES}}"]
        if set(cities) != self._city_squares:
            problems.append("the set of city squares changed")
        if any(owner not in PLAYERS for owner in cities.values()):
            return [*problems, f"a city has a bad owner: {cities}"]
        for player in PLAYERS:
            began, now = self._start_counts[player], _counts(board, player)
            promoted, lost = state["promotions"][player], state["lost"][player]
            if now["warrior"] + promoted + lost["warrior"] != began["warrior"]:
                problems.append(f"player {player}'s warriors do not add up")
            if now["hero"] + lost["hero"] != began["hero"] + promoted:
                problems.append(f"player {player}'s heroes do not add up")
            if not 0 <= state["stock"][player] == self.options["hero_stock"] - promoted:
                problems.append(f"player {player}'s hero stock does not match the promotions")
        if any_trapped(board, self.size):
            trapped = trapped_squares(board, self.size)
            problems.append(f"trapped pieces left on the board: {trapped}")
        if state["to_move"] not in PLAYERS:
            problems.append(f"bad player to move: {state['to_move']}")
        result = board_outcome(board, cities)
        stored = state["outcome"]
        if result is not None and stored != result.to_json():
            problems.append(f"an end condition holds ({result.reason}) but the outcome is {stored}")
        if result is None and stored is not None and stored["reason"] not in NON_BOARD_ENDS:
            problems.append(f"outcome {stored} without an end condition on the board")
        return problems


def board_outcome(board: str, cities: Mapping[str, int]) -> Outcome | None:
    """The rulebook's three end conditions, in the precedence docs/rules/sparta.md gives.

    1. one player owns every city: that player wins;
    2. both players have 1 or 2 pieces: more cities wins, equal cities is a tie (also when
       both have at most 1 piece, e.g. 0 and 1, which one move with captures can cause);
    3. one player has 1 piece left (or none): the other player wins.
    """
    owned = [0, 0]
    for owner in cities.values():
        owned[owner] += 1
    for player in PLAYERS:
        if cities and owned[player] == len(cities):
            return Outcome((player,), "all-cities")
    count = [board.count("W") + board.count("H"), board.count("w") + board.count("h")]
    if all(1 <= n <= 2 for n in count) or all(n <= 1 for n in count):
        if owned[0] == owned[1]:
            return Outcome((0, 1), "few-pieces-tie", draw=True)
        return Outcome((0 if owned[0] > owned[1] else 1,), "few-pieces-cities")
    for player in PLAYERS:
        if count[player] <= 1:
            return Outcome((1 - player,), "last-piece")
    return None


def random_layout(rng: random.Random) -> dict[str, Any]:
    """A random small position for self-play: 3-8 pieces and 1-4 cities a side, no traps."""
    while True:
        size = rng.randint(6, 10)
        squares = [[r, c] for r in range(size) for c in range(size)]
        rng.shuffle(squares)
        layout: dict[str, Any] = {"size": size, "warriors": [[], []], "heroes": [[], []]}
        for player in PLAYERS:
            total = rng.randint(3, 8)
            heroes = rng.randint(0, min(2, total))
            layout["heroes"][player] = [squares.pop() for _ in range(heroes)]
            layout["warriors"][player] = [squares.pop() for _ in range(total - heroes)]
        # Cities may lie under pieces, so they are drawn from the whole board again.
        spots = [[r, c] for r in range(size) for c in range(size)]
        rng.shuffle(spots)
        layout["cities"] = [
            [spots.pop() for _ in range(rng.randint(1, 4))],
            [spots.pop() for _ in range(rng.randint(1, 4))],
        ]
        try:
            normalise_layout(layout)
        except RulesError:
            continue
        return layout


def _counts(board: str, player: int) -> dict[str, int]:
    return {
        "warrior": board.count(LETTERS[(player, "warrior")]),
        "hero": board.count(LETTERS[(player, "hero")]),
    }


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
