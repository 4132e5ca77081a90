/**
 * Test support: a webhook on a real socket (127.0.0.1:0) that records every
 * POST it receives and answers with the status a test queues (200 when none
 * is queued). A test may hold answers back (`hold()`) to keep deliveries in
 * flight, and awaits deliveries as events (`nextDelivery()`), never by time.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Delivery {
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: wire JSON is inspected freely.
  readonly body: any;
}

export interface WebhookReceiver {
  readonly url: string;
  readonly deliveries: Delivery[];
  /** Statuses answered next, in order; 200 once they run out. */
  readonly statuses: number[];
  /** The delivery after the ones already taken by earlier calls. */
  nextDelivery(): Promise<Delivery>;
  /** Holds every answer until the returned function is called. */
  hold(): () => void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  const statuses: number[] = [];
  const waiting: ((delivery: Delivery) => void)[] = [];
  let taken = 0;
  let held: Promise<void> | undefined;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const delivery = { path: req.url ?? "", headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString()) };
    deliveries.push(delivery);
    if (waiting.length > 0) {
      taken++;
      (waiting.shift() as (delivery: Delivery) => void)(delivery);
    }
    await held;
    res.statusCode = statuses.shift() ?? 200;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    deliveries,
    statuses,
    nextDelivery() {
      const ready = deliveries[taken];
      if (ready) {
        taken++;
        return Promise.resolve(ready);
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    hold() {
      let release!: () => void;
      held = new Promise((resolve) => {
        release = resolve;
      });
      return () => {
        held = undefined;
        release();
      };
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** What a delivered StreamResponse says, in one line: `status <state>` or `artifact <first text>`. */
// biome-ignore lint/suspicious/noExplicitAny: wire JSON is inspected freely.
export function describeFrame(body: any): string {
  if (body.statusUpdate) return `status ${body.statusUpdate.status.state}`;
  if (body.artifactUpdate) return `artifact ${body.artifactUpdate.artifact.parts[0].text}`;
  if (body.task) return `task ${body.task.status.state}`;
  return "message";
}
