// autocannon with a different body per request (one-use codes and refresh tokens), run under
// Node. Usage: node load-bodies.cjs URL SECONDS CONNECTIONS HEADERS_JSON BODIES_FILE
const autocannon = require("autocannon");
const { readFileSync } = require("node:fs");

const [url, seconds, connections, headersJson, bodiesFile] = process.argv.slice(2);
const bodies = readFileSync(bodiesFile, "utf8").split("\n").filter(Boolean);
let next = 0;
autocannon(
  {
    url,
    duration: Number(seconds),
    connections: Number(connections),
    method: "POST",
    headers: JSON.parse(headersJson),
    requests: [{ setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }) }],
  },
  (err, result) => {
    if (err) throw err;
    process.stdout.write(JSON.stringify(result));
  },
);
