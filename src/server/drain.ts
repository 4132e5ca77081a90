/**
 * The deadline arithmetic of a drain (`AgentServer.close({ drainMs })`),
 * shared by the HTTP drain (src/node/http-drain.ts) and the gRPC server's.
 */
/** How long, after a drain's deadline, the answers it forced (FAILED tasks) get to go out before what is left is cut. */
export const DRAIN_GRACE_MS = 1000;

/** True when `promise` settles within `ms`, false at the deadline. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
