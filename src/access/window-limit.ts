import ipaddr from "ipaddr.js";
import type { Cluster } from "../context/cluster.ts";
import { CLUSTER_TOPICS } from "../shared/cluster-topics.ts";

/**
 * Counts per key in fixed windows, in memory. For anonymous requests that create pending rows
 * (sign-in starts, passkey options) or probe accounts (WebFinger): counting those in the database
 * would itself be the write a flood is after. Lost on restart, which only resets the windows.
 */
export type WindowLimiter = {
  /** Counts a hit; null when it is allowed, else the seconds until the key's window ends. */
  hit(key: string, now: number): number | null;
};

export function windowLimiter({ max, windowMs, maxKeys = 50_000 }: { max: number; windowMs: number; maxKeys?: number }): WindowLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  const sweep = (now: number) => {
    for (const [key, w] of windows) if (now - w.start >= windowMs) windows.delete(key);
  };
  return {
    hit(key, now) {
      let w = windows.get(key);
      if (!w || now - w.start >= windowMs) {
        if (!w && windows.size >= maxKeys) sweep(now);
        // Still full of live windows: a flood from very many addresses; refuse rather than forget.
        if (!w && windows.size >= maxKeys) return Math.ceil(windowMs / 1000);
        windows.set(key, (w = { start: now, count: 0 }));
      }
      w.count++;
      return windowVerdict(w.count, w.start, now, { max, windowMs });
    },
  };
}

/** A hit's answer once counted: null while the window holds at most `max`, else the seconds until it ends. */
export const windowVerdict = (count: number, start: number, now: number, { max, windowMs }: { max: number; windowMs: number }): number | null =>
  count <= max ? null : Math.max(1, Math.ceil((start + windowMs - now) / 1000));

/** A window limit of the whole instance: with several workers, every hit is counted in the primary. */
export type SharedWindowLimiter = {
  /** Counts a hit; null when it is allowed, else the seconds until the key's window ends. */
  hit(key: string, now: number): Promise<number | null>;
};

type Hit = { name: string; key: string; now: number };

/**
 * The instance's named window limits. Every process makes the same ones (they build the same
 * routes); a worker asks the primary to count, so a client spreading requests over the workers
 * gets the same allowance as with one. Should the primary not answer, the worker counts alone.
 * Several instances on PostgreSQL count in the database instead (access/window-limit.pg.ts).
 */
export function createWindowLimits(cluster: Cluster) {
  const limiters = new Map<string, WindowLimiter>();
  cluster.on(CLUSTER_TOPICS.limitsHit, (payload) => {
    const { name, key, now } = payload as Hit;
    return limiters.get(name)?.hit(key, now) ?? null;
  });
  return (name: string, options: { max: number; windowMs: number }): SharedWindowLimiter => {
    let local = limiters.get(name);
    if (!local) limiters.set(name, (local = windowLimiter(options)));
    const counter = local;
    return {
      hit: async (key, now) =>
        cluster.role === "worker"
          ? cluster.ask<number | null>(CLUSTER_TOPICS.limitsHit, { name, key, now } satisfies Hit).catch(() => counter.hit(key, now))
          : counter.hit(key, now),
    };
  };
}

export type WindowLimits = ReturnType<typeof createWindowLimits>;

/**
 * The key a client address is counted under: IPv6 clients by their /64 (one subscriber holds a
 * whole /64, so counting single addresses would not limit anyone), an IPv4 client on a
 * dual-stack socket (::ffff:a.b.c.d) as that IPv4 address.
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === "ipv4") return address.toString();
  return `${(address as ipaddr.IPv6).toNormalizedString().split(":").slice(0, 4).join(":")}::/64`;
}
