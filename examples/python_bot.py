"""A Boneyard bot in another process: it plays the heaviest tile it may (any game).

Run it in an arena:  boneyard arena --bots "cmd:python examples/python_bot.py,greedy"
It speaks the boneyard-bot/1 protocol of docs/bots.md: one JSON message per line on standard
input; to each "act" it answers one line on standard output. Debug output goes to stderr.
"""

import json
import sys


def pips(action):
    """The pips of the tile an action plays (a Highrise wild half counts 7); -1 if none."""
    tile = action.get("play")
    if not isinstance(tile, str):
        return -1
    return sum(7 if half == "W" else int(half) for half in tile.split("-"))


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(f"playing {message['game']} at seat {message['seat'] + 1}", file=sys.stderr)
    elif message["type"] == "act":
        actions = message["legal_actions"]
        best = max(range(len(actions)), key=lambda k: pips(actions[k]))
        print(json.dumps({"index": best}), flush=True)
