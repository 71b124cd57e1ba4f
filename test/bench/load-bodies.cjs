// autocannon with a different body per request (one-use codes and refresh tokens), run under
// Node. Usage: node load-bodies.cjs URL SECONDS CONNECTIONS HEADERS_JSON BODIES_FILE once|cycle
// A line "body\tproof" also sends its own DPoP header (one-use proofs). `once`: each body is sent
// once and the run ends when they are used up (autocannon's amount), since a one-use body sent
// again is a cheap error answer that would flatter the rate, or after SECONDS, whichever comes
// first: a slow server (PostgreSQL on a loaded machine) would otherwise take minutes a run, and
// outlive its DPoP proofs' 60 seconds. `cycle`: bodies are sent in turn for SECONDS.
const autocannon = require("autocannon");
const { readFileSync } = require("node:fs");

const [url, seconds, connections, headersJson, bodiesFile, mode] = process.argv.slice(2);
const once = mode === "once";
const bodies = readFileSync(bodiesFile, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => line.split("\t"));
const headers = JSON.parse(headersJson);
let next = 0;
const started = process.hrtime.bigint();
let lastAnswer = started;
const instance = autocannon(
  {
    url,
    duration: Number(seconds),
    amount: once ? bodies.length : undefined,
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
    // A run that ends on `amount` stops on autocannon's next one-second tick: its real length ends
    // with the last answer.
    const seconds = Number(lastAnswer - started) / 1e9;
    process.stdout.write(JSON.stringify({ ...result, measuredSeconds: seconds }));
  },
);
// autocannon ignores the duration when given an amount.
if (once) setTimeout(() => instance.stop(), Number(seconds) * 1000).unref();
instance.on("response", () => {
  lastAnswer = process.hrtime.bigint();
});
