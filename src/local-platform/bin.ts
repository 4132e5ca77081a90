#!/usr/bin/env node
/**
 * The `novaos-platform` bin: starts the local platform, prints each
 * service's URL as the environment variable the SDK reads it from (and, with
 * `--write-env`, writes them there for `node --env-file`), and runs until
 * Ctrl-C or SIGTERM.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { LOCAL_SERVICES, type LocalService, startLocalPlatform } from "./local-platform.js";
import { platformEnvFile } from "./platform-env.js";

const USAGE = `Usage: novaos-platform [--host 127.0.0.1] [--base-port N] [--write-env FILE] [--tenant local]
Serve the NovaOS platform services on localhost (Execution Gateway, Agent DNS, MCP Gateway, …).
  --host        the address to bind (default 127.0.0.1)
  --base-port   serve the services on consecutive ports from N (default: free ports)
  --write-env   also write the NAME=value lines to FILE
  --tenant      the tenant of calls that name none (default local)
  --allow-host  a host novaos.http.* may reach, with its subdomains (repeatable; default none)
  --secret      NAME: the user secret NAME, its value read from the environment variable NAME, sealed to
                each registered pod key (repeatable)
`;

// node:util's parser: the CLI's terminal libraries stay with the novaos-a2a bin.
let values: {
  host: string;
  "base-port"?: string;
  "write-env"?: string;
  tenant: string;
  "allow-host": string[];
  secret: string[];
  help?: boolean;
};
try {
  values = parseArgs({
    options: {
      host: { type: "string", default: "127.0.0.1" },
      "base-port": { type: "string" },
      "write-env": { type: "string" },
      tenant: { type: "string", default: "local" },
      "allow-host": { type: "string", multiple: true, default: [] },
      secret: { type: "string", multiple: true, default: [] },
      help: { type: "boolean", short: "h" },
    },
  }).values as typeof values;
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const basePort = values["base-port"] === undefined ? undefined : Number(values["base-port"]);
if (
  basePort !== undefined &&
  !(Number.isInteger(basePort) && basePort >= 1 && basePort <= 65535 - LOCAL_SERVICES.length)
) {
  process.stderr.write(`--base-port must be a port number\n${USAGE}`);
  process.exit(2);
}
// A secret's value comes from the environment, so it stays out of the shell history and the process list.
const unset = values.secret.filter((name) => process.env[name] === undefined);
if (unset.length > 0) {
  process.stderr.write(`--secret ${unset.join(", ")}: no such environment variable\n${USAGE}`);
  process.exit(2);
}
const userSecrets = Object.fromEntries(values.secret.map((name) => [name, process.env[name] as string]));
const options = { host: values.host, basePort, writeEnv: values["write-env"], tenant: values.tenant };

const started = performance.now();
const ports: Partial<Record<LocalService, number>> = {};
if (options.basePort !== undefined) {
  LOCAL_SERVICES.forEach((service, index) => {
    ports[service] = (options.basePort as number) + index;
  });
}
const platform = await startLocalPlatform({
  host: options.host,
  ports,
  defaultTenant: options.tenant,
  httpAllowedHosts: values["allow-host"],
  userSecrets,
});
const env = platformEnvFile(platform);
if (options.writeEnv) {
  mkdirSync(dirname(options.writeEnv), { recursive: true });
  writeFileSync(options.writeEnv, env);
}
process.stdout.write(
  `novaos-platform: ready in ${Math.round(performance.now() - started)} ms\n${env}` +
    (options.writeEnv ? `(written to ${options.writeEnv})\n` : ""),
);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(130);
    stopping = true;
    void platform.close().then(() => process.exit(0));
  });
}
