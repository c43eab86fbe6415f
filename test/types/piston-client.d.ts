// The npm package `piston-client` ships no types; the surface the compatibility tests use (its README's three forms of execute).
declare module "piston-client" {
  interface Stage { stdout: string; stderr: string; output: string; code: number | null; signal: string | null }
  interface ExecuteResult { language: string; version: string; run?: Stage; compile?: Stage; success?: false; error?: unknown }
  export function piston(opts?: { server?: string }): {
    runtimes(): Promise<{ language: string; version: string; aliases: string[] }[]>;
    execute(language: string, code: string, config?: Record<string, unknown>): Promise<ExecuteResult>;
    execute(config: Record<string, unknown>): Promise<ExecuteResult>;
  };
}
