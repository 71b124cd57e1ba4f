import type { Server } from "bun";
import ipaddr from "ipaddr.js";
import type { Config } from "../config/config.ts";
import { constantTimeEqual } from "../shared/crypto.ts";
import { forbidden, unauthorized } from "../shared/errors.ts";

/** A request that carries any of these came through a proxy, even from a loopback address. */
const FORWARDING_HEADERS = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip"];

const isLoopback = (address: string) => {
  try {
    return ipaddr.process(address).range() === "loopback";
  } catch {
    return false;
  }
};

/**
 * Who may read /metrics. With CAIRN_METRICS_TOKEN set, whoever sends it as a bearer token, from
 * anywhere (a Prometheus in another container or host). Without it, only a scraper on this
 * machine talking to Cairn directly: a loopback peer with no forwarding header, since a reverse
 * proxy on the same host also connects from loopback, on behalf of the whole internet.
 */
export function assertMetricsAccess(config: Pick<Config, "metricsToken">, request: Request, server: Server<unknown> | null | undefined): void {
  if (config.metricsToken !== null) {
    const given = /^Bearer +(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
    if (!constantTimeEqual(given, config.metricsToken))
      throw unauthorized("/metrics needs CAIRN_METRICS_TOKEN as a bearer token", { "www-authenticate": 'Bearer realm="metrics"' });
    return;
  }
  const peer = server?.requestIP(request)?.address ?? "";
  if (!isLoopback(peer)) throw forbidden("/metrics answers loopback only while CAIRN_METRICS_TOKEN is unset");
  if (FORWARDING_HEADERS.some((name) => request.headers.has(name)))
    throw forbidden("/metrics answers direct loopback requests only (this one came through a proxy) while CAIRN_METRICS_TOKEN is unset");
}
