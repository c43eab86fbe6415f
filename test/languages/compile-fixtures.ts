// Binary files a tenant could send in files[] to change what a compiler loads: built once on the
// host with the same toolchains the sandbox binds (so the compile inside would accept them).
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { detectRust } from "../../languages/rust/detect.ts";

/** What every compile-time probe prints (or fails with) if the compiler ran the tenant's code. */
export const MARKER = "TENANT-CODE-RAN-AT-COMPILE-TIME";

/**
 * An annotation processor whose init fails the compile with MARKER: javac finds it on its class
 * path (/box) through META-INF/services unless annotation processing is off.
 */
export function annotationProcessor(dir: string): { path: string; content: Uint8Array | string }[] {
  const source = `import javax.annotation.processing.*;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import java.util.Set;
@SupportedAnnotationTypes("*")
public class P extends AbstractProcessor {
  @Override public synchronized void init(ProcessingEnvironment env) {
    super.init(env);
    env.getMessager().printMessage(Diagnostic.Kind.ERROR, "${MARKER}");
  }
  @Override public SourceVersion getSupportedSourceVersion() { return SourceVersion.latestSupported(); }
  @Override public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) { return false; }
}
`;
  mkdirSync(join(dir, "processor"), { recursive: true });
  writeFileSync(join(dir, "processor", "P.java"), source);
  // The system default JDK (the oldest offered) with --release 17: every offered JDK loads the class.
  execFileSync(realpathSync("/usr/bin/javac"), ["--release", "17", "-d", join(dir, "processor"), join(dir, "processor", "P.java")]);
  return [
    { path: "P.class", content: readFileSync(join(dir, "processor", "P.class")) },
    { path: "META-INF/services/javax.annotation.processing.Processor", content: "P\n" },
  ];
}

/**
 * GCC's precompiled header of a header that says `#define VALUE 2`, made with the sandbox
 * compile's flags: gcc uses `util.h.gch` instead of `util.h` when it is beside it.
 */
export function precompiledHeader(dir: string, compiler: "gcc" | "g++"): Uint8Array {
  const header = join(dir, `other-${compiler}.h`);
  writeFileSync(header, "#define VALUE 2\n");
  const flags = compiler === "gcc" ? ["-std=c17", "-x", "c-header"] : ["-std=c++20", "-x", "c++-header"];
  const out = join(dir, `util-${compiler}.h.gch`);
  execFileSync(`/usr/bin/${compiler}`, [...flags, "-O2", "-o", out, header]);
  return readFileSync(out);
}

/** A proc-macro crate whose macro prints MARKER, built with the rustc the sandbox binds. */
export async function procMacroCrate(dir: string): Promise<Uint8Array> {
  const [toolchain] = await detectRust();
  const optRust = toolchain?.binds.find((bind) => bind.sandboxPath === "/opt/rust")?.hostPath;
  const rustc = optRust ? join(optRust, "bin", "rustc") : "/usr/bin/rustc";
  const source = join(dir, "evil.rs");
  writeFileSync(
    source,
    `extern crate proc_macro;\nuse proc_macro::TokenStream;\n#[proc_macro]\npub fn evil(_: TokenStream) -> TokenStream { panic!("${MARKER}") }\n`,
  );
  const out = join(dir, "libevil.so");
  execFileSync(rustc, ["--edition", "2021", "--crate-type", "proc-macro", "--crate-name", "evil", "-o", out, source]);
  return readFileSync(out);
}
