// Java on the node: every JDK found, javac tuned to start fast, the classes in one jar.
import type { LanguageRunner } from "../kit/language-spec.ts";
import { budgetMiB } from "../kit/runtime-flags.ts";
import { detectJdks, JAVAC_JVM_FLAGS } from "./detect.ts";

const MiB = 1024 * 1024;

const java: LanguageRunner = {
  detect: detectJdks,
  compile: {
    // javac is itself a JVM: C1 only, serial GC and CDS start it about twice as fast. One jar
    // (zipped with Info-ZIP, ~2 ms, instead of `jar`, another JVM start) is the artifact.
    argv: ({ toolchain, source, options }) => [
      "/bin/sh",
      "-c",
      `"$@" && cd classes && exec ${toolchain.paths.zip} -q -r -X ../main.jar .`,
      "javac",
      toolchain.paths.javac!,
      ...JAVAC_JVM_FLAGS,
      "-J-Xshare:auto",
      ...(toolchain.paths.javacCds ? [`-J-XX:SharedArchiveFile=${toolchain.paths.javacCds}`] : []),
      // No annotation processing, and no processor path: javac would otherwise load processors
      // (tenant code) from its class path, /box (JDK < 23 by default; docs/languages.md).
      "-proc:none",
      "-processorpath",
      "",
      "-encoding",
      "UTF-8",
      "-Xlint:none",
      ...options,
      "-d",
      "classes",
      source.fileName,
    ],
    executable: false,
    maxArtifactBytes: 64 * MiB,
  },
  run: {
    argv: ({ toolchain, source, artifactPath, limits }) => [
      toolchain.paths.java!,
      "-XX:+UseG1GC",
      "-XX:ParallelGCThreads=2",
      "-XX:ConcGCThreads=1",
      "-Xshare:auto",
      "-XX:-UsePerfData",
      "-XX:ActiveProcessorCount=2",
      "-XX:CICompilerCount=2",
      `-Xmx${budgetMiB(limits.memoryBytes, 0.7)}m`,
      `-Xss${Math.max(1, Math.floor((limits.stackBytes / MiB) * 0.25))}m`,
      "-XX:ReservedCodeCacheSize=48m",
      "-XX:MaxMetaspaceSize=96m",
      "-Dfile.encoding=UTF-8",
      "-cp",
      artifactPath,
      source.entry ?? "Main",
    ],
  },
};

export default java;
