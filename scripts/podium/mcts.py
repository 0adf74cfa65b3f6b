"""A generic Monte Carlo tree search for POLD.R, the yardstick of issue #37: it knows only the rules
(poldr_rules.py) and plays as OpenSpiel's MCTSBot does with a random-rollout evaluator:

- UCT with c = 2: a child's value is its mean reward + c * sqrt(ln(parent visits) / its visits);
  children not yet visited come first, in an order shuffled when the node is expanded;
- a leaf is expanded on its second visit; each simulation evaluates its leaf by one uniformly
  random playout to the end of the game;
- rewards: the winner +1, every other seat -1 (the returns the issue's outside measurement used);
  each node holds the reward of the player who moved into it (max-n backup, so two and three
  players are treated alike);
- a solver: a finished game's node is proved; a node is proved when the player to move there has a
  proved winning child, or when all its children are proved (then it takes the first proved
  child's result, in the shuffled order, as OpenSpiel does: with three players a player who loses
  whatever it does decides which other player wins, and the tree does not know which). A proved
  child is valued at its result (+1 or -1) with no exploration term. The search stops once the
  root is proved;
- a fresh tree every move, `simulations` simulations a move;
- the move played: a proved win first, then the most visits, then the greatest total reward.

One difference from MCTSBot: with a single legal move (a forced pass, say) it is played at once.

Python 3.11 standard library only.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from .poldr_rules import Rules

UCT_C = 2.0


class Node:
    __slots__ = ("move", "player", "state", "children", "tried", "visits", "reward", "outcome", "terminal")

    def __init__(self, move: int | None, player: int, state: tuple | None = None):
        self.move = move
        self.player = player  # the seat that moved into this node (at the root: the seat to move)
        self.state = state  # computed when the node is first reached
        self.children: list[Node] | None = None
        self.tried = 0  # children[:tried] have been visited
        self.visits = 0
        self.reward = 0.0  # total reward of self.player over the visits
        self.outcome = -1  # the proved winner, -1 while unproved
        self.terminal = -1  # the winner if the game is over here, -1 otherwise (known once visited)


@dataclass
class SearchResult:
    move: int
    simulations: int  # simulations run (fewer than asked when the root was proved)
    visits: int  # the move's visits
    value: float  # the move's mean reward for the mover, -1 to 1
    proved: int  # the proved winner of the position, or -1
    max_depth: int  # the deepest node of the tree, in plies from the root


def uct_child(node: Node, c: float) -> Node:
    """The child that UCT picks once every child has been visited."""
    scale = c * math.sqrt(math.log(node.visits))
    best, best_value = None, -math.inf
    for child in node.children:
        if child.outcome >= 0:
            value = 1.0 if child.outcome == child.player else -1.0
        else:
            visits = child.visits
            value = child.reward / visits + scale / math.sqrt(visits)
        if value > best_value:
            best, best_value = child, value
    return best


def search(rules: Rules, state: tuple, simulations: int, rng: random.Random, c: float = UCT_C) -> SearchResult:
    """Runs the simulations from state (a game still on) and returns the move to play."""
    players = rules.players
    moves = rules.legal_moves(state)
    if not moves:
        raise ValueError("the game is over: no move to search")
    seat = state[5] % players
    if len(moves) == 1:
        return SearchResult(moves[0], 0, 0, 0.0, -1, 0)
    root = Node(None, seat, state)
    rand = rng.random
    play, legal_moves, playout = rules.play, rules.legal_moves, rules.playout
    max_depth = 0
    done = 0
    for done in range(1, simulations + 1):
        node = root
        path = [root]
        # Selection and expansion: down while the node has been visited and the game goes on.
        while node.visits and node.terminal < 0:
            children = node.children
            if children is None:
                mover = node.state[5] % players
                choices = legal_moves(node.state)
                rng.shuffle(choices)
                children = node.children = [Node(move, mover) for move in choices]
            if node.tried < len(children):
                child = children[node.tried]
                node.tried += 1
            else:
                child = uct_child(node, c)
            if child.state is None:
                child.state = play(node.state, child.move)
            node = child
            path.append(node)
        if len(path) - 1 > max_depth:
            max_depth = len(path) - 1
        # Evaluation: the game's end, or one random playout.
        if node.terminal >= 0:
            winner, solved = node.terminal, True
        else:
            winner, plies = playout(node.state, rand)
            solved = plies == 0
            if solved:
                node.terminal = node.outcome = winner
        # Backup, and the solver.
        for node in reversed(path):
            node.visits += 1
            node.reward += 1.0 if winner == node.player else -1.0
            if solved and node.children:
                mover = node.children[0].player
                best, all_proved = None, True
                for child in node.children:
                    if child.outcome < 0:
                        all_proved = False
                    elif best is None or (child.outcome == mover and best.outcome != mover):
                        best = child
                if best is not None and (all_proved or best.outcome == mover):
                    node.outcome = best.outcome
                else:
                    solved = False
        if root.outcome >= 0:
            break
    if not root.children:  # one simulation: no child was visited
        return SearchResult(moves[int(rand() * len(moves))], done, 0, 0.0, -1, 0)

    def rank(child: Node) -> tuple:
        proved = 0 if child.outcome < 0 else (1 if child.outcome == seat else -1)
        return proved, child.visits, child.reward

    best = max(root.children, key=rank)
    value = best.reward / best.visits if best.visits else 0.0
    return SearchResult(best.move, done, best.visits, value, root.outcome, max_depth)
