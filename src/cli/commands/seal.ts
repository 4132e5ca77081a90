/**
 * `seal`: one secret sealed to a pod's public key for one delivery (tenant,
 * instance, run, secret name), as docs/specs/sealed-envelope-v1.md defines
 * it. The secret comes from stdin unless `--value` is given, so it need not
 * appear in the shell history or the process list.
 */
import type { Command } from "commander";
import { type RecipientPublicJwk, sealEnvelope } from "../../security/index.js";
import { CliUsageError } from "../cli-errors.js";
import type { CliIo } from "../io.js";
import { createOutput } from "../output.js";
import { readStream } from "./card.js";
import { readJwkFile } from "./keys.js";

export function registerSeal(program: Command, io: CliIo): void {
  program
    .command("seal")
    .description("seal a secret to a pod's X25519 public key (the secret is read from stdin)")
    .requiredOption("--to <file>", "the recipient's public JWK (from `keys generate`)")
    .requiredOption("--tenant <id>", "tenant id the envelope is bound to")
    .requiredOption("--instance <id>", "agent instance id")
    .requiredOption("--run <id>", "run id")
    .requiredOption("--name <secret>", "secret name, e.g. SMTP_PASSWORD")
    .option("--value <secret>", "the secret itself (prefer stdin: argv is visible to other users)")
    .action(
      async (
        options: { to: string; tenant: string; instance: string; run: string; name: string; value?: string },
        command: Command,
      ) => {
        const out = createOutput(io, command.optsWithGlobals());
        const recipient = (await readJwkFile(options.to)) as unknown as RecipientPublicJwk;
        const secret = options.value ?? (await readStream(io.stdin)).replace(/\r?\n$/, "");
        if (secret === "") throw new CliUsageError("nothing to seal: pass the secret on stdin or --value");
        const envelope = sealEnvelope(secret, recipient, {
          tenantId: options.tenant,
          instanceId: options.instance,
          runId: options.run,
          secretName: options.name,
        });
        out.data(envelope);
      },
    );
}
