/**
 * The floor of a fan-out (issue 43, item 3, test/bench/scale/fanout.ts): a bare Bun server that
 * keeps its WebSockets in a set and, on `POST /fire`, sends each one a realtime event's JSON,
 * doing nothing else. What it costs per subscriber is what any server on this runtime and kernel
 * pays for one WebSocket write. Run by the bench as `bun fanout-floor.ts <port>`.
 */
const sockets = new Set<Bun.ServerWebSocket<unknown>>();
let id = 0;
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.argv[2]),
  idleTimeout: 0,
  fetch(request, server) {
    const { pathname } = new URL(request.url);
    if (pathname === "/ws") return server.upgrade(request) ? undefined : new Response("upgrade failed", { status: 400 });
    if (pathname !== "/fire") return new Response("ok");
    const data = { id: "0190c0de-0000-7000-8000-000000000000", title: `Fan-out ${++id}`, completed: id % 2 === 0 };
    const text = JSON.stringify({
      id,
      type: "todo:updated",
      teamId: "bench-team",
      setId: "0190c0de-0000-7000-8000-000000000001",
      data,
      at: new Date().toISOString(),
    });
    for (const ws of sockets) ws.send(text);
    return new Response("sent");
  },
  websocket: {
    open: (ws) => void sockets.add(ws),
    close: (ws) => void sockets.delete(ws),
    message() {},
  },
});
console.log(`listening on ${server.port}`);
