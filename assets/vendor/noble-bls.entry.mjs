import { bls12_381 } from "@noble/curves/bls12-381.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { hexToBytes } from "@noble/hashes/utils.js";
// drand quicknet (bls-unchained-g1-rfc9380): the signature of round r is a G1 point over
// SHA-256(u64be(r)), checked against the chain's G2 public key.
export function verifyQuicknet(round, signatureHex, publicKeyHex) {
  const sig = bls12_381.shortSignatures;
  const r = new Uint8Array(8);
  let v = BigInt(round);
  for (let i = 7; i >= 0; i--) { r[i] = Number(v & 255n); v >>= 8n; }
  return sig.verify(hexToBytes(signatureHex), sig.hash(sha256(r)), hexToBytes(publicKeyHex));
}
