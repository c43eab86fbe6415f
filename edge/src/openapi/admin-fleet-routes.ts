// The admin API's fleet: nodes registered or enrolled, enrollment tokens, the fleet's status
// (routes/admin.ts) and the edge's request metrics (metrics/edge-metrics.ts), under the `admin` tag.
import type { z } from "zod";
import { registerNodeSchema } from "../routes/admin-schemas.ts";
import { enrollmentTokenSchema } from "../registry/token-schema.ts";
import "./admin-requests.ts";
import * as a from "./admin-responses.ts";
import { bodyErrors, failure, notFound } from "./admin-errors.ts";
import type { RouteDoc } from "./routes.ts";

const tag = "admin" as const;
const KIB64 = "64 KiB";

const nodeChange = (action: string, operationId: string, summary: string, description: string, schema: z.ZodType): RouteDoc => ({
  method: "post", path: `/admin/nodes/{id}/${action}`, operationId, tag, summary, description, parameters: ["NodeId"],
  responses: { 200: { description: "The node", schema }, ...notFound("node") },
});

const nodes: RouteDoc[] = [
  {
    method: "post", path: "/admin/nodes", operationId: "adminRegisterNode", tag, summary: "Register a node by its URL",
    description: "The edge calls the node's NodeInfo before it answers.", body: registerNodeSchema,
    responses: {
      201: { description: "The node", schema: a.node },
      ...bodyErrors(KIB64, "Invalid body, or a node URL that is not https (http only on loopback)"),
      502: failure("The node did not answer NodeInfo"),
    },
  },
  {
    method: "get", path: "/admin/nodes", operationId: "adminListNodes", tag, summary: "List nodes",
    responses: { 200: { description: "Every node with its health, slots and languages", schema: a.nodes } },
  },
  nodeChange("drain", "adminDrainNode", "Drain a node", "It takes no new work at once; its running and queued runs finish.", a.drainResult),
  nodeChange("approve", "adminApproveNode", "Approve a pending node", "A node enrolled with a require_approval token joins rotation.", a.node),
  nodeChange("revoke", "adminRevokeNode", "Revoke a node's credential", "It leaves rotation at once, its runs go to other nodes; it must " +
    "enroll again with a new token.", a.node),
  {
    method: "delete", path: "/admin/nodes/{id}", operationId: "adminRemoveNode", tag, summary: "Forget a node", parameters: ["NodeId"],
    responses: { 200: { description: "Removed", schema: a.deleted }, ...notFound("node") },
  },
];

const tokens: RouteDoc[] = [
  {
    method: "post", path: "/admin/enrollment-tokens", operationId: "adminCreateEnrollmentToken", tag, summary: "Create an enrollment token",
    description: "What a new node presents to join the fleet (POST /fleet/enroll). The plain token is in this answer only.",
    body: enrollmentTokenSchema,
    responses: { 201: { description: "The token, with its value (shown once)", schema: a.createdEnrollmentToken }, ...bodyErrors(KIB64) },
  },
  {
    method: "get", path: "/admin/enrollment-tokens", operationId: "adminListEnrollmentTokens", tag, summary: "List enrollment tokens",
    responses: { 200: { description: "Every token (never its value)", schema: a.enrollmentTokens } },
  },
  {
    method: "delete", path: "/admin/enrollment-tokens/{id}", operationId: "adminRevokeEnrollmentToken", tag, summary: "Revoke an enrollment token",
    parameters: ["EnrollmentTokenId"],
    responses: { 200: { description: "Revoked", schema: a.deleted }, ...notFound("enrollment token") },
  },
];

const status: RouteDoc[] = [
  {
    method: "get", path: "/admin/fleet", operationId: "adminFleet", tag, summary: "The fleet's status",
    responses: { 200: { description: "Ready nodes, run slots, queue, runtimes; the same per pool", schema: a.fleetStatus } },
  },
  {
    method: "get", path: "/admin/metrics", operationId: "adminMetrics", tag, summary: "The edge's request metrics (Prometheus)",
    description: "Requests, latency and 429/503 answers per route (HEAD answers the headers only).",
    responses: {
      200: { description: "Prometheus text", contentType: "text/plain", schema: a.metricsText },
      503: failure("The metrics store did not answer (with Retry-After), or the admin API is disabled (OPERATOR_TOKEN missing or too weak)"),
    },
  },
];

export const ADMIN_FLEET_ROUTES: RouteDoc[] = [...nodes, ...tokens, ...status];
