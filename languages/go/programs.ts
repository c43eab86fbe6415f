import type { LanguagePrograms } from "../schema.ts";

// The programs every language's suite runs (test/languages/languages.test.ts).
const programs: LanguagePrograms = {
  hello: 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello, world") }',
  sum: 'package main\n\nimport (\n\t"bufio"\n\t"fmt"\n\t"os"\n)\n\nfunc main() {\n\tr := bufio.NewReader(os.Stdin)\n\tvar s, x int64\n\tfor {\n\t\tif _, err := fmt.Fscan(r, &x); err != nil {\n\t\t\tbreak\n\t\t}\n\t\ts += x\n\t}\n\tfmt.Println(s)\n}',
  runtimeError: 'package main\n\nfunc main() { panic("boom") }',
  compileError: 'package main\n\nfunc main() { x := 1 }',
  spin: "package main\n\nfunc main() { i := 0\n\tfor { i++ } }",
  hog: "package main\n\nfunc main() {\n\tvar hog [][]byte\n\tfor {\n\t\tb := make([]byte, 1<<20)\n\t\tfor i := range b {\n\t\t\tb[i] = 1\n\t\t}\n\t\thog = append(hog, b)\n\t}\n}",
  hogVerdict: "MLE",
  threads:
    'package main\n\nimport (\n\t"fmt"\n\t"os"\n\t"strings"\n)\n\nfunc main() {\n\tb, _ := os.ReadFile("/proc/self/status")\n\tfor _, l := range strings.Split(string(b), "\\n") {\n\t\tif strings.HasPrefix(l, "Threads:") {\n\t\t\tfmt.Println(l)\n\t\t}\n\t}\n}',
};

export default programs;
