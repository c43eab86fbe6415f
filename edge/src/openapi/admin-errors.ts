// The error answers the admin routes share, for the route tables (admin-*-routes.ts).
import { errorBody } from "./schemas.ts";
import type { ResponseDoc } from "./routes.ts";

export const failure = (description: string): ResponseDoc => ({ description, schema: errorBody });

/** What reading and parsing a JSON body can answer (lib/http.ts readJsonObject, submit/validate.ts parseWith). */
export function bodyErrors(limit: string, invalid = "Invalid body: not a JSON object, or a field refused (the message names it)") {
  return {
    400: failure(invalid),
    413: failure(`Body larger than ${limit}`),
    415: failure("Body is not UTF-8 JSON (content-type: application/json)"),
  };
}

export const notFound = (what: string) => ({ 404: failure(`No such ${what}`) });
