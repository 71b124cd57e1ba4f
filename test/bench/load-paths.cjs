// autocannon GETs where every request has its own value of one query parameter, so no cache can
// answer: the uncached cost of an endpoint. Usage: node load-paths.cjs URL SECONDS CONNECTIONS HEADERS_JSON PARAM
const autocannon = require("autocannon");

const [url, seconds, connections, headersJson, param] = process.argv.slice(2);
const { pathname, search } = new URL(url);
let next = 0;
autocannon(
  {
    url,
    duration: Number(seconds),
    connections: Number(connections),
    headers: JSON.parse(headersJson),
    requests: [{ setupRequest: (req) => ({ ...req, path: `${pathname}${search ? `${search}&` : "?"}${param}=${next++}` }) }],
  },
  (err, result) => {
    if (err) throw err;
    process.stdout.write(JSON.stringify(result));
  },
);
