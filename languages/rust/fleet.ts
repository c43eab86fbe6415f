// Rust on the node: rustc from a rustup toolchain (else Debian's), linking with the system cc.
import type { LanguageRunner } from "../kit/language-spec.ts";
import { detectRust } from "./detect.ts";

const rust: LanguageRunner = {
  detect: detectRust,
  compile: {
    // rustc refuses an edition or an optimisation level given twice: a request's replaces ours.
    argv: ({ toolchain, source, options }) => [
      toolchain.paths.rustc!,
      ...(options.some((o) => o.startsWith("--edition")) ? [] : ["--edition", "2021"]),
      ...(options.some((o) => o === "-O" || o.includes("opt-level")) ? [] : ["-O"]),
      ...options,
      "-C",
      "strip=debuginfo",
      "-o",
      "main",
      source.fileName,
    ],
    executable: true,
    maxArtifactBytes: 128 * 1024 * 1024,
    noProgramHint: "the build produced no executable: a library crate (`crate_type = \"lib\"`) has no `fn main()` to run",
  },
  run: { argv: ({ artifactPath }) => [artifactPath] },
};

export default rust;
