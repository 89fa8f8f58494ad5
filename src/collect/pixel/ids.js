// Visitor and session ids of the browser scripts that post to /collect (docs/collection.md section 1,
// "Identity and sessions"): the pixel, the Shopify custom pixel, the try-on tracking module.

// A random positive integer below 2^52: exact as a JS number, fits UInt64.
export function randomId() {
  var a = new Uint32Array(2);
  crypto.getRandomValues(a);
  return String((a[0] & 0xfffff) * 4294967296 + a[1] + 1);
}

var MAX_MINUTES = 0x3ffffff; // 26 bits: until 2097
var TWO_38_HIGH = 27487, TWO_38_LOW = 7906944; // 2^38 = 27487 * 10^7 + 7906944

// A new session id: the whole minutes since the Unix epoch of `ms` above 38 random bits, as the
// digits of a 64-bit integer. Ids that grow with time keep a flush's part of `sessions` to a narrow
// key range (docs/performance.md, "Time-ordered session ids"). Composed from parts below 2^53 in
// base 10^7, not with BigInt, which Safari before 14 lacks. A clock before 1970 or after 2097 is
// held at the ends, so the id stays above 0 and within 64 bits, which the collector requires.
export function sessionId(ms) {
  var minutes = Math.min(Math.max(Math.floor(ms / 60000), 1), MAX_MINUTES);
  var a = new Uint32Array(2);
  crypto.getRandomValues(a);
  var random = (a[0] & 0x3f) * 4294967296 + a[1];
  var low = minutes * TWO_38_LOW + random % 1e7;
  var high = minutes * TWO_38_HIGH + Math.floor(random / 1e7) + Math.floor(low / 1e7);
  return String(high) + String(1e7 + low % 1e7).slice(1);
}
