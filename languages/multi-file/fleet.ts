// Judge0's language 89 on the node: scripts run with bash (scripts.ts; docs/languages.md).
import type { LanguageRunner } from "../kit/language-spec.ts";
import { detectBash } from "./detect.ts";
import { multiFileCompileArgv, multiFileRunArgv } from "./scripts.ts";

const multiFile: LanguageRunner = {
  detect: detectBash,
  compile: {
    argv: ({ toolchain }) => multiFileCompileArgv(toolchain),
    executable: false,
    // At most what a run's work dir holds.
    maxArtifactBytes: 64 * 1024 * 1024,
  },
  run: { argv: multiFileRunArgv },
};

export default multiFile;
