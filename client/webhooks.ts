// Moved into the SDK package (client/src/webhooks.ts, exported by @codecell/client); this path
// keeps working for receivers that copied or imported it.
export * from "./src/webhooks.ts";
