// A minimal webhook receiver for trying codecell locally (docs/webhooks.md):
//
//   CODECELL_WEBHOOK_SECRET=whsec_… node_modules/.bin/node client/receiver-example.ts   # listens on 127.0.0.1:9000
//
// It verifies each delivery with client/src/verify-webhook.ts (signature, ±5 min clock skew), answers 2xx
// quickly, ignores repeats by webhook-id, and prints the result. PORT changes the port.
import http from "node:http";
import { RecentIds, WebhookVerificationError, verifyWebhook } from "./src/verify-webhook.ts";

const secrets = (process.env.CODECELL_WEBHOOK_SECRET ?? "").split(/[ ,]+/).filter(Boolean);
if (secrets.length === 0) {
  console.error("set CODECELL_WEBHOOK_SECRET to the endpoint's whsec_… secret (several, space-separated, during a rotation)");
  process.exit(1);
}
const port = Number(process.env.PORT ?? 9000);
const seen = new RecentIds();

http
  .createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks); // the raw bytes: verify before parsing
      try {
        const record = await verifyWebhook(secrets, body, req.headers);
        const id = String(req.headers["webhook-id"]);
        if (seen.seen(id)) {
          console.log(`duplicate delivery ${id}: ignored`);
        } else {
          console.log(`verified ${id}: ${record.job_status} ${record.verdict ?? ""} stdout=${JSON.stringify(record.stdout)}`);
        }
        res.writeHead(204).end();
      } catch (e) {
        const msg = e instanceof WebhookVerificationError ? e.message : "bad request";
        console.log(`rejected delivery: ${msg}`);
        res.writeHead(400).end(); // 4xx: codecell does not retry
      }
    });
  })
  .listen(port, "127.0.0.1", () => console.log(`receiver listening on http://127.0.0.1:${port}/`));
