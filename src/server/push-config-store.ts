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
  /** Configs by (scope, task id and config id). */
  readonly #configs: LruMap<TaskPushNotificationConfig>;

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
    return this.#configs.get(scope, configKey(taskId, configId));
  }

  async save(config: TaskPushNotificationConfig, scope: string): Promise<void> {
    this.#configs.set(scope, configKey(config.taskId, config.id), config);
  }

  async list(taskId: string, scope: string): Promise<TaskPushNotificationConfig[]> {
    const prefix = taskPrefix(taskId);
    const out: TaskPushNotificationConfig[] = [];
    for (const [group, k, config] of this.#configs.entries())
      if (group === scope && k.startsWith(prefix)) out.push(config);
    return out;
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
