// The admin API's response schemas (admin-responses.ts) against the types the handlers answer with
// (compile time only, `tsc -p edge`: endpoints.ts needs the Worker's types, so this is not imported
// by the document, which `npm run openapi` builds under Node).
import type { z } from "zod";
import type { DeliveryLog } from "../contracts/webhook-delivery.ts";
import type { DrainResult, EnrollmentTokenView, FleetStatus, NodeView, PoolView } from "../contracts/fleet.ts";
import type { Plan } from "../plans/plan-caps.ts";
import type { publicEndpoint } from "../webhooks/endpoints.ts";
import type { deliveryLog, drainResult, enrollmentToken, fleetStatus, node, plan, webhookEndpoint } from "./admin-responses.ts";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const samePlan: Same<z.infer<typeof plan>, Plan> = true;
const sameNode: Same<z.infer<typeof node>, NodeView> = true;
const sameDrain: Same<z.infer<typeof drainResult>, DrainResult> = true;
const sameToken: Same<z.infer<typeof enrollmentToken>, EnrollmentTokenView> = true;
const sameFleet: Same<z.infer<typeof fleetStatus>, FleetStatus & { pools: PoolView[] }> = true;
const sameEndpoint: Same<z.infer<typeof webhookEndpoint>, ReturnType<typeof publicEndpoint>> = true;
const sameLog: Same<z.infer<typeof deliveryLog>, DeliveryLog> = true;
void [samePlan, sameNode, sameDrain, sameToken, sameFleet, sameEndpoint, sameLog];
