import type { LanguagePrograms } from "../schema.ts";

// The programs every language's suite runs (test/languages/languages.test.ts).
const programs: LanguagePrograms = {
  hello: 'const greeting: string = "hello, world";\nconsole.log(greeting)',
  sum: 'import { readFileSync } from "node:fs";\nconst nums: number[] = readFileSync(0, "utf8").split(/\\s+/).filter(Boolean).map(Number);\nenum Op { Add }\nconsole.log(nums.reduce((a: number, b: number) => (Op.Add === 0 ? a + b : a), 0))',
  runtimeError: 'function boom(): never { throw new Error("boom") }\nboom()',
  compileError: "const x: number = ;\nconsole.log(x)",
  spin: "for (;;) {}",
  hog: "const hog: object[][] = []; for (;;) hog.push(new Array(1 << 16).fill({ x: 1 }))",
  hogVerdict: "RE",
  hogStderr: /heap out of memory|heap limit/i,
};

export default programs;
