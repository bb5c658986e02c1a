// A Node bot that answers an index past the end of its legal actions.
"use strict";
require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "act") process.stdout.write(JSON.stringify({ index: message.legal_actions.length }) + "\n");
});
