import type { LanguagePrograms } from "../schema.ts";

// The programs every language's suite runs (test/languages/languages.test.ts).
const programs: LanguagePrograms = {
  hello: '#include <iostream>\nint main() { std::cout << "hello, world" << std::endl; }',
  sum: "#include <iostream>\n#include <ranges>\nint main() { long long x, s = 0; while (std::cin >> x) s += x; std::cout << s << '\\n'; }",
  runtimeError: '#include <stdexcept>\nint main() { throw std::runtime_error("boom"); }',
  compileError: "int main() { std::vector<int> v; }",
  spin: "int main() { volatile unsigned long i = 0; for (;;) i++; }",
  hog: "#include <vector>\nint main() { std::vector<std::vector<char>> hog; for (;;) hog.emplace_back(1 << 20, 'x'); }",
  hogVerdict: "MLE",
};

export default programs;
