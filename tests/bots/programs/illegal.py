"""A bot that answers a move nobody may make (9-9 is in no set)."""

import json
import sys


def main() -> None:
    for line in sys.stdin:
        if json.loads(line)["type"] == "act":
            print(json.dumps({"action": {"play": "9-9"}}), flush=True)


if __name__ == "__main__":
    main()
