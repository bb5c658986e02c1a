"""A bot that dies at its second move, saying why on standard error."""

import json
import sys


def main() -> None:
    moves = 0
    for line in sys.stdin:
        if json.loads(line)["type"] == "act":
            moves += 1
            if moves == 2:
                print("Traceback: my bot ran out of ideas", file=sys.stderr)
                sys.exit(3)
            print(json.dumps({"index": 0}), flush=True)


if __name__ == "__main__":
    main()
