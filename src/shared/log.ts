import { writeSync } from "node:fs";
import type { LogLevel } from "../config/config.ts";

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export type LogFields = Record<string, unknown>;
export type Logger = {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
};

/**
 * Standard output, written once per event-loop turn: under load one request's line cost a system
 * call of its own, now a turn's lines share one. What is still pending when the process exits
 * is written synchronously, so no line is lost on a clean stop.
 */
function batchedStdout(): (line: string) => void {
  let pending = "";
  const flush = () => {
    const text = pending;
    pending = "";
    if (text) process.stdout.write(text);
  };
  process.on("exit", () => {
    if (pending) writeSync(1, pending);
    pending = "";
  });
  return (line) => {
    if (!pending) setImmediate(flush);
    pending += line;
  };
}

/** A logger writing one JSON object per line to `sink` (stdout, batched per turn, by default). */
export function createLogger(level: LogLevel, sink: (line: string) => void = batchedStdout()): Logger {
  const at = (lvl: Exclude<LogLevel, "silent">) => (msg: string, fields?: LogFields) => {
    if (RANK[lvl] < RANK[level]) return;
    sink(`${JSON.stringify({ t: new Date().toISOString(), level: lvl, msg, ...fields })}\n`);
  };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
