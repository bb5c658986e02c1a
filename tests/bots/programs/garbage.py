"""A bot that prints debugging output where its answers go."""

import json
import sys


def main() -> None:
    for line in sys.stdin:
        if json.loads(line)["type"] == "act":
            print("thinking...", flush=True)


if __name__ == "__main__":
    main()
