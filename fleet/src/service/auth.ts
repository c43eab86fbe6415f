// The fleet credential: metadata `authorization: Bearer <token>`. Both sides are hashed first so
// timingSafeEqual compares equal-length digests and the token's length does not leak either.
import { createHash, timingSafeEqual } from "node:crypto";
import { ServiceError, Status } from "./errors.ts";

const sha256 = (value: string) => createHash("sha256").update(value, "utf8").digest();

export type CredentialCheck = (metadata: ReadonlyMap<string, string>) => void;

export function createCredentialCheck(token: string): CredentialCheck {
  const expected = sha256(token);
  return (metadata) => {
    const header = metadata.get("authorization");
    if (header === undefined) throw new ServiceError(Status.UNAUTHENTICATED, "missing fleet credential");
    const match = /^bearer\s+(\S.*)$/i.exec(header.trim());
    const presented = sha256(match?.[1] ?? "");
    if (!match || !timingSafeEqual(presented, expected)) {
      throw new ServiceError(Status.UNAUTHENTICATED, "invalid fleet credential");
    }
  };
}
