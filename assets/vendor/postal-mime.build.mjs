// Builds postal-mime.js for verify.html (assets/vendor/README.md): postal-mime bundled into one script
// that defines PBEM_MIME, with memory-blob.mjs for Blob, and without the HTML entity table of
// postal-mime's own HTML-to-text rendering, which the page never reads (it turns HTML into text as
// pbem does, src/mail/html.rs).
import { build } from "esbuild";

await build({
  entryPoints: ["postal-mime.entry.mjs"],
  bundle: true,
  minify: true,
  format: "iife",
  globalName: "PBEM_MIME",
  legalComments: "none",
  inject: ["./memory-blob.mjs"],
  define: { Blob: "MemoryBlob" },
  outfile: "bundle.js",
  plugins: [{
    name: "no-html-entities",
    setup(b) {
      b.onResolve({ filter: /html-entities\.js$/ }, () => ({ path: "html-entities", namespace: "stub" }));
      b.onLoad({ filter: /.*/, namespace: "stub" }, () => ({ contents: "export const htmlEntities = {};" }));
    },
  }],
});
