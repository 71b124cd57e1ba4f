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

/** Linux writes up to this many bytes to a pipe in one piece. */
const PIPE_BUF = 4096;
const NEWLINE = 0x0a;

/**
 * Standard output, written once per event-loop turn: under load one request's line cost a system
 * call of its own, now a turn's lines share one. What is still pending when the process exits
 * is written synchronously, so no line is lost on a clean stop.
 */
function batchedStdout(): (line: string) => void {
  let pending = "";
  const flush = () => {
    const bytes = Buffer.from(pending);
    pending = "";
    // Whole lines, at most PIPE_BUF bytes a write: the writes of several worker processes sharing
    // one pipe then never cut into each other's lines.
    for (let start = 0; start < bytes.length; ) {
      let end = bytes.length;
      if (end - start > PIPE_BUF) {
        const cut = bytes.lastIndexOf(NEWLINE, start + PIPE_BUF - 1);
        end = cut >= start ? cut + 1 : bytes.indexOf(NEWLINE, start + PIPE_BUF) + 1 || bytes.length;
      }
      process.stdout.write(bytes.subarray(start, end));
      start = end;
    }
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

/**
 * A logger writing one JSON object per line to `sink` (stdout, batched per turn, by default).
 * `base` fields go on every line (which worker wrote it).
 */
export function createLogger(level: LogLevel, sink: (line: string) => void = batchedStdout(), base: LogFields = {}): Logger {
  const at = (lvl: Exclude<LogLevel, "silent">) => (msg: string, fields?: LogFields) => {
    if (RANK[lvl] < RANK[level]) return;
    sink(`${JSON.stringify({ t: new Date().toISOString(), level: lvl, msg, ...base, ...fields })}\n`);
  };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
