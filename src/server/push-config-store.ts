/**
 * Where push-notification registrations live (the Create / Get / List /
 * Delete TaskPushNotificationConfig quartet). Supplying a store to the
 * AgentBuilder is what turns the four methods on; without one they all answer
 * -32003. Configs are keyed by (scope, task id, config id).
 */
import type { TaskPushNotificationConfig } from "../../gen/a2a_pb.js";
import { LruMap } from "./lru-map.js";

export interface PushNotificationConfigStore {
  get(taskId: string, configId: string, scope: string): Promise<TaskPushNotificationConfig | undefined>;
  /** Inserts or replaces the config with this (task id, id); both are set by the harness. */
  save(config: TaskPushNotificationConfig, scope: string): Promise<void>;
  /** The task's configs in a stable order (the harness pages over it). */
  list(taskId: string, scope: string): Promise<TaskPushNotificationConfig[]>;
  /** A missing config is not an error (Delete is idempotent, spec §3.1.10). */
  delete(taskId: string, configId: string, scope: string): Promise<void>;
}

/** The in-memory store's default cap. See docs/decisions.md. */
export const DEFAULT_MAX_PUSH_CONFIGS = 10_000;

/** LRU-by-write like the in-memory task store: `get` does not refresh; no TTL. */
export class InMemoryPushNotificationConfigStore implements PushNotificationConfigStore {
  readonly maxConfigs: number;
  readonly #configs: LruMap<string, TaskPushNotificationConfig>;

  constructor(options: { maxConfigs?: number } = {}) {
    const maxConfigs = options.maxConfigs ?? DEFAULT_MAX_PUSH_CONFIGS;
    if (!Number.isInteger(maxConfigs) || maxConfigs < 1) throw new RangeError("maxConfigs must be a positive integer");
    this.maxConfigs = maxConfigs;
    this.#configs = new LruMap(maxConfigs);
  }

  get size(): number {
    return this.#configs.size;
  }

  async get(taskId: string, configId: string, scope: string): Promise<TaskPushNotificationConfig | undefined> {
    return this.#configs.get(configKey(taskId, configId, scope));
  }

  async save(config: TaskPushNotificationConfig, scope: string): Promise<void> {
    this.#configs.set(configKey(config.taskId, config.id, scope), config);
  }

  async list(taskId: string, scope: string): Promise<TaskPushNotificationConfig[]> {
    const prefix = taskPrefix(taskId, scope);
    const out: TaskPushNotificationConfig[] = [];
    for (const [k, config] of this.#configs.entries()) if (k.startsWith(prefix)) out.push(config);
    return out;
  }

  async delete(taskId: string, configId: string, scope: string): Promise<void> {
    this.#configs.delete(configKey(taskId, configId, scope));
  }
}

/** Length-prefixed parts, so no triple can spell another triple's key. */
function taskPrefix(taskId: string, scope: string): string {
  return `${scope.length}:${scope}${taskId.length}:${taskId}`;
}

function configKey(taskId: string, configId: string, scope: string): string {
  return taskPrefix(taskId, scope) + configId;
}
