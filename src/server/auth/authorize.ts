/**
 * Who may act on a task. The rule is that a caller reaches its own tasks
 * only: a task records the principal of the caller that created it, another
 * caller's task answers exactly as an unknown one (-32001, so ids cannot be
 * probed), and ListTasks lists the caller's own. An agent widens the rule
 * with an `authorize` hook (tenant admins, support staff), asked only where
 * the rule says no:
 *
 * - with another owner's task, by the method that names it (a follow-up or a
 *   reference names it for `SendMessage`): true lets the caller act on it;
 * - by `ListTasks`, without a task: true lists every owner's tasks of the
 *   caller's partition (tenant), false the caller's own.
 *
 * To refuse a caller outright (403), its authentication throws
 * `PermissionDeniedError`.
 */
import type { A2AMethodName } from "../../a2a/bindings.js";
import type { StoredTask } from "../task-store.js";
import type { CallerIdentity } from "./caller-identity.js";

export type AuthorizeHook = (
  identity: CallerIdentity,
  action: A2AMethodName,
  task: StoredTask | undefined,
) => boolean | Promise<boolean>;
