// autocannon with a different body per request (one-use codes and refresh tokens), run under
// Node. Usage: node load-bodies.cjs URL SECONDS CONNECTIONS HEADERS_JSON BODIES_FILE
// A line "body\tproof" also sends its own DPoP header (one-use proofs).
const autocannon = require("autocannon");
const { readFileSync } = require("node:fs");

const [url, seconds, connections, headersJson, bodiesFile] = process.argv.slice(2);
const bodies = readFileSync(bodiesFile, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => line.split("\t"));
const headers = JSON.parse(headersJson);
let next = 0;
autocannon(
  {
    url,
    duration: Number(seconds),
    connections: Number(connections),
    method: "POST",
    headers,
    requests: [
      {
        setupRequest: (req) => {
          const [body, proof] = bodies[next++ % bodies.length];
          return { ...req, body, headers: proof ? { ...headers, dpop: proof } : headers };
        },
      },
    ],
  },
  (err, result) => {
    if (err) throw err;
    process.stdout.write(JSON.stringify(result));
  },
);
