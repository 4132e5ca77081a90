/**
 * `SpecViolationError`: a request or a response of the local platform that
 * does not match the repository's OpenAPI spec of its service. A request
 * violation is the caller's mistake (answered 400); a response violation is
 * the emulator's own bug (answered 500), so the emulator and the specs
 * cannot drift apart unnoticed. Either way it names the operation.
 */
export type SpecViolationDirection = "request" | "response" | "event";

export class SpecViolationError extends Error {
  override readonly name = "SpecViolationError";
  /** The spec file under `openapi/`, without `.yaml`. */
  readonly spec: string;
  /** The operation (`operationId`), or `METHOD /path` when no operation matched. */
  readonly operationId: string;
  readonly direction: SpecViolationDirection;
  /** One line per failed check: where, and what is wrong. */
  readonly violations: readonly string[];

  constructor(spec: string, operationId: string, direction: SpecViolationDirection, violations: readonly string[]) {
    super(`${operationId} ${direction} does not match openapi/${spec}.yaml: ${violations.join("; ")}`);
    this.spec = spec;
    this.operationId = operationId;
    this.direction = direction;
    this.violations = violations;
  }
}
