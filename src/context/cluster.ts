/**
 * The processes of one instance (CAIRN_WORKERS): a primary and its workers, all serving the same
 * port and database. What must be one across them goes through the primary over Bun's IPC
 * channel: the realtime sequence, the in-memory rate windows, cache drops. A single process is a
 * cluster of one, where every message is handled in place.
 */
import type { ClusterTopic } from "../shared/cluster-topics.ts";

export type ClusterRole = "single" | "primary" | "worker";

type Handler = (payload: unknown) => unknown;

/**
 * The instance's message bus. Its topics are the app's list (`CLUSTER_TOPICS`); the transport
 * itself carries any name, which its own tests use.
 */
export type Cluster<Topic extends string = ClusterTopic> = {
  readonly role: ClusterRole;
  /** Runs `topic`'s handler in every other process of the instance; nothing waits for it. */
  tellOthers(topic: Topic, payload: unknown): void;
  /** Runs `topic`'s handler in the primary (here, when this is the primary or alone). */
  tellPrimary(topic: Topic, payload: unknown): void;
  /** Runs `topic`'s handler in the primary and answers what it returned. */
  ask<T>(topic: Topic, payload: unknown): Promise<T>;
  /** The handler of `topic` in this process: one per topic. */
  on(topic: Topic, handler: Handler): void;
};

/** What travels between the processes. */
type Message =
  | { k: "run"; topic: string; payload: unknown }
  | { k: "others"; topic: string; payload: unknown }
  | { k: "primary"; topic: string; payload: unknown }
  | { k: "ask"; id: number; topic: string; payload: unknown }
  | { k: "reply"; id: number; value: unknown; error?: string };

/** A worker whose primary has not answered in this long gets an error: the primary is gone or stuck. */
const ASK_TIMEOUT_MS = 5_000;

function handlers() {
  const byTopic = new Map<string, Handler>();
  return {
    on(topic: string, handler: Handler) {
      byTopic.set(topic, handler);
    },
    run(topic: string, payload: unknown): unknown {
      const handler = byTopic.get(topic);
      if (!handler) throw new Error(`no handler for cluster topic "${topic}"`);
      return handler(payload);
    },
    /** For what arrives from another process: a message nobody here handles, or a handler that fails, must not stop this one. */
    deliver(topic: string, payload: unknown): void {
      try {
        byTopic.get(topic)?.(payload);
      } catch {
        // The handler's own part is lost; the sender is not told, as with any notice.
      }
    },
  };
}

/** A process serving alone: what would go to others goes nowhere, what would go to the primary stays here. */
export function singleProcess<Topic extends string = ClusterTopic>(): Cluster<Topic> {
  const local = handlers();
  return {
    role: "single",
    tellOthers() {},
    tellPrimary: (topic, payload) => void local.run(topic, payload),
    ask: async <T>(topic: Topic, payload: unknown) => (await local.run(topic, payload)) as T,
    on: local.on,
  };
}

/** The side of a worker process a primary holds: Bun's Subprocess with an IPC channel. */
export type WorkerLink = { send(message: Message): void };

/** The primary: relays between its workers and answers their questions. */
export function primaryCluster<Topic extends string = ClusterTopic>(): Cluster<Topic> & {
  attach(worker: WorkerLink): void;
  detach(worker: WorkerLink): void;
  receive(from: WorkerLink, message: unknown): void;
} {
  const local = handlers();
  const workers = new Set<WorkerLink>();
  const sendTo = (worker: WorkerLink, message: Message) => {
    try {
      worker.send(message);
    } catch {
      // A worker that just exited: the primary restarts it, and it starts from the database.
    }
  };
  const toWorkers = (message: Message, except?: WorkerLink) => {
    for (const worker of workers) if (worker !== except) sendTo(worker, message);
  };
  return {
    role: "primary",
    tellOthers: (topic, payload) => toWorkers({ k: "run", topic, payload }),
    tellPrimary: (topic, payload) => void local.run(topic, payload),
    ask: async <T>(topic: Topic, payload: unknown) => (await local.run(topic, payload)) as T,
    on: local.on,
    attach: (worker) => void workers.add(worker),
    detach: (worker) => void workers.delete(worker),
    receive(from, raw) {
      const message = raw as Message;
      switch (message.k) {
        case "others":
          local.deliver(message.topic, message.payload);
          toWorkers({ k: "run", topic: message.topic, payload: message.payload }, from);
          return;
        case "primary":
          local.deliver(message.topic, message.payload);
          return;
        case "ask":
          Promise.resolve()
            .then(() => local.run(message.topic, message.payload))
            .then(
              (value) => sendTo(from, { k: "reply", id: message.id, value }),
              (e: Error) => sendTo(from, { k: "reply", id: message.id, value: null, error: e.message }),
            );
          return;
      }
    },
  };
}

/** A worker: everything shared goes to the primary through `send` (process.send under Bun.spawn's ipc). */
export function workerCluster<Topic extends string = ClusterTopic>(sendRaw: (message: Message) => void): Cluster<Topic> & { receive(message: unknown): void } {
  const local = handlers();
  // The channel is closed once the primary is gone; the worker is stopping then, and a request must not fail on it.
  const send = (message: Message): boolean => {
    try {
      sendRaw(message);
      return true;
    } catch {
      return false;
    }
  };
  const pending = new Map<number, { resolve(value: unknown): void; reject(e: Error): void; timer: Timer }>();
  let nextId = 1;
  return {
    role: "worker",
    tellOthers: (topic, payload) => void send({ k: "others", topic, payload }),
    tellPrimary: (topic, payload) => void send({ k: "primary", topic, payload }),
    ask<T>(topic: Topic, payload: unknown): Promise<T> {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`the primary did not answer "${topic}"`));
        }, ASK_TIMEOUT_MS);
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
        if (send({ k: "ask", id, topic, payload })) return;
        clearTimeout(timer);
        pending.delete(id);
        reject(new Error("no channel to the primary"));
      });
    },
    on: local.on,
    receive(raw) {
      const message = raw as Message;
      if (message.k === "run") local.deliver(message.topic, message.payload);
      else if (message.k === "reply") {
        const waiting = pending.get(message.id);
        if (!waiting) return;
        pending.delete(message.id);
        clearTimeout(waiting.timer);
        if (message.error === undefined) waiting.resolve(message.value);
        else waiting.reject(new Error(message.error));
      }
    },
  };
}
