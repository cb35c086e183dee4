import { readFileSync, readdirSync } from "node:fs";
const f = readdirSync("/tmp/prof").find((x) => x.endsWith(".cpuprofile"));
const p = JSON.parse(readFileSync("/tmp/prof/" + f, "utf8"));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map(); const total = p.samples.length;
const dt = (p.endTime - p.startTime) / total;
const counts = new Map();
for (const s of p.samples) counts.set(s, (counts.get(s) ?? 0) + 1);
const label = (n) => `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber}`;
const incl = new Map();
for (const [id, c] of counts) {
  const n = byId.get(id); const l = label(n); self.set(l, (self.get(l) ?? 0) + c);
  const seen = new Set(); let cur = id;
  while (cur !== undefined) { const ln = label(byId.get(cur)); if (!seen.has(ln)) { seen.add(ln); incl.set(ln, (incl.get(ln) ?? 0) + c); } cur = parent.get(cur); }
}
const idle = [...counts].filter(([id]) => byId.get(id).callFrame.functionName === "(idle)").reduce((a, [, c]) => a + c, 0);
console.log(`samples ${total}, idle ${(100 * idle / total).toFixed(1)}%`);
console.log("--- self"); for (const [l, c] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.N ?? 30))) console.log((100 * c / total).toFixed(1).padStart(5), l);
console.log("--- inclusive"); for (const [l, c] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.M ?? 60))) console.log((100 * c / total).toFixed(1).padStart(5), l);
