import type { LanguagePrograms } from "../schema.ts";

// The programs every language's suite runs (test/languages/languages.test.ts).
const programs: LanguagePrograms = {
  hello: 'console.log("hello, world")',
  sum: 'const s = require("fs").readFileSync(0, "utf8").split(/\\s+/).filter(Boolean).map(Number).reduce((a, b) => a + b, 0);\nconsole.log(s)',
  runtimeError: 'throw new Error("boom")',
  spin: "for (;;) {}",
  hog: "const hog = []; for (;;) hog.push(new Array(1 << 16).fill({ x: 1 }))",
  hogVerdict: "RE",
  hogStderr: /heap out of memory|heap limit/i,
  threads: 'setTimeout(() => console.log(require("fs").readFileSync("/proc/self/status", "utf8").split("\\n").find((l) => l.startsWith("Threads:"))), 50)',
};

export default programs;
