// Path globs for excluded paths: `*` matches any run of characters except "/", `**` any run at
// all, everything else itself; the whole path must match. Matching simulates the pattern as a
// set of positions (an NFA), so the cost is at most path length x pattern length. A regular
// expression would backtrack exponentially on patterns like `/**a**a**a**b`, and patterns come
// from users while paths come from anyone.

const STAR = -1;
const GLOBSTAR = -2;
/** Longer patterns are not paths anyone means; refusing them bounds the worst case. */
export const MAX_GLOB_LENGTH = 300;

export type PathMatcher = (path: string) => boolean;

function tokens(glob: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < glob.length; i++) {
    if (glob[i] === "*") {
      const double = glob[i + 1] === "*";
      if (double) i++;
      const t = double ? GLOBSTAR : STAR;
      const last = out[out.length - 1];
      // Adjacent wildcards match what the broader one alone matches.
      if (last === GLOBSTAR || last === STAR) out[out.length - 1] = Math.min(last, t);
      else out.push(t);
    } else out.push(glob.charCodeAt(i));
  }
  return out;
}

export function compileGlob(glob: string): PathMatcher {
  if (glob.length > MAX_GLOB_LENGTH) return () => false;
  if (!glob.includes("*")) return (path) => path === glob;
  const toks = tokens(glob);
  const n = toks.length;
  if (toks.indexOf(STAR) < 0 && toks.indexOf(GLOBSTAR) === n - 1) {
    const prefix = glob.slice(0, glob.indexOf("*"));
    return (path) => path.startsWith(prefix);
  }
  return (path) => {
    let cur = new Uint8Array(n + 1);
    let next = new Uint8Array(n + 1);
    // Wildcards may match nothing, so reaching one also reaches the token after it.
    const add = (set: Uint8Array, at: number) => {
      let i = at;
      while (i <= n && !set[i]) {
        set[i] = 1;
        if (i < n && (toks[i] as number) < 0) i++;
        else break;
      }
    };
    add(cur, 0);
    for (let p = 0; p < path.length; p++) {
      const c = path.charCodeAt(p);
      next.fill(0);
      let any = false;
      for (let i = 0; i < n; i++) {
        if (!cur[i]) continue;
        const t = toks[i] as number;
        if (t === GLOBSTAR || (t === STAR && c !== 47)) {
          add(next, i);
          any = true;
        } else if (t === c) {
          add(next, i + 1);
          any = true;
        }
      }
      if (!any) return false;
      [cur, next] = [next, cur];
    }
    return cur[n] === 1;
  };
}
