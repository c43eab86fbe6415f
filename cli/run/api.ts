// The SDK client `codecell run` uses: base URL and API key from --url/--key, the environment or the
// local stack's state file; the local stack's self-signed certificate trusted as the operator
// commands trust it (by fetch and by a live session's WebSocket); and the SDK's errors turned into
// CliErrors with run's exit statuses.
import { Agent, WebSocket as UndiciWebSocket, fetch as undiciFetch } from "undici";
import {
  AuthenticationError, Codecell, ConnectionError, InvalidRequestError, NotFoundError, RetryableError, ApiError, SessionError,
} from "../../client/src/index.ts";
import type { WebSocketFactory } from "../../client/src/index.ts";
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
    ? ((input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) =>
      undiciFetch(input, { ...init, dispatcher })) as unknown as typeof globalThis.fetch
    : undefined;
  const webSocket: WebSocketFactory | undefined = dispatcher
    ? (url, headers) => new UndiciWebSocket(url, { headers, dispatcher }) as unknown as WebSocket
    : undefined;
  return {
    api: new Codecell({ baseUrl, apiKey: key, fetch, webSocket }),
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
  if (error instanceof SessionError) return new CliError(error.message, sessionExit(error.code));
  if (error instanceof ConnectionError) return new CliError(`cannot reach ${baseUrl}: ${causeOf(error)}`, RUN_EXIT.unavailable);
  return error;
}

/** A live session's close code (docs/live-sessions.md) as run's exit status. */
function sessionExit(code: number): number {
  if (code === 4401 || code === 4403) return RUN_EXIT.unauthorized;
  if ([4400, 4404, 4409, 4411, 4413].includes(code)) return RUN_EXIT.refused;
  return RUN_EXIT.unavailable;
}

function causeOf(error: Error): string {
  const cause = error.cause as { cause?: { message?: string }; message?: string } | undefined;
  return cause?.cause?.message ?? cause?.message ?? error.message;
}
