// The SDK client `codecell run` uses: base URL and API key from --url/--key, the environment or the
// local stack's state file; the local stack's self-signed certificate trusted as the operator
// commands trust it; and the SDK's errors turned into CliErrors with run's exit statuses.
import { Agent, fetch as undiciFetch } from "undici";
import { AuthenticationError, Codecell, ConnectionError, InvalidRequestError, NotFoundError, RetryableError, ApiError } from "../../client/src/index.ts";
import { CliError } from "../admin-client.ts";
import { apiKey, edgeUrl, isLoopback, localStack } from "../local-stack.ts";
import { RUN_EXIT } from "./verdict.ts";

export interface ApiOptions {
  url?: string;
  key?: string;
  insecure?: boolean;
}

export interface RunApi {
  api: Codecell;
  baseUrl: string;
  /** Closes the connections kept open, so the process can end. */
  close(): Promise<void>;
}

export function runApi(options: ApiOptions): RunApi {
  const local = localStack();
  const key = apiKey(options.key, process.env, local);
  if (!key) throw new CliError("no API key: pass --key or set CODECELL_API_KEY (or start the local stack with npm start)", RUN_EXIT.unauthorized);
  const baseUrl = edgeUrl(options.url, process.env, local);
  const dispatcher = options.insecure || (isLoopback(baseUrl) && local) ? new Agent({ connect: { rejectUnauthorized: false } }) : undefined;
  const fetch = dispatcher
    ? ((input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) => undiciFetch(input, { ...init, dispatcher })) as unknown as typeof globalThis.fetch
    : undefined;
  return {
    api: new Codecell({ baseUrl, apiKey: key, fetch }),
    baseUrl,
    close: async () => void (await dispatcher?.close()),
  };
}

/** An SDK failure as a CliError: refused requests, authentication, and an unreachable or failing edge. */
export function asCliError(error: unknown, baseUrl: string): unknown {
  if (error instanceof AuthenticationError) return new CliError(`not authenticated: ${error.message}`, RUN_EXIT.unauthorized);
  if (error instanceof RetryableError) return new CliError(`the edge is busy: ${error.message}`, RUN_EXIT.unavailable);
  if (error instanceof InvalidRequestError || error instanceof NotFoundError) return new CliError(`request refused: ${error.message}`, RUN_EXIT.refused);
  if (error instanceof ApiError) return new CliError(`request failed: ${error.message}`, error.status >= 500 ? RUN_EXIT.unavailable : RUN_EXIT.refused);
  if (error instanceof ConnectionError) return new CliError(`cannot reach ${baseUrl}: ${causeOf(error)}`, RUN_EXIT.unavailable);
  return error;
}

function causeOf(error: Error): string {
  const cause = error.cause as { cause?: { message?: string }; message?: string } | undefined;
  return cause?.cause?.message ?? cause?.message ?? error.message;
}
