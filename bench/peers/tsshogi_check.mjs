// Peer: tsshogi imports each CSA file (parsing and replaying its moves).
// Usage: node tsshogi_check.mjs DIR PATH/TO/node_modules/tsshogi
// Exits non-zero (so the bench reports a failure, not a time) if anything fails.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [dir, lib] = process.argv.slice(2);
const { importCSA } = await import(pathToFileURL(join(lib, "dist", "esm", "index.mjs")).href);
// The loop alone is timed too: start-up and module loading are not throughput.
const t0 = performance.now();
let games = 0, plies = 0;
for (const f of readdirSync(dir).filter((f) => f.endsWith(".csa")).sort()) {
  const rec = importCSA(readFileSync(join(dir, f), "utf8"));
  if (rec instanceof Error) throw rec;
  games += 1;
  plies += rec.moves.length - 1;
}
console.error(`tsshogi: ${games} games, ${plies} plies`);
console.error(`loop-seconds ${((performance.now() - t0) / 1000).toFixed(6)}`);
if (games === 0) process.exit(1);
