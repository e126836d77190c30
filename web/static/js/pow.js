// The registration page's proof of work (docs/REGISTRATION.md, "The challenge"): find a
// nonce such that sha256(challenge || nonce) starts with `bits` zero bits. crypto.subtle
// answers one hash per promise, so a batch of them is asked at once.
const BATCH = 256;

function leadingZeros(buf) {
  let n = 0;
  for (const x of new Uint8Array(buf)) {
    if (x !== 0) return n + Math.clz32(x) - 24;
    n += 8;
  }
  return n;
}

// solve returns the nonce, as decimal text.
export async function solve(challenge, bits) {
  const enc = new TextEncoder();
  for (let start = 0; ; start += BATCH) {
    const sums = await Promise.all(
      Array.from({ length: BATCH }, (_, i) => crypto.subtle.digest("SHA-256", enc.encode(challenge + (start + i)))),
    );
    const hit = sums.findIndex((s) => leadingZeros(s) >= bits);
    if (hit >= 0) return String(start + hit);
  }
}
