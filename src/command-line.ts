import { VERSION } from "./version.ts";

/** What `cairn ARGS` asks for: a command to run, text to print (exit 0), or a mistake (usage on stderr, exit 2). */
export type CommandLine =
  | { run: "serve" | "migrate" | "healthcheck" | "keys rotate" }
  | { run: "backup"; file: string }
  | { run: "migrate-to-postgres"; url: string }
  | { run: "admin reset-password"; login: string }
  | { print: string }
  | { mistake: string; usage: string };

type Entry = { words: string; args?: string; help: string[] };

/** Every command, once: the help texts are made from this list. */
const COMMANDS: Entry[] = [
  { words: "serve", help: ["start the server (the default)"] },
  {
    words: "migrate",
    help: [
      "apply database migrations and exit; also rewrites a database made before",
      "Cairn gave back free space, whatever its size (run it with Cairn stopped)",
    ],
  },
  {
    words: "backup",
    args: "FILE",
    help: [
      "write a consistent copy of the running database to FILE and the key that",
      "opens its sealed values to FILE.key (never overwrites; a restore needs both)",
    ],
  },
  {
    words: "migrate-to-postgres",
    args: "URL",
    help: [
      "copy this instance's SQLite database into the empty PostgreSQL database at",
      "URL (postgres://user:password@host/database) and verify the copy: row counts,",
      "sampled rows, sealed values; run it with Cairn stopped, after cairn migrate",
    ],
  },
  { words: "keys rotate", help: ["new ID-token signing keys now (the old ones stay published for 14 days)"] },
  {
    words: "admin reset-password",
    args: "USER",
    help: [
      "give USER (username or email) a new random password, remove their second",
      "factors and end their sessions: recovery for someone locked out (an",
      "administrator can also make a reset link in the web app: Admin, Users)",
    ],
  },
  { words: "healthcheck", help: ["exit 0 if the server on PORT answers /healthz (for container health checks)"] },
];

const COLUMN = 15;

function commandList(entries: Entry[]): string {
  return entries
    .map(({ words, args, help }) => {
      const name = args ? `${words} ${args}` : words;
      const [first, ...rest] = help.map((line) => `${" ".repeat(COLUMN + 2)}${line}`);
      const head = name.length < COLUMN ? `  ${name.padEnd(COLUMN)}${(first as string).trimStart()}` : `  ${name}\n${first}`;
      return [head, ...rest].join("\n");
    })
    .join("\n");
}

export const USAGE = `Cairn ${VERSION}: single sign-on and a shared todo workspace in one binary.

Usage: cairn [command]

Commands:
${commandList(COMMANDS)}

Options:
  --help, -h     show this help
  --version, -v  print the version

Configuration is read from the environment (CAIRN_DATA, PORT, CAIRN_ISSUER, ...): see the README.
Only serve and migrate create the data folder (default ./data); the other commands need its database.
`;

/** The usage of a command group (`cairn admin`, `cairn keys`): its own commands only. */
const groupUsage = (group: string) =>
  `Usage: cairn ${group} COMMAND\n\nCommands:\n${commandList(
    COMMANDS.filter((c) => c.words.startsWith(`${group} `)).map((c) => ({ ...c, words: c.words.slice(group.length + 1) })),
  )}\n`;

const FLAGS = new Set(["--help", "-h", "--version", "-v"]);

/**
 * Reads the command line. Options are only --help and --version; anything else that starts with a
 * dash is a mistake, never taken for a value (`cairn admin reset-password --bogus` must not look
 * up a user called "--bogus"). After `--`, every word is a value.
 */
export function parseCommandLine(argv: string[]): CommandLine {
  const end = argv.indexOf("--");
  const options = end < 0 ? argv : argv.slice(0, end);
  const words = [...options.filter((a) => !a.startsWith("-") || a === "-"), ...(end < 0 ? [] : argv.slice(end + 1))];
  const [command = "serve", sub, ...more] = words;
  const group = command === "admin" || command === "keys" ? command : null;
  const usage = group ? groupUsage(group) : USAGE;
  const unknown = options.find((a) => a.startsWith("-") && a !== "-" && !FLAGS.has(a));
  if (unknown !== undefined) return { mistake: `unknown option "${unknown}"`, usage };
  if (options.includes("--help") || options.includes("-h") || command === "help") return { print: usage };
  if (options.includes("--version") || options.includes("-v")) return { print: `${VERSION}\n` };

  // Words past what the command takes are a mistake too, not silently dropped.
  const tooMany = (expected: number) => {
    const word = words[expected];
    return word === undefined ? null : { mistake: `unexpected argument "${word}"`, usage };
  };
  switch (command) {
    case "serve":
    case "migrate":
    case "healthcheck":
      return tooMany(1) ?? { run: command };
    case "backup":
      if (sub === undefined) return { mistake: "backup needs a file name: cairn backup FILE", usage };
      return tooMany(2) ?? { run: "backup", file: sub };
    case "migrate-to-postgres":
      if (sub === undefined)
        return { mistake: "migrate-to-postgres needs the URL of an empty PostgreSQL database: cairn migrate-to-postgres postgres://...", usage };
      return tooMany(2) ?? { run: "migrate-to-postgres", url: sub };
    case "keys":
      if (sub === undefined) return { mistake: "keys needs a command", usage };
      if (sub !== "rotate") return { mistake: `unknown keys command "${sub}"`, usage };
      return tooMany(2) ?? { run: "keys rotate" };
    case "admin":
      if (sub === undefined) return { mistake: "admin needs a command", usage };
      if (sub !== "reset-password") return { mistake: `unknown admin command "${sub}"`, usage };
      if (more[0] === undefined) return { mistake: "admin reset-password needs a USER (username or email)", usage };
      return tooMany(3) ?? { run: "admin reset-password", login: more[0] };
    default:
      return { mistake: `unknown command "${command}"`, usage: USAGE };
  }
}
