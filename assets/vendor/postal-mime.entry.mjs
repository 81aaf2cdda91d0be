// verify.html's reader of a mail's MIME structure: postal-mime parses the message (its tree of
// parts, header parameters, transfer encodings); `tree` hands the page each part's content type,
// disposition and decoded bytes, from which the page picks the body and the text as pbem's
// `mail::parse` does (src/mail/parse.rs). Built into postal-mime.js by esbuild (README.md here).
import PostalMime, { decodeWords } from "postal-mime";

export { decodeWords };

/** postal-mime reads a message line by line and drops every CR before a line's LF, where pbem's
 * mail-parser keeps a part's bytes as they are: a body line that ends in CR CR LF (text whose CRLF
 * was made CRLF again on its way) is a line and an empty one to pbem. Such a line of a body read as
 * it is (no transfer encoding, 7bit, 8bit, binary) gets its CRs back, so that the page reads the
 * text pbem reads; a line that ends in one CR, or none, is left as postal-mime reads it. */
class Reader extends PostalMime {
  readLine() {
    const line = super.readLine();
    let end = this.readPos;
    if (end > 0 && this.av[end - 1] === 0x0a) end--;
    // Between the line and its LF there are only the CRs it dropped.
    const crs = end - (line.bytes.byteOffset + line.bytes.length);
    line.bytes.droppedCRs = crs > 1 ? crs : 0;
    return line;
  }

  async processLine(line, isFinal) {
    const node = this.currentNode;
    const asIs = node && node.state === "body" && !/^(base64|quoted-printable)$/.test(node.contentTransferEncoding.encoding);
    // A line that may be a boundary is left as postal-mime reads it.
    if (line.droppedCRs && asIs && !(line[0] === 0x2d && line[1] === 0x2d)) {
      const longer = new Uint8Array(line.length + line.droppedCRs).fill(0x0d);
      longer.set(line);
      line = longer;
    }
    return super.processLine(line, isFinal);
  }
}

/** The MIME tree of the message `bytes` (a Uint8Array): for each part its `type` ("text/plain",
 * lower case), whether a Content-Type header named it (`typed`), its parameters, its disposition and
 * their parameters, its decoded body (`content`, bytes) and its `children`. */
export async function tree(bytes) {
  const parser = new Reader({ rfc822Attachments: true });
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
