import { defineLanguage } from "../schema.ts";
import { javaSourcePlan } from "./source-plan.ts";

export default defineLanguage({
  name: "java",
  order: 4,
  title: "Java (the system JDK and every JDK under /usr/lib/jvm)",
  // Named after its classes; `Main.java` is what a listing shows.
  source: { fileName: "Main.java", fromCode: javaSourcePlan, extensions: [".java"] },
  compile: { artifact: "main.jar", scratch: ["classes"] },
  judge0: { classicId: 62, display: "Java (JDK %s)", ids: [{ id: 62, version: "13.0" }, { id: 91, version: "17.0" }] },
  piston: { name: "java" },
  packages: { debian: ["default-jdk-headless", "zip"] },
});
