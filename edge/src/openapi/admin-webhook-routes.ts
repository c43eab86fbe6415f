// The admin API's project webhook endpoints (routes/admin-webhooks.ts), under the `admin` tag.
// Secrets are in the answers of create and rotate only.
import { createWebhookSchema, rotateWebhookSchema, updateWebhookSchema } from "../routes/admin-schemas.ts";
import "./admin-requests.ts";
import * as a from "./admin-responses.ts";
import { bodyErrors, failure, notFound } from "./admin-errors.ts";
import type { RouteDoc } from "./routes.ts";

const tag = "admin" as const;
const BASE = "/admin/projects/{id}/webhooks";
const KIB16 = "16 KiB";
const ENDPOINT = ["ProjectId", "WebhookId"];
const misconfigured = { 500: failure("The edge's webhook configuration is invalid (WEBHOOK_* vars)") };
const noEndpoint = notFound("project or webhook endpoint");
const INVALID_URL = "Invalid body, or a URL the webhook rules refuse (https, public address; docs/webhooks.md)";

const deliveries = (path: string, operationId: string, parameters: string[]): RouteDoc => ({
  method: "get", path, operationId, tag, summary: "A submission's delivery log", parameters,
  description: "Every attempt per endpoint: time, status, latency, outcome, error.",
  responses: {
    200: { description: "The log", schema: a.deliveryLog },
    400: failure("The submission id is not a UUID"),
    404: failure("No such project or endpoint, or no deliveries for this submission (none was due, it has not ended, or its log expired)"),
  },
});

export const ADMIN_WEBHOOK_ROUTES: RouteDoc[] = [
  {
    method: "post", path: BASE, operationId: "adminCreateWebhook", tag, summary: "Add a webhook endpoint to a project",
    description: "The signing secret is in this answer only.", parameters: ["ProjectId"], body: createWebhookSchema,
    responses: {
      201: { description: "The endpoint, with its signing secret (shown once)", schema: a.createdWebhookEndpoint },
      ...bodyErrors(KIB16, `${INVALID_URL}, or an invalid secret`),
      ...notFound("project"),
      409: failure("The project has its most endpoints already (20)"),
      ...misconfigured,
    },
  },
  {
    method: "get", path: BASE, operationId: "adminListWebhooks", tag, summary: "List a project's webhook endpoints", parameters: ["ProjectId"],
    responses: { 200: { description: "The endpoints (never their secrets)", schema: a.webhookEndpoints }, ...notFound("project") },
  },
  deliveries(`${BASE}/deliveries/{sub}`, "adminWebhookDeliveries", ["ProjectId", "DeliverySubmissionId"]),
  {
    method: "get", path: `${BASE}/{wid}`, operationId: "adminShowWebhook", tag, summary: "Show a webhook endpoint", parameters: ENDPOINT,
    responses: { 200: { description: "The endpoint (never its secrets)", schema: a.webhookEndpoint }, ...noEndpoint },
  },
  {
    method: "patch", path: `${BASE}/{wid}`, operationId: "adminUpdateWebhook", tag, summary: "Change a webhook endpoint",
    description: "active: false pauses deliveries, true resumes them.", parameters: ENDPOINT, body: updateWebhookSchema, bodyOptional: true,
    responses: { 200: { description: "The endpoint", schema: a.webhookEndpoint }, ...bodyErrors(KIB16, INVALID_URL), ...noEndpoint, ...misconfigured },
  },
  {
    method: "delete", path: `${BASE}/{wid}`, operationId: "adminRemoveWebhook", tag, summary: "Remove a webhook endpoint", parameters: ENDPOINT,
    responses: { 200: { description: "Removed", schema: a.deleted }, ...noEndpoint },
  },
  {
    method: "post", path: `${BASE}/{wid}/rotate`, operationId: "adminRotateWebhook", tag, summary: "Give an endpoint a new signing secret",
    description: "The previous secrets keep signing until the grace period ends (deliveries carry every signature meanwhile).",
    parameters: ENDPOINT, body: rotateWebhookSchema, bodyOptional: true,
    responses: {
      200: { description: "The endpoint, with its new secret (shown once)", schema: a.rotatedWebhookEndpoint },
      ...bodyErrors(KIB16, "Invalid body or secret"),
      ...noEndpoint,
    },
  },
  {
    method: "post", path: `${BASE}/{wid}/test`, operationId: "adminTestWebhook", tag, summary: "Send one signed test delivery",
    description: "Answered with the receiver's status; a failed delivery is still a 200 (delivered: false).", parameters: ENDPOINT,
    responses: {
      200: { description: "The outcome", schema: a.webhookTest },
      400: failure("The endpoint's URL is refused by the webhook rules now"),
      ...noEndpoint,
      ...misconfigured,
    },
  },
  deliveries(`${BASE}/{wid}/deliveries/{sub}`, "adminWebhookEndpointDeliveries", ["ProjectId", "WebhookId", "DeliverySubmissionId"]),
];
