/**
 * Writes small MaxMind DB files (the format of IP-to-city databases, "MaxMind DB File Format
 * Specification" 2.0) for tests: an IPv6 tree (IPv4 networks under ::/96, where readers look
 * them up), 32-bit records, a data section of maps, strings and numbers, and the metadata. So tests
 * decide which address lies where instead of depending on a monthly database.
 */
import ipaddr from 'ipaddr.js';

type Value = string | number | bigint | Value[] | { [key: string]: Value };

export interface MmdbNetwork {
  /** `81.2.69.0/24` or `2a02:8108::/32`. */
  cidr: string;
  data: { [key: string]: Value };
}

const TYPE = { string: 2, double: 3, uint32: 6, map: 7, uint64: 9, array: 11 } as const;

function control(type: number, size: number): Buffer {
  const [sizeBits, extra] =
    size < 29 ? [size, []] : size < 285 ? [29, [size - 29]] : size < 65_821 ? [30, [(size - 285) >> 8, (size - 285) & 255]] : [31, [(size - 65_821) >> 16, ((size - 65_821) >> 8) & 255, (size - 65_821) & 255]];
  // Types above 7 are "extended": type bits 0, the type minus 7 in the next byte.
  return Buffer.from(type <= 7 ? [(type << 5) | sizeBits, ...extra] : [sizeBits, type - 7, ...extra]);
}

function unsigned(type: number, value: bigint): Buffer {
  const bytes: number[] = [];
  for (let v = value; v > 0n; v >>= 8n) bytes.unshift(Number(v & 255n));
  return Buffer.concat([control(type, bytes.length), Buffer.from(bytes)]);
}

function encode(value: Value): Buffer {
  if (typeof value === 'string') {
    const text = Buffer.from(value);
    return Buffer.concat([control(TYPE.string, text.length), text]);
  }
  if (typeof value === 'bigint') return unsigned(TYPE.uint64, value);
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= 0 && value < 2 ** 32) return unsigned(TYPE.uint32, BigInt(value));
    const double = Buffer.alloc(8);
    double.writeDoubleBE(value);
    return Buffer.concat([control(TYPE.double, 8), double]);
  }
  if (Array.isArray(value)) return Buffer.concat([control(TYPE.array, value.length), ...value.map(encode)]);
  const entries = Object.entries(value);
  return Buffer.concat([control(TYPE.map, entries.length), ...entries.flatMap(([key, v]) => [encode(key), encode(v)])]);
}

/** The network's bits in the IPv6 tree and its prefix length there. */
function bitsOf(cidr: string): { bits: number[]; prefix: number } {
  const [address, prefix] = ipaddr.parseCIDR(cidr);
  const bytes = address.kind() === 'ipv4' ? [...Array(12).fill(0), ...address.toByteArray()] : address.toByteArray();
  const bits = bytes.flatMap((byte) => Array.from({ length: 8 }, (_, i) => (byte >> (7 - i)) & 1));
  return { bits, prefix: address.kind() === 'ipv4' ? 96 + prefix : prefix };
}

type Slot = { node: number } | { data: number } | null;

export function writeMmdb(options: { databaseType: string; networks: MmdbNetwork[]; buildEpoch?: number }): Buffer {
  const nodes: [Slot, Slot][] = [[null, null]];
  const data: Buffer[] = [];
  const offsets: number[] = [];
  let dataSize = 0;
  for (const network of options.networks) {
    const encoded = encode(network.data);
    offsets.push(dataSize);
    data.push(encoded);
    dataSize += encoded.length;
    const { bits, prefix } = bitsOf(network.cidr);
    let node = 0;
    for (let depth = 0; depth < prefix - 1; depth++) {
      const side = bits[depth]!;
      let next = nodes[node]![side];
      if (!next || !('node' in next)) {
        nodes.push([null, null]);
        next = { node: nodes.length - 1 };
        nodes[node]![side] = next;
      }
      node = next.node;
    }
    nodes[node]![bits[prefix - 1]!] = { data: offsets.length - 1 };
  }
  const nodeCount = nodes.length;
  const tree = Buffer.alloc(nodeCount * 8);
  nodes.forEach((slots, i) => slots.forEach((slot, side) => {
    // A record is a node number, the node count for "no data", or node count + 16 + data offset.
    const record = slot === null ? nodeCount : 'node' in slot ? slot.node : nodeCount + 16 + offsets[slot.data]!;
    tree.writeUInt32BE(record, i * 8 + side * 4);
  }));
  const metadata = encode({
    node_count: nodeCount,
    record_size: 32,
    ip_version: 6,
    database_type: options.databaseType,
    languages: ['en'],
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: BigInt(options.buildEpoch ?? Math.floor(Date.UTC(2026, 10, 1) / 1000)),
    description: { en: 'Storelens test database' },
  });
  // The specification's uint16 fields are written as uint32: readers take any unsigned width.
  return Buffer.concat([tree, Buffer.alloc(16), ...data, Buffer.from([0xab, 0xcd, 0xef]), Buffer.from('MaxMind.com'), metadata]);
}
