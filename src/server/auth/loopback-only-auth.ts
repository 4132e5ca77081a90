/**
 * What an agent built without an `auth` mode does: it authenticates nobody,
 * so it answers callers on its own machine only (see loopback.ts), and
 * believes the NovaOS pod headers they send, as it would behind the NovaOS
 * auth-proxy. A local run then partitions and owns tasks as a pod does.
 */
import { PermissionDeniedError } from "../../a2a/errors.js";
import type { Authenticator, AuthRequest } from "./authenticator.js";
import { ANONYMOUS_CALLER, CallerIdentity } from "./caller-identity.js";
import { CHOOSE_AN_AUTH_MODE, isLoopbackAddress } from "./loopback.js";
import { podHeaderCaller } from "./pod-headers.js";

export class LoopbackOnlyAuthenticator implements Authenticator {
  readonly securitySchemes = {};
  readonly securityRequirements = [];
  readonly challenge = "";

  authenticate(request: AuthRequest): CallerIdentity {
    if (!isLoopbackAddress(request.remoteAddress)) {
      const where =
        request.remoteAddress === undefined ? "cannot tell where this call comes from" : "this call does not";
      throw new PermissionDeniedError(
        `This agent has no authentication configured, so it answers callers on its own machine only, and ${where}; its operator must ${CHOOSE_AN_AUTH_MODE}`,
      );
    }
    const caller = podHeaderCaller(request.headers);
    return caller ? new CallerIdentity("", caller) : ANONYMOUS_CALLER;
  }
}
