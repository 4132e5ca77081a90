/**
 * The private keys a pod opens sealed envelopes with, loaded from the
 * directory the control plane mounts (a Kubernetes Secret, one `{kid}.jwk`
 * file per key). Nothing here reaches out over the network, and keys are not
 * taken from the environment: a mounted Secret is updated in place, so a
 * rotation needs no restart.
 *
 * During a rotation the directory holds the current key and its predecessor;
 * the pod opens whatever envelopes name, by kid. A file disappearing is how
 * both the end of an overlap window and a revocation arrive, so a cached key
 * is re-checked against the directory, not only a missing one: any lookup
 * re-reads the directory when the last read is older than the reload
 * interval. The interval bounds the reads a flood of forged kids can cause,
 * and bounds how long a revoked key keeps opening envelopes.
 *
 * A key file anyone but its owner could write is refused (a key someone else
 * could have planted is no key of ours), and each file is opened once: its
 * type, size and mode are checked on the open descriptor and the key read
 * from that same descriptor, so a file swapped between the check and the
 * read cannot slip through.
 */
import { constants } from "node:fs";
import { open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { RecipientKeyUnavailableError } from "../errors/novaos-errors.js";
import { RecipientKey } from "./recipient-key.js";
import { envelopeKeyId, openEnvelope, type SecretDelivery } from "./sealed-envelope.js";

/** The environment variable naming the key directory. */
export const AGENT_KEYS_DIR_ENV = "NOVAOS_AGENT_KEYS_DIR";
/** Where the key Secret is mounted when the environment names no directory. */
export const DEFAULT_AGENT_KEYS_DIR = "/var/run/secrets/novaos/agent-keys";
/** At most one directory read per this many seconds, on hits and misses alike. */
export const MIN_RELOAD_INTERVAL_SECONDS = 10;
/** A key file larger than this is not a JWK (one is about 150 bytes). */
const MAX_KEY_FILE_BYTES = 16 * 1024;
/** Write permission for the file's group or for others. */
const GROUP_OR_OTHER_WRITABLE = 0o022;
/** Non-blocking, so a FIFO in the directory cannot hang the open. */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;
const KEY_FILE_SUFFIX = ".jwk";

/** A key file that could not be used; names the file, never its content. */
export interface KeyFileProblem {
  readonly file: string;
  readonly reason: string;
}

export interface PodKeyringOptions {
  /** The key directory; `NOVAOS_AGENT_KEYS_DIR`, else `/var/run/secrets/novaos/agent-keys`. */
  directory?: string;
  /** Minimum seconds between directory reads (default 10). */
  minReloadIntervalSeconds?: number;
  /** A monotonic clock in seconds, for the throttle only. */
  now?: () => number;
  /** Told about unusable key files; by default a process warning, once per file and reason. */
  onKeyFileProblem?: (problem: KeyFileProblem) => void;
  env?: Readonly<Record<string, string | undefined>>;
}

function warnOnce(): (problem: KeyFileProblem) => void {
  const seen = new Set<string>();
  return (problem) => {
    const key = `${problem.file}\0${problem.reason}`;
    if (seen.has(key)) return;
    seen.add(key);
    process.emitWarning(`Ignoring key file ${problem.file}: ${problem.reason}`, { code: "NOVAOS_POD_KEYRING" });
  };
}

function errorCode(error: unknown): string | undefined {
  return (error as { code?: unknown } | null)?.code as string | undefined;
}

export class PodKeyring {
  #directory: string | undefined;
  #keys = new Map<string, RecipientKey>();
  /** Why each refused key file was refused, by file name, for the error of an envelope that names it. */
  #refused = new Map<string, string>();
  #lastRead: number | undefined;
  #reading: Promise<void> | undefined;
  #directoryProblem: string | undefined;
  readonly #interval: number;
  readonly #now: () => number;
  readonly #onProblem: (problem: KeyFileProblem) => void;

  /** Reads nothing until the first envelope needs opening. */
  constructor(options: PodKeyringOptions = {}) {
    const env = options.env ?? process.env;
    this.#directory = options.directory ?? (env[AGENT_KEYS_DIR_ENV]?.trim() || DEFAULT_AGENT_KEYS_DIR);
    this.#interval = options.minReloadIntervalSeconds ?? MIN_RELOAD_INTERVAL_SECONDS;
    this.#now = options.now ?? (() => performance.now() / 1000);
    this.#onProblem = options.onKeyFileProblem ?? warnOnce();
  }

  /**
   * A keyring over keys the caller holds, with no directory: a miss is final
   * and `reload()` keeps the keys.
   */
  static fromKeys(keys: Iterable<RecipientKey>): PodKeyring {
    const keyring = new PodKeyring();
    keyring.#directory = undefined;
    for (const key of keys) keyring.#keys.set(key.kid, key);
    return keyring;
  }

  /** The key directory, or undefined for a keyring built from keys in memory. */
  get directory(): string | undefined {
    return this.#directory;
  }

  /** The kids currently loaded, sorted. Safe to log: a kid is a hash of a public key. */
  get keyIds(): string[] {
    return [...this.#keys.keys()].sort();
  }

  /**
   * Opens an envelope with the key it names. Throws `SealedEnvelopeFormatError`
   * (malformed), `RecipientKeyUnavailableError` (no key with that kid: rotated
   * out, revoked, or the directory is not mounted) or `SealedEnvelopeError`
   * (did not open).
   */
  async open(envelope: unknown, delivery: SecretDelivery): Promise<string> {
    const kid = envelopeKeyId(envelope);
    const key = await this.#lookup(kid);
    if (!key) {
      const where = this.directory === undefined ? "the keys supplied in memory" : this.directory;
      const refused = this.#refused.get(`${kid}${KEY_FILE_SUFFIX}`);
      const reason = this.#directoryProblem ?? (refused && `its key file was refused: ${refused}`);
      const problem = reason ? ` (${reason})` : "";
      throw new RecipientKeyUnavailableError(`No recipient key with kid ${JSON.stringify(kid)} in ${where}${problem}`, {
        details: { kid, keyIds: this.keyIds, ...(this.directory ? { directory: this.directory } : {}) },
      });
    }
    return openEnvelope(envelope, key, delivery);
  }

  /** Re-reads the directory now, ignoring the throttle (for a readiness probe). No-op without a directory. */
  async reload(): Promise<void> {
    if (this.directory === undefined) return;
    await this.#reading;
    await this.#read();
  }

  async #lookup(kid: string): Promise<RecipientKey | undefined> {
    if (this.#directory !== undefined) {
      const due = this.#lastRead === undefined || this.#now() - this.#lastRead >= this.#interval;
      // A read already in flight is awaited too: its result is newer than the cache.
      await (due ? this.#read() : this.#reading);
    }
    return this.#keys.get(kid);
  }

  /** One directory read at a time; concurrent callers share it. */
  #read(): Promise<void> {
    if (!this.#reading) {
      this.#lastRead = this.#now();
      this.#reading = this.#readDirectory().finally(() => {
        this.#reading = undefined;
      });
    }
    return this.#reading;
  }

  async #readDirectory(): Promise<void> {
    const directory = this.directory!;
    let names: string[];
    try {
      names = await readdir(directory);
    } catch (error) {
      // Fail closed: keys that cannot be re-checked are not trusted.
      this.#keys = new Map();
      this.#refused = new Map();
      this.#directoryProblem =
        errorCode(error) === "ENOENT" ? "the key directory does not exist" : "the key directory cannot be read";
      return;
    }
    this.#directoryProblem = undefined;
    const keys = new Map<string, RecipientKey>();
    this.#refused = new Map();
    // Dotfiles include Kubernetes' `..data` and `..<timestamp>` entries; the key links point through them.
    for (const name of names.filter((n) => !n.startsWith(".") && n.endsWith(KEY_FILE_SUFFIX)).sort()) {
      const key = await this.#readKeyFile(join(directory, name), name);
      if (key) keys.set(key.kid, key);
    }
    this.#keys = keys;
  }

  /** Reports a refused key file and remembers why, for the error of an envelope naming its kid. */
  #refuse(name: string, reason: string): undefined {
    this.#refused.set(name, reason);
    this.#onProblem({ file: name, reason });
    return undefined;
  }

  async #readKeyFile(path: string, name: string): Promise<RecipientKey | undefined> {
    let text: string;
    try {
      const handle = await open(path, OPEN_FLAGS);
      try {
        const info = await handle.stat();
        if (!info.isFile()) return undefined;
        if (info.size > MAX_KEY_FILE_BYTES) return this.#refuse(name, `larger than ${MAX_KEY_FILE_BYTES} bytes`);
        if (process.platform !== "win32" && (info.mode & GROUP_OR_OTHER_WRITABLE) !== 0) {
          const mode = (info.mode & 0o777).toString(8).padStart(4, "0");
          return this.#refuse(name, `writable by its group or others (mode ${mode}); make it chmod go-w`);
        }
        text = await handle.readFile("utf8");
      } finally {
        await handle.close();
      }
    } catch (error) {
      // Removed between the listing and the read: revoked, not a problem to report.
      if (errorCode(error) !== "ENOENT") this.#onProblem({ file: name, reason: "cannot be read" });
      return undefined;
    }
    let key: RecipientKey;
    try {
      key = RecipientKey.fromJwk(JSON.parse(text));
    } catch (error) {
      return this.#refuse(
        name,
        error instanceof SyntaxError ? "not JSON" : error instanceof Error ? error.message : "invalid",
      );
    }
    if (name !== `${key.kid}${KEY_FILE_SUFFIX}`) {
      return this.#refuse(name, `the file is not named after its key's thumbprint (${key.kid})`);
    }
    return key;
  }

  toJSON(): { directory: string | undefined; keyIds: string[] } {
    return { directory: this.directory, keyIds: this.keyIds };
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `PodKeyring { directory: ${JSON.stringify(this.directory)}, keyIds: ${JSON.stringify(this.keyIds)} }`;
  }
}
