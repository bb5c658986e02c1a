"""A bot that answers its first move at once, then never again in time."""

import json
import sys
import time


def main() -> None:
    answered = 0
    for line in sys.stdin:
        if json.loads(line)["type"] == "act":
            if answered:
                time.sleep(60)
            answered += 1
            print(json.dumps({"index": 0}), flush=True)


if __name__ == "__main__":
    main()
