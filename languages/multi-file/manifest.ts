import { defineLanguage } from "../schema.ts";

// Judge0's language 89: the code is the `run` script, its files may hold a `compile` script; both
// run with bash (fleet.ts; docs/languages.md). Piston has no such language.
export default defineLanguage({
  name: "multi-file",
  order: 9,
  title: "A program made of scripts (bash)",
  source: { fileName: "run" },
  // The work dir as the compile script left it, carried to every run.
  compile: { artifact: ".multi-file-build.tar" },
  // Judge0 names it without a version (its scripts run with our bash, whose version is the runtime's).
  judge0: { classicId: 89, display: "Multi-file program" },
  packages: { debian: ["bash", "tar"] },
});
