// C++ on the node: the system g++, with the precompiled <bits/stdc++.h> when provisioning made one.
import { CPP_FLAGS, detectGxx } from "../kit/detect/gcc.ts";
import type { LanguageRunner } from "../kit/language-spec.ts";

const cpp: LanguageRunner = {
  detect: detectGxx,
  compile: {
    argv: ({ toolchain, source, options }) => [
      toolchain.paths["g++"]!,
      ...CPP_FLAGS,
      ...(toolchain.paths.pch ? ["-I", toolchain.paths.pch] : []),
      "-o",
      "main",
      source.fileName,
      ...options,
      "-lm",
    ],
    executable: true,
    maxArtifactBytes: 64 * 1024 * 1024,
  },
  run: { argv: ({ artifactPath }) => [artifactPath] },
};

export default cpp;
