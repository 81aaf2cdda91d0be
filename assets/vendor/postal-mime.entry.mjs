// verify.html's reader of a mail's MIME structure: postal-mime parses the message (its tree of
// parts, header parameters, transfer encodings); `tree` hands the page each part's content type,
// disposition and decoded bytes, from which the page picks the body and the text as pbem's
// `mail::parse` does (src/mail/parse.rs). Built into postal-mime.js by esbuild (README.md here).
import PostalMime, { decodeWords } from "postal-mime";

export { decodeWords };

/** The MIME tree of the message `bytes` (a Uint8Array): for each part its `type` ("text/plain",
 * lower case), whether a Content-Type header named it (`typed`), its parameters, its disposition and
 * their parameters, its decoded body (`content`, bytes) and its `children`. */
export async function tree(bytes) {
  const parser = new PostalMime({ rfc822Attachments: true });
  await parser.parse(bytes);
  const part = (n) => ({
    type: String(n.contentType.parsed.value || "").toLowerCase(),
    typed: n.headers.some((h) => h.key === "content-type"),
    params: n.contentType.parsed.params,
    multipart: n.contentType.multipart,
    disposition: String(n.contentDisposition.parsed.value || "").toLowerCase(),
    dispositionParams: n.contentDisposition.parsed.params,
    content: n.content ? new Uint8Array(n.content) : new Uint8Array(0),
    children: n.childNodes.map(part),
  });
  return part(parser.root);
}
