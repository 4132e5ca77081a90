/**
 * `configureOtel`: one call at start-up that exports the SDK's spans (and the
 * application's) to an OpenTelemetry collector over OTLP/HTTP. It registers
 * a global tracer provider with a batching OTLP exporter, the W3C trace
 * context and baggage propagators, and an AsyncLocalStorage context manager
 * (so the active span follows `await`), and flushes the spans when the
 * process drains (`beforeExit`).
 *
 * The OpenTelemetry SDK is an optional peer of this package: install
 * `@opentelemetry/sdk-trace`, `@opentelemetry/exporter-trace-otlp-http`,
 * `@opentelemetry/resources`, `@opentelemetry/core` and
 * `@opentelemetry/context-async-hooks` (version 3) to use it. Without them it
 * (or without `@opentelemetry/api` itself) it resolves false and changes nothing; every tracing helper works either way
 * (no-op spans), and with any SDK an application registers itself.
 */
import { otel, otelLoaded } from "./otel.js";
import { processEnv } from "./process-env.js";

export interface OtelOptions {
  /** The collector's base URL (`http://otel-collector:4318`); spans go to `<endpoint>/v1/traces`. Default: `OTEL_EXPORTER_OTLP_ENDPOINT`, else the exporter's default (`http://localhost:4318`). */
  endpoint?: string;
  /** `service.name` of every span. Default: `OTEL_SERVICE_NAME`, else OpenTelemetry's `unknown_service:<process>`. */
  serviceName?: string;
  /** Headers for the collector (authentication). Default: `OTEL_EXPORTER_OTLP_HEADERS` (`k=v,k2=v2`), read by the exporter. */
  headers?: Record<string, string>;
  /** Where the `OTEL_*` defaults are read from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

async function loadSdk() {
  const [sdk, exporter, resources, core, asyncHooks] = await Promise.all([
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/core"),
    import("@opentelemetry/context-async-hooks"),
  ]);
  return { sdk, exporter, resources, core, asyncHooks };
}

/**
 * Registers the OTLP/HTTP trace pipeline as the global tracer provider.
 * Resolves true when it did; false when the OpenTelemetry SDK packages are
 * not installed or a tracer provider is already registered (nothing changes).
 */
export async function configureOtel(options: OtelOptions = {}): Promise<boolean> {
  await otelLoaded;
  const api = otel();
  if (!api) return false;
  const { context, propagation, trace } = api;
  let loaded: Awaited<ReturnType<typeof loadSdk>>;
  try {
    loaded = await loadSdk();
  } catch {
    return false;
  }
  const { sdk, exporter, resources, core, asyncHooks } = loaded;
  const env = options.env ?? processEnv();
  const endpoint = options.endpoint ?? env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const serviceName = options.serviceName ?? env.OTEL_SERVICE_NAME;
  const provider = new sdk.TracerProvider({
    resource: serviceName
      ? resources.defaultResource().merge(resources.resourceFromAttributes({ "service.name": serviceName }))
      : resources.defaultResource(),
    spanProcessors: [
      new sdk.BatchSpanProcessor({
        exporter: new exporter.OTLPTraceExporter({
          ...(endpoint ? { url: `${endpoint.replace(/\/+$/, "")}/v1/traces` } : {}),
          ...(options.headers ? { headers: options.headers } : {}),
        }),
      }),
    ],
  });
  if (!trace.setGlobalTracerProvider(provider)) {
    await provider.shutdown();
    return false;
  }
  context.setGlobalContextManager(new asyncHooks.AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new core.CompositePropagator({
      propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()],
    }),
  );
  process.once("beforeExit", () => void provider.shutdown());
  return true;
}
