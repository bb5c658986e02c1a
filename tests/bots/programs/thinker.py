"""A bot that thinks: its second answer of a game comes after ``argv[1]`` seconds (the others
at once); it writes each ``start`` message it gets, one JSON line, to the file ``argv[2]``."""

import json
import sys
import time


def main() -> None:
    think = float(sys.argv[1])
    answered = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            answered = 0
            with open(sys.argv[2], "a", encoding="utf-8") as out:
                out.write(json.dumps(message) + "\n")
        elif message["type"] == "act":
            answered += 1
            if answered == 2:
                time.sleep(think)
            print(json.dumps({"index": 0}), flush=True)


if __name__ == "__main__":
    main()
