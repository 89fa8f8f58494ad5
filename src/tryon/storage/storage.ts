/** Where try-on media lives. One interface, two adapters (local files, S3), chosen by config. */
export interface UploadTarget {
  key: string;
  bytes: number;
  mimeType: string;
  /** base64 SHA-256 of the exact bytes the client will PUT. */
  checksumSha256: string;
  expiresAt: Date;
}

export interface MediaStorage {
  readonly kind: 'local' | 's3';
  /** The storage provider's own header name for the SHA-256 checksum of a PUT. */
  readonly checksumHeader: string;
  /** A signed PUT URL that accepts exactly this object once, until expiresAt. */
  uploadUrl(target: UploadTarget, baseUrl: string): Promise<string>;
  /** A signed GET URL for `key`, valid until expiresAt. */
  downloadUrl(key: string, expiresAt: Date, baseUrl: string): Promise<string>;
  get(key: string): Promise<Buffer | null>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** The origin of the signed URLs, or null when they are the service's own: a page using them must allow it. */
  urlOrigin(): Promise<string | null>;
}
