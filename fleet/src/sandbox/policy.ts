/** The seccomp policy a node's runs get, published with its isolation controls (NodeInfo). */
export const SECCOMP_POLICY_VERSION = "deny-list/1";
