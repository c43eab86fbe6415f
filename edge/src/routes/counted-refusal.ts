// The answer to a route an authenticated caller got wrong (a path that does not exist, a method the
// path does not take): counted against the key's rate limit like every request, then refused.
import type { IRequest } from "itty-router";
import type { Env } from "../env.ts";
import { HttpError } from "../lib/http.ts";
import { countRequest, rateHeaders, type ApiContext } from "../submit/api-context.ts";

export function countedRefusal(status: number, body: Record<string, unknown>) {
  return async (_r: IRequest, env: Env, _ctx: ExecutionContext, api: ApiContext): Promise<Response> => {
    await countRequest(env, api);
    throw new HttpError(status, body, rateHeaders(api.rate));
  };
}
