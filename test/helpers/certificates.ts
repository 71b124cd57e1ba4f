import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./temp.ts";

export type PrivateCa = {
  /** The CA's certificate (PEM) and the file holding it (what CAIRN_SMTP_CA names). */
  caPem: string;
  caFile: string;
  /** A server certificate the CA signed, for localhost and 127.0.0.1, and its key (PEM). */
  cert: string;
  key: string;
};

function openssl(args: string[], cwd: string): void {
  const run = Bun.spawnSync(["openssl", ...args], { cwd, stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`openssl ${args[0]} failed: ${run.stderr.toString()}`);
}

/** A private certificate authority and one server certificate from it, made with the machine's openssl. */
export function makePrivateCa(): PrivateCa {
  const dir = tempDir("cairn-ca-");
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  openssl(
    ["req", "-x509", ...ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Cairn test CA"].concat([
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
    ]),
    dir,
  );
  openssl(["req", ...ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"], dir);
  writeFileSync(join(dir, "server.ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n");
  openssl(
    ["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "server.ext"],
    dir,
  );
  const read = (name: string) => readFileSync(join(dir, name), "utf8");
  return { caPem: read("ca.pem"), caFile: join(dir, "ca.pem"), cert: read("server.pem"), key: read("server.key") };
}
