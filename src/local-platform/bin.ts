#!/usr/bin/env node
/**
 * The `novaos-platform` bin: starts the local platform, prints each
 * service's URL as the environment variable the SDK reads it from (and, with
 * `--write-env`, writes them there for `node --env-file`), and runs until
 * Ctrl-C or SIGTERM.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { Command, InvalidArgumentError } from "commander";
import { LOCAL_SERVICES, type LocalService, startLocalPlatform } from "./local-platform.js";
import { platformEnvFile } from "./platform-env.js";

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535 - LOCAL_SERVICES.length) {
    throw new InvalidArgumentError("a port number");
  }
  return n;
}

const program = new Command("novaos-platform")
  .description("Serve the NovaOS platform services on localhost (Execution Gateway, Agent DNS, …)")
  .option("--host <host>", "the address to bind", "127.0.0.1")
  .option("--base-port <port>", "serve the services on consecutive ports from this one (default: free ports)", port)
  .option("--write-env <path>", "also write the NAME=value lines to this file")
  .option("--tenant <tenant>", "the tenant of calls that name none", "local")
  .parse();
const options = program.opts<{ host: string; basePort?: number; writeEnv?: string; tenant: string }>();

const started = performance.now();
const ports: Partial<Record<LocalService, number>> = {};
if (options.basePort !== undefined) {
  LOCAL_SERVICES.forEach((service, index) => {
    ports[service] = (options.basePort as number) + index;
  });
}
const platform = await startLocalPlatform({ host: options.host, ports, defaultTenant: options.tenant });
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
