import type { LanguagePrograms } from "../schema.ts";

// The programs every language's suite runs (test/languages/languages.test.ts).
const programs: LanguagePrograms = {
  hello: 'echo "hello, world"',
  sum: "s=0; for x in $(cat); do s=$((s + x)); done; echo $s",
  runtimeError: "echo boom >&2; exit 3",
  spin: "while :; do :; done",
  hog: "tail /dev/zero",
  hogVerdict: "MLE",
};

export default programs;
