/** The slice of autocannon 9's API the bench uses (the package ships no types). */
declare module "autocannon" {
  interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    /** Requests to make in all; when set, `duration` is ignored. */
    amount?: number;
    /** Seconds a request may take before it counts as a timeout. Default 10. */
    timeout?: number;
  }
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p99: number;
    total: number;
  }
  interface Result {
    /** Requests per second, sampled each second. */
    requests: Histogram;
    /** Whole milliseconds: too coarse below ~1 ms (bench/support/load.ts times each response itself). */
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    /** Seconds. */
    duration: number;
  }
  /** The running load: a thenable of its result that also emits an event per response (latency in ms). */
  interface Instance extends PromiseLike<Result> {
    on(
      event: "response",
      listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void,
    ): this;
  }
  function autocannon(options: Options): Instance;
  export default autocannon;
}
