// TypeScript on the node: Node's own transpiler, once per source (no type check), then Node.
import { detectNode } from "../kit/detect/node.ts";
import type { LanguageRunner } from "../kit/language-spec.ts";
import { nodeRunArgv } from "../kit/runtime-flags.ts";
import { typescriptEmitArgv } from "./emit.ts";
import manifest from "./manifest.ts";

const typescript: LanguageRunner = {
  detect: detectNode,
  // docs/languages.md says why no type check.
  compile: {
    argv: ({ toolchain, source }) => typescriptEmitArgv(toolchain.paths.node!, source.fileName, manifest.compile.artifact),
    executable: false,
    maxArtifactBytes: 16 * 1024 * 1024,
    intoWorkDir: true,
  },
  // Stack traces through the emitted code's source map, if it has one (measured: free without).
  run: { argv: (context) => nodeRunArgv(context, ["--enable-source-maps"], context.artifactPath) },
};

export default typescript;
