// The admin API client shared by every command: base URL and operator token resolution,
// JSON requests typed by the `admin` operations of the OpenAPI document (admin-api.gen.ts, made
// by `npm run openapi`), and HTTP failures turned into CliErrors with distinct exit codes.
import type { Command } from "commander";
import { Agent, fetch } from "undici";
import type { components, paths } from "./admin-api.gen.ts";
import { edgeUrl, isLoopback, localStack, operatorToken } from "./local-stack.ts";

/** The admin API's bodies by component name, e.g. Schemas["Plan"]. */
export type Schemas = components["schemas"];

type Method = "get" | "post" | "put" | "patch" | "delete";
type JsonOf<T> = T extends { content: { "application/json": infer B } } ? B : never;
/** The JSON of an operation's success answer (200 or 201). */
type Answer<O> = O extends { responses: infer R } ? JsonOf<R[Extract<keyof R, 200 | 201>]> : never;
/** An operation's JSON request body; never when it takes none. */
type Body<O> = O extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;
/** The values of an operation's path parameters by name: required when its path has any. */
type PathParams<O> = O extends { parameters: { path: infer A } } ? { params: { [K in keyof A]: string } } : { params?: never };

export type Call<O> = PathParams<O> & { query?: Record<string, string | undefined>; body?: Body<O> };
/** The call's options: optional when the operation has no path parameter. */
type CallArgs<O> = Record<string, never> extends Call<O> ? [call?: Call<O>] : [call: Call<O>];

export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** Exit codes: 1 usage or request error, 2 not authenticated, 3 not found, 4 server or network failure. */
export const EXIT = { failure: 1, unauthorized: 2, notFound: 3, unavailable: 4 } as const;

function exitCodeFor(status: number): number {
  if (status === 401 || status === 403) return EXIT.unauthorized;
  if (status === 404) return EXIT.notFound;
  return status >= 500 ? EXIT.unavailable : EXIT.failure;
}

export interface GlobalOptions {
  url?: string;
  token?: string;
  insecure?: boolean;
  json?: boolean;
}

export class AdminClient {
  readonly baseUrl: string;
  readonly #token: string;
  readonly #dispatcher: Agent | undefined;

  constructor(options: GlobalOptions) {
    const local = localStack();
    const token = operatorToken(options.token, process.env, local);
    if (!token) throw new CliError("no operator token: pass --token or set CODECELL_OPERATOR_TOKEN (or start the local stack with npm start)");
    this.baseUrl = edgeUrl(options.url, process.env, local);
    this.#token = token;
    // The local stack's certificate is wrangler's self-signed one; trusting it is opt-in, or
    // automatic when talking to the local stack on loopback.
    this.#dispatcher = options.insecure || (isLoopback(this.baseUrl) && local) ? new Agent({ connect: { rejectUnauthorized: false } }) : undefined;
  }

  /** One admin operation: `path` is its template in the document, `params` fill it in. */
  call<P extends keyof paths, M extends Method & keyof paths[P]>(method: M, path: P, ...[call]: CallArgs<paths[P][M]>): Promise<Answer<paths[P][M]>> {
    const params = (call?.params ?? {}) as Record<string, string>;
    const filled = (path as string).replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? ""));
    const query = new URLSearchParams(Object.entries(call?.query ?? {}).filter((e): e is [string, string] => e[1] !== undefined)).toString();
    return this.request(method.toUpperCase(), query ? `${filled}?${query}` : filled, call?.body);
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Awaited<ReturnType<typeof fetch>>;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.#token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        dispatcher: this.#dispatcher,
      });
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
      throw new CliError(`cannot reach ${this.baseUrl}: ${cause}`, EXIT.unavailable);
    }
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: reported below
    }
    if (!response.ok) {
      const detail = (parsed as { error?: string; message?: string } | undefined) ?? {};
      const message = [detail.error, detail.message].filter(Boolean).join(": ") || text.slice(0, 200) || response.statusText;
      throw new CliError(`${method} ${path} failed (${response.status}): ${message}`, exitCodeFor(response.status));
    }
    return parsed as T;
  }
}

/** The program's global options, from any subcommand. */
export function globals(command: Command): GlobalOptions {
  return command.optsWithGlobals() as GlobalOptions;
}

export function client(command: Command): AdminClient {
  return new AdminClient(globals(command));
}
