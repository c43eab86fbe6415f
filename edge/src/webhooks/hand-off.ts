// When a submission ends (docs/webhooks.md): if its project had active endpoints at that moment, hand the record
// (exact bytes) to the submission's WebhookDeliveryDO, which owns attempts, retries and the log.
import type { ResultRecord } from "../../../proto/record.ts";
import type { Env } from "../env.ts";
import { webhookDelivery } from "../stubs.ts";
import { activeAt, handOffEndpoints } from "./endpoints.ts";

/** True once handed off (or nothing to hand off); false when it failed and should be retried. */
export async function handOffToWebhooks(
  env: Env, sub: { id: string; project_id: string }, record: () => ResultRecord | null, endedMs: number,
): Promise<boolean> {
  try {
    // The targets: the endpoints active since before the submission ended, whenever this runs.
    const eps = (await handOffEndpoints(env.KEYS, sub.project_id)).filter((e) => activeAt(e, endedMs));
    const rec = record();
    if (rec && eps.length > 0) {
      await webhookDelivery(env, sub.id).enqueue({
        submission_id: sub.id, project_id: sub.project_id, endpoint_ids: eps.map((e) => e.id), body: JSON.stringify(rec),
      });
    }
    return true;
  } catch (e) {
    console.warn("webhook hand-off failed; retrying", sub.id, e instanceof Error ? e.message : String(e));
    return false;
  }
}
