/**
 * The Node/V8 flags the API server runs with: `npm start` (package.json), the compiled form
 * (`node <flags> dist/cli.js serve`, README) and the benchmark (`bench/server.ts`).
 *
 * A 64 MiB young-generation semi-space instead of V8's 16 MiB: quote create allocates ~10 KB
 * of prices several times per request, and at 50 concurrent requests the default semi-space
 * filled 25–30 times a second, each scavenge copying the live objects of every request in
 * flight (6–10 % of the time). With 64 MiB scavenges are a third as frequent and take a third
 * of the time in all; quote create costs ~14 % less CPU in process and ran 1.3–1.6× faster
 * through HTTP in alternated runs (docs/performance.md, round 5). The cost is memory: up to
 * ~190 MiB of young generation under load.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
