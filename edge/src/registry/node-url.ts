// Nodes listen with TLS except on loopback (docs/edge.md).
export function nodeUrlProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "the node URL is not a URL";
  }
  const loopback = u.hostname === "127.0.0.1" || u.hostname === "localhost" || u.hostname === "[::1]";
  if (u.protocol !== "https:" && !(u.protocol === "http:" && loopback)) return "the node URL must be https (http only on loopback)";
  return null;
}
