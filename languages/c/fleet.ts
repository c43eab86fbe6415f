// C on the node: the system gcc.
import { detectGcc } from "../kit/detect/gcc.ts";
import type { LanguageRunner } from "../kit/language-spec.ts";

const c: LanguageRunner = {
  detect: detectGcc,
  compile: {
    argv: ({ toolchain, source, options }) => [toolchain.paths.gcc!, "-std=c17", "-O2", "-pipe", "-o", "main", source.fileName, ...options, "-lm"],
    executable: true,
    maxArtifactBytes: 64 * 1024 * 1024,
  },
  run: { argv: ({ artifactPath }) => [artifactPath] },
};

export default c;
