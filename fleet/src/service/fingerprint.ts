// Digest of what a request asks to run: a retried Execute with the same submission id must ask
// for exactly the same thing (every field that changes the run or its events), else it is refused.
import { createHash } from "node:crypto";
import { ExecuteRequest } from "../../../proto/gen/codecell/fleet/v1/fleet.ts";

/** The request's bytes without the fields that do not change the run (id, tenant, detach), language canonical. */
export function fingerprint(request: ExecuteRequest, canonicalLanguage: string): string {
  const normalised: ExecuteRequest = { ...request, submissionId: "", tenantId: "", detachOnDisconnect: false, language: canonicalLanguage };
  return createHash("sha256").update(ExecuteRequest.encode(normalised).finish()).digest("base64url");
}
