// autocannon GETs where every request has its own query (`n=<counter>`), so no cache can answer:
// the uncached cost of an endpoint. Usage: node load-paths.cjs URL SECONDS CONNECTIONS HEADERS_JSON
const autocannon = require("autocannon");

const [url, seconds, connections, headersJson] = process.argv.slice(2);
const { pathname, search } = new URL(url);
let next = 0;
autocannon(
  {
    url,
    duration: Number(seconds),
    connections: Number(connections),
    headers: JSON.parse(headersJson),
    requests: [{ setupRequest: (req) => ({ ...req, path: `${pathname}${search ? `${search}&` : "?"}n=${next++}` }) }],
  },
  (err, result) => {
    if (err) throw err;
    process.stdout.write(JSON.stringify(result));
  },
);
