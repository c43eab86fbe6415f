// TypeScript's compile step: Node's own transpiler (`module.stripTypeScriptTypes`, the one `node
// main.ts` uses, no type check) emits JavaScript once, inside the sandbox; the compile cache keeps
// it and every run starts plain `node` on it. docs/languages.md has the decision.

/**
 * Runs in the compile sandbox as `node -e`: reads the source (argv[1]), writes the JavaScript
 * (argv[2]). Types are blanked out in place, so lines and columns stay the source's, and a
 * `//# sourceURL` names the source in stack traces; syntax that needs code generation (enum,
 * namespace, parameter properties) is transformed instead, with an inline source map. A syntax
 * error prints as `node main.ts` prints it, without the transpiler's own stack.
 */
function emitJavaScript(): void {
  const { stripTypeScriptTypes } = require("node:module");
  const { readFileSync, writeFileSync } = require("node:fs");
  const { resolve } = require("node:path");
  const { inspect } = require("node:util");
  const [source, output] = process.argv.slice(1);
  const code = readFileSync(source, "utf8");
  const sourceUrl = resolve(source);
  const fail = (error: unknown) => {
    const shown = inspect(error);
    const stack = shown.indexOf("\n    at ");
    process.stderr.write(`${stack < 0 ? shown : shown.slice(0, stack)}\n`);
    process.exit(1);
  };
  let js = "";
  try {
    js = stripTypeScriptTypes(code, { mode: "strip", sourceUrl });
  } catch (error) {
    if ((error as { code?: string }).code !== "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX") fail(error);
    try {
      js = stripTypeScriptTypes(code, { mode: "transform", sourceMap: true, sourceUrl });
    } catch (transformError) {
      fail(transformError);
    }
  }
  writeFileSync(output, js, { flag: "wx" });
}

/** The compile command: `node` itself, with a heap below the compile memory limit. */
export function typescriptEmitArgv(node: string, sourceFileName: string, output: string): string[] {
  return [node, "--max-old-space-size=512", "--disable-warning=ExperimentalWarning", "-e", `(${emitJavaScript.toString()})()`, sourceFileName, output];
}
