/**
 * `npx tsx bench/list-tasks-in-process.ts [tasks]`: what one ListTasks page
 * costs in process, without HTTP: the store's `list`, the handler's
 * `listTasks` (the store page and the response message), and that with the
 * JSON encoding, over the store of bench/support/list-tasks-store.ts (default
 * 100,000 tasks), the default request (no filter, 50 per page). Prints CPU µs
 * (user + system) per call over 1,000 calls, after 200 to warm up.
 */
import { create } from "@bufbuild/protobuf";
import { ListTasksRequestSchema, ListTasksResponseSchema } from "../gen/a2a_pb.js";
import { encodeMessageText } from "../src/a2a/protojson.js";
import { listTasks, taskQueryOf } from "../src/server/list-tasks.js";
import { LiveTasks } from "../src/server/live-task.js";
import { filledTaskStore, LIST_SCOPE } from "./support/list-tasks-store.js";

const count = Number(process.argv[2] ?? 100_000);
const store = await filledTaskStore(count);
const live = new LiveTasks();
const request = create(ListTasksRequestSchema, {});

async function time(label: string, call: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 200; i++) await call();
  const started = process.cpuUsage();
  for (let i = 0; i < 1000; i++) await call();
  const used = process.cpuUsage(started);
  console.log(
    `${label} at ${count.toLocaleString("en")} tasks: ${((used.user + used.system) / 1000).toFixed(1)} CPU µs per call`,
  );
}

const query = taskQueryOf(request, "");
await time("store.list", () => store.list(LIST_SCOPE, query));
await time("listTasks", () => listTasks(store, live, LIST_SCOPE, "", request));
await time("listTasks + JSON", async () =>
  encodeMessageText(ListTasksResponseSchema, await listTasks(store, live, LIST_SCOPE, "", request)),
);
