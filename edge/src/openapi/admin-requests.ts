// Request bodies and parameters of the admin API for the OpenAPI document: the very zod schemas the
// admin routes parse (routes/admin-schemas.ts, plans/plans.ts, registry/token-schema.ts).
import {
  cancelSubmissionSchema, createKeySchema, createProjectSchema, createWebhookSchema, registerNodeSchema, rotateWebhookSchema, updateWebhookSchema,
} from "../routes/admin-schemas.ts";
import { planUpdateSchema } from "../plans/plan-caps.ts";
import { enrollmentTokenSchema } from "../registry/token-schema.ts";
import { requestComponents } from "./requests.ts";

requestComponents.add(createProjectSchema, { id: "CreateProjectRequest", description: "A new project; account_id defaults to a new account" });
requestComponents.add(createKeySchema, { id: "CreateKeyRequest", description: "A new key; `key` imports a chosen value (sk_live_ + 32 base62 characters; any " +
  "printable value in development)" });
requestComponents.add(planUpdateSchema, { id: "PlanUpdateRequest", description: "The fields to change, merged over the plan as it is (or the " +
  "default plan for a new one)" });
requestComponents.add(cancelSubmissionSchema, { id: "CancelSubmissionRequest", description: "Why (written into the record's error_message)" });
requestComponents.add(registerNodeSchema, { id: "RegisterNodeRequest", description: "A running fleet node by its gRPC-Web URL, and its fleet credential" });
requestComponents.add(enrollmentTokenSchema, {
  id: "EnrollmentTokenRequest",
  description: "ttl_secs default 3600 (0: never expires), max_uses default 1 (one node; a node back at the same address is not a new use), max_slots default " +
    "16, require_approval default false",
});
requestComponents.add(createWebhookSchema, { id: "CreateWebhookRequest", description: "An https endpoint; secret (whsec_ + base64 of 24-64 bytes) " +
  "defaults to a generated one" });
requestComponents.add(updateWebhookSchema, { id: "UpdateWebhookRequest", description: "The fields to change" });
requestComponents.add(rotateWebhookSchema, { id: "RotateWebhookRequest", description: "grace_seconds (default 86400): how long the " +
  "previous secrets keep signing" });

const id = (description: string) => ({ name: "id", in: "path", required: true, schema: { type: "string" }, description });

export const ADMIN_PARAMETERS = {
  ProjectId: id("The project's id (prj_…)"),
  KeyId: id("The key's id (key_…)"),
  NodeId: id("The node's id or name"),
  EnrollmentTokenId: id("The enrollment token's id"),
  PlanName: { name: "name", in: "path", required: true, schema: { type: "string" }, description: "The plan's name: 1-63 characters of a-z, 0-9, '_' and '-'" },
  WebhookId: { name: "wid", in: "path", required: true, schema: { type: "string" }, description: "The webhook endpoint's id (whk_…)" },
  DeliverySubmissionId: {
    name: "sub", in: "path", required: true, schema: { type: "string", format: "uuid" }, description: "The submission whose deliveries are asked for",
  },
  ProjectFilter: { name: "project", in: "query", required: false, schema: { type: "string" }, description: "Only this project's keys" },
};
