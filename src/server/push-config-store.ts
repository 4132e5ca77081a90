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

/** The in-memory store's default cap. See docs/decisions.md. */
export const DEFAULT_MAX_PUSH_CONFIGS = 10_000;

/** The in-memory store's record of a config. */
class PushConfigEntry implements StoredPushConfig, LruEntry<PushConfigEntry> {
  older: PushConfigEntry | undefined = undefined;
  newer: PushConfigEntry | undefined = undefined;
  constructor(
    readonly group: string,
    readonly key: string,
    public config: TaskPushNotificationConfig,
    readonly owner: string,
  ) {}
}

/** LRU-by-write like the in-memory task store: `get` does not refresh; no TTL. */
export class InMemoryPushNotificationConfigStore implements PushNotificationConfigStore {
  readonly maxConfigs: number;
  /** Configs by (scope, task id and config id). */
  readonly #configs: LruMap<PushConfigEntry>;

  constructor(options: { maxConfigs?: number } = {}) {
    const maxConfigs = options.maxConfigs ?? DEFAULT_MAX_PUSH_CONFIGS;
    if (!Number.isInteger(maxConfigs) || maxConfigs < 1) throw new RangeError("maxConfigs must be a positive integer");
    this.maxConfigs = maxConfigs;
    this.#configs = new LruMap(maxConfigs);
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
    if (stored) stored.config = config;
    else this.#configs.add(new PushConfigEntry(scope, key, config, owner));
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
