import type { LogLevel } from "../config/config.ts";

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export type LogFields = Record<string, unknown>;
export type Logger = {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
};

/** A logger writing one JSON object per line to `sink` (stdout by default). */
export function createLogger(level: LogLevel, sink: (line: string) => void = (line) => process.stdout.write(line)): Logger {
  const at = (lvl: Exclude<LogLevel, "silent">) => (msg: string, fields?: LogFields) => {
    if (RANK[lvl] < RANK[level]) return;
    sink(`${JSON.stringify({ t: new Date().toISOString(), level: lvl, msg, ...fields })}\n`);
  };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
