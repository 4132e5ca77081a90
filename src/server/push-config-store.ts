/**
 * Where push-notification registrations live (the Create / Get / List /
 * Delete TaskPushNotificationConfig quartet). Supplying a store to the
 * AgentBuilder is what turns the four methods on; without one they all answer
 * -32003. Configs are keyed by (scope, task id, config id) and record the
 * caller that registered them; who may reach them is decided by their task
 * (the harness checks the task's owner first). ListTaskPushNotificationConfigs
 * pages are served by the store, in config-id order.
 */
import type { TaskPushNotificationConfig } from "../../gen/a2a_pb.js";
import { type LruEntry, LruMap } from "./lru-map.js";
import { OBJECT_BYTES } from "./task-bytes.js";

/** A config as stored, with the caller identity that registered it ("" while callers are not authenticated). */
export interface StoredPushConfig {
  readonly config: TaskPushNotificationConfig;
  readonly owner: string;
}

/** One page of a task's configs: ids after `after` (exclusive), ascending. */
export interface PushConfigQuery {
  readonly after: string | undefined;
  readonly pageSize: number;
}

export interface PushConfigPage {
  readonly configs: readonly StoredPushConfig[];
  /** Whether configs follow the last one. */
  readonly more: boolean;
}

export interface PushNotificationConfigStore {
  get(taskId: string, configId: string, scope: string): Promise<StoredPushConfig | undefined>;
  /** Inserts or replaces the config with this (task id, id); both are set by the harness. Records `owner` when it inserts. */
  save(config: TaskPushNotificationConfig, scope: string, owner: string): Promise<void>;
  /** One page of the task's configs, by config id (UTF-16 code-unit order in process, code-point order in SQL). */
  list(taskId: string, scope: string, query: PushConfigQuery): Promise<PushConfigPage>;
  /** A missing config is not an error (Delete is idempotent, spec §3.1.10). */
  delete(taskId: string, configId: string, scope: string): Promise<void>;
}

/** The in-memory store's default cap on configs. See docs/decisions.md (S5). */
export const DEFAULT_MAX_PUSH_CONFIGS = 10_000;
/** The in-memory store's default budget of estimated config bytes. See docs/decisions.md (S452). */
export const DEFAULT_MAX_PUSH_CONFIG_BYTES = 16 * 1024 * 1024;

export interface InMemoryPushNotificationConfigStoreOptions {
  /** Configs held at most, all scopes together (default 10,000). */
  maxConfigs?: number;
  /** Estimated bytes held at most, all scopes together (default 16 MiB). */
  maxBytes?: number;
  /** Configs one scope may hold (default `maxConfigs`). */
  maxConfigsPerScope?: number;
}

/** The in-memory store's record of a config. */
class PushConfigEntry implements StoredPushConfig, LruEntry<PushConfigEntry> {
  older: PushConfigEntry | undefined = undefined;
  newer: PushConfigEntry | undefined = undefined;
  constructor(
    readonly group: string,
    readonly key: string,
    public config: TaskPushNotificationConfig,
    readonly owner: string,
    public bytes: number,
  ) {}
}

/** A config's strings and a charge for the object around them. */
function configBytes(config: TaskPushNotificationConfig): number {
  const auth = config.authentication;
  return (
    OBJECT_BYTES +
    config.id.length +
    config.taskId.length +
    config.url.length +
    config.token.length +
    config.tenant.length +
    (auth ? auth.scheme.length + auth.credentials.length : 0)
  );
}

/**
 * LRU-by-write within a scope like the in-memory task store: `get` does not
 * refresh; past a bound the scope over its quota, or else the scope with the
 * largest share, gives up its least recently saved config; no TTL.
 */
export class InMemoryPushNotificationConfigStore implements PushNotificationConfigStore {
  readonly maxConfigs: number;
  /** Configs by (scope, task id and config id). */
  readonly #configs: LruMap<PushConfigEntry>;

  constructor(options: InMemoryPushNotificationConfigStoreOptions = {}) {
    const maxConfigs = options.maxConfigs ?? DEFAULT_MAX_PUSH_CONFIGS;
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_PUSH_CONFIG_BYTES;
    const maxConfigsPerScope = options.maxConfigsPerScope ?? maxConfigs;
    for (const [name, value] of Object.entries({ maxConfigs, maxBytes, maxConfigsPerScope })) {
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
    }
    this.maxConfigs = maxConfigs;
    this.#configs = new LruMap({
      maxEntries: maxConfigs,
      maxBytes,
      maxEntriesPerGroup: maxConfigsPerScope,
      maxBytesPerGroup: maxBytes,
    });
  }

  get size(): number {
    return this.#configs.size;
  }

  async get(taskId: string, configId: string, scope: string): Promise<StoredPushConfig | undefined> {
    return this.#configs.get(scope, configKey(taskId, configId));
  }

  async save(config: TaskPushNotificationConfig, scope: string, owner: string): Promise<void> {
    const key = configKey(config.taskId, config.id);
    const stored = this.#configs.touch(scope, key);
    if (!stored) {
      this.#configs.add(new PushConfigEntry(scope, key, config, owner, configBytes(config)));
      return;
    }
    stored.config = config;
    this.#configs.resize(stored, configBytes(config));
  }

  async list(taskId: string, scope: string, query: PushConfigQuery): Promise<PushConfigPage> {
    const after = query.after;
    const rest: StoredPushConfig[] = [];
    for (const stored of this.#configs.values(scope)) {
      const id = stored.config.id;
      if (stored.config.taskId === taskId && (after === undefined || id > after)) rest.push(stored);
    }
    rest.sort((a, b) => (a.config.id < b.config.id ? -1 : a.config.id > b.config.id ? 1 : 0));
    return { configs: rest.slice(0, query.pageSize), more: rest.length > query.pageSize };
  }

  async delete(taskId: string, configId: string, scope: string): Promise<void> {
    this.#configs.delete(scope, configKey(taskId, configId));
  }
}

/** Length-prefixed, so no (task id, config id) pair can spell another pair's key. */
function taskPrefix(taskId: string): string {
  return `${taskId.length}:${taskId}`;
}

function configKey(taskId: string, configId: string): string {
  return taskPrefix(taskId) + configId;
}
