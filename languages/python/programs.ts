import type { LanguagePrograms } from "../schema.ts";

// The programs every language's suite runs (test/languages/languages.test.ts).
const programs: LanguagePrograms = {
  hello: 'print("hello, world")',
  sum: "import sys\nprint(sum(map(int, sys.stdin.read().split())))",
  runtimeError: 'raise ValueError("boom")',
  spin: "while True: pass",
  hog: "hog = []\nwhile True: hog.append(bytearray(b'x' * (1 << 20)))",
  hogVerdict: "MLE",
};

export default programs;
