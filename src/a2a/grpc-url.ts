/**
 * gRPC interface URLs come in three forms: an http(s) URL, a `grpc://` or
 * `grpcs://` URL, or a bare `host:port` target (what grpc-js and grpcio take,
 * and what cards list for them, decision B17). A client's transport dials an
 * http(s) URL: `grpcs://` and `https://` are TLS; `grpc://` and a bare target
 * are cleartext HTTP/2, as the peers' gRPC clients dial a bare target with
 * their default (insecure) channel credentials. A server names its gRPC
 * interface as the bare target, whichever form it was configured with.
 */

const WITH_SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/** True for a URL only gRPC can mean: `grpc://`, `grpcs://` or a bare `host:port`. */
export function isGrpcOnlyUrl(url: string): boolean {
  const scheme = WITH_SCHEME.exec(url.trim())?.[1]?.toLowerCase();
  return scheme === undefined || scheme === "grpc" || scheme === "grpcs";
}

/** The http(s) URL the gRPC transport dials for `url`. */
export function grpcDialUrl(url: string): string {
  const trimmed = url.trim();
  const scheme = WITH_SCHEME.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme === undefined) return `http://${trimmed}`;
  if (scheme === "grpc") return `http://${trimmed.slice("grpc://".length)}`;
  if (scheme === "grpcs") return `https://${trimmed.slice("grpcs://".length)}`;
  return trimmed;
}

/**
 * The bare `host:port` target of a gRPC URL in any of the three forms (the
 * form a card lists, B17); a URL without a port takes its scheme's (443 for
 * TLS, 80 otherwise). Throws a RangeError for a URL with a path, credentials,
 * a query or no host.
 */
export function grpcTarget(url: string): string {
  const dial = grpcDialUrl(url);
  const parsed = URL.canParse(dial) ? new URL(dial) : undefined;
  if (
    !parsed ||
    parsed.hostname === "" ||
    parsed.username !== "" ||
    parsed.password !== "" ||
    parsed.pathname !== "/" ||
    parsed.search !== "" ||
    parsed.hash !== ""
  ) {
    throw new RangeError(`${JSON.stringify(url)} is not a gRPC address (host:port, or a URL with no path)`);
  }
  const port = parsed.port || (parsed.protocol === "https:" ? "443" : "80");
  return `${parsed.hostname}:${port}`;
}
