/**
 * `@opentelemetry/api`, an optional peer dependency: loaded once, in the
 * background, when this module is first imported. Until it has loaded, and
 * for good where it is not installed (or the runtime cannot load it), every
 * tracing helper of the SDK is a no-op: no span, no propagated context, no
 * error. `configureOtel()` waits for it; a request served or a call made
 * after start-up finds it loaded.
 *
 * The specifier is not a literal so that bundlers leave the import to run
 * time rather than fail on a package the application did not install.
 */
import type * as OtelApi from "@opentelemetry/api";

export type Otel = typeof OtelApi;

const OTEL_API = "@opentelemetry/api";

let api: Otel | undefined;

/** Settles once `@opentelemetry/api` has loaded, or turned out to be missing. */
export const otelLoaded: Promise<void> = import(/* @vite-ignore */ OTEL_API).then(
  (module: Otel) => {
    api = module;
  },
  () => undefined,
);

/** The OpenTelemetry API when it is installed and loaded, else undefined (tracing is then a no-op). */
export function otel(): Otel | undefined {
  return api;
}
