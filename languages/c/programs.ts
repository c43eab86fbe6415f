import type { LanguagePrograms } from "../schema.ts";

// The programs every language's suite runs (test/languages/languages.test.ts).
const programs: LanguagePrograms = {
  hello: '#include <stdio.h>\nint main(void) { printf("hello, world\\n"); return 0; }',
  sum: '#include <stdio.h>\nint main(void) { long long x, s = 0; while (scanf("%lld", &x) == 1) s += x; printf("%lld\\n", s); }',
  runtimeError: '#include <stdio.h>\n#include <math.h>\nint main(void) { fprintf(stderr, "boom %.0f\\n", sqrt(9.0)); return 3; }',
  compileError: "int main(void) { return undeclared_variable; }",
  spin: "int main(void) { volatile unsigned long i = 0; for (;;) i++; }",
  hog: "#include <stdlib.h>\n#include <string.h>\nint main(void) { for (;;) { char *p = malloc(1 << 20); memset(p, 1, 1 << 20); } }",
  hogVerdict: "MLE",
};

export default programs;
