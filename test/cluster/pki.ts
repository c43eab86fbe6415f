// A private CA for the cluster and a certificate per address (the edge's and each node's), as an
// operator would issue them: the edge's and nodes' certificates name their IP address, and every
// client (workerd's outbound fetch, the enrollment command, the CLI, the tests) trusts the CA
// through NODE_EXTRA_CA_CERTS. Made with openssl (P-256 keys: fast, and accepted by BoringSSL).
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export interface Pki {
  caCert: string;
  /** Certificate and key for an address, by address. */
  certs: Map<string, { cert: string; key: string }>;
}

function openssl(args: string[]): void {
  execFileSync("openssl", args, { stdio: ["ignore", "ignore", "pipe"] });
}

export function makePki(dir: string, addresses: string[]): Pki {
  const caKey = join(dir, "ca.key");
  const caCert = join(dir, "ca.pem");
  openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", caKey]);
  openssl([
    "req", "-x509", "-new", "-key", caKey, "-out", caCert, "-days", "2", "-subj", "/CN=codecell cluster test CA",
    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  const certs = new Map<string, { cert: string; key: string }>();
  for (const address of addresses) {
    const key = join(dir, `${address}.key`);
    const csr = join(dir, `${address}.csr`);
    const cert = join(dir, `${address}.pem`);
    const ext = join(dir, `${address}.ext`);
    openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key]);
    openssl(["req", "-new", "-key", key, "-out", csr, "-subj", `/CN=${address}`]);
    writeFileSync(ext, `subjectAltName=IP:${address}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`);
    openssl(["x509", "-req", "-in", csr, "-CA", caCert, "-CAkey", caKey, "-CAcreateserial", "-out", cert, "-days", "2", "-extfile", ext]);
    certs.set(address, { cert, key });
  }
  return { caCert, certs };
}
