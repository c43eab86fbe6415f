import type { LanguagePrograms } from "../schema.ts";

// The programs every language's suite runs (test/languages/languages.test.ts).
const programs: LanguagePrograms = {
  hello: 'public class Main { public static void main(String[] args) { System.out.println("hello, world"); } }',
  sum: "import java.util.*;\npublic class Main { public static void main(String[] a) { Scanner s = new Scanner(System.in); long t = 0; while (s.hasNextLong()) t += s.nextLong(); System.out.println(t); } }",
  runtimeError: 'public class Main { public static void main(String[] a) { throw new IllegalStateException("boom"); } }',
  compileError: 'public class Main { public static void main(String[] a) { int x = "no" } }',
  spin: "public class Main { public static void main(String[] a) { long i = 0; while (true) i++; } }",
  hog: "import java.util.*;\npublic class Main { public static void main(String[] a) { List<byte[]> hog = new ArrayList<>(); while (true) hog.add(new byte[1 << 20]); } }",
  hogVerdict: "RE",
  hogStderr: /OutOfMemoryError/,
  threads:
    'import java.nio.file.*;\npublic class Main { public static void main(String[] a) throws Exception { for (String l : Files.readAllLines(Path.of("/proc/self/status"))) if (l.startsWith("Threads:")) System.out.println(l); } }',
};

export default programs;
