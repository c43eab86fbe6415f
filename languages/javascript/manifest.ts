import { defineLanguage } from "../schema.ts";

export default defineLanguage({
  name: "javascript",
  order: 5,
  aliases: ["js"],
  title: "JavaScript (Node.js)",
  source: { fileName: "main.js", extensions: [".js", ".mjs"] },
  judge0: {
    classicId: 63,
    display: "JavaScript (Node.js %s)",
    ids: [{ id: 63, version: "12.14" }, { id: 93, version: "18.15" }, { id: 97, version: "20.17" }, { id: 102, version: "22.8" }],
  },
  piston: { name: "javascript", aliases: ["js", "node", "node-js", "node-javascript"], runtime: "node" },
  // Node 24 is the project's own `node` dev dependency (npm ci); extra majors: scripts/provision.sh.
  packages: { npm: ["node"] },
});
