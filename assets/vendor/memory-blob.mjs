// postal-mime gathers each part's decoded body in a Blob and reads it back with `arrayBuffer()`, a
// round trip through the browser's blob store that headless Chromium makes slow; this stands in for
// Blob inside the bundle and joins the chunks (bytes, or strings as UTF-8) in memory.
const encoder = new TextEncoder();
export class MemoryBlob {
  constructor(chunks) {
    const parts = (chunks || []).map((c) => (typeof c === "string" ? encoder.encode(c) : new Uint8Array(c.buffer || c, c.byteOffset || 0, c.byteLength)));
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    this.bytes = out;
  }
  arrayBuffer() { return Promise.resolve(this.bytes.buffer); }
}
