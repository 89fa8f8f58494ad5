import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { TryOnConfig } from '../../config.ts';
import type { MediaStorage, UploadTarget } from './storage.ts';

const seconds = (until: Date) => Math.max(1, Math.round((until.getTime() - Date.now()) / 1000));

/**
 * Scale-out mode: an S3-compatible bucket. Upload URLs are presigned PUTs that sign the length,
 * the Content-Type, the SHA-256 checksum header and `If-None-Match: *`, so the bucket itself
 * refuses a different body or a second write. Reads are presigned GETs.
 */
export function createS3Storage(config: TryOnConfig['s3'], client?: S3Client): MediaStorage {
  const s3 =
    client ??
    new S3Client({
      region: config.region,
      endpoint: config.endpoint ?? undefined,
      forcePathStyle: config.forcePathStyle,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      credentials:
        config.accessKeyId && config.secretAccessKey
          ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
          : undefined,
    });
  const Bucket = config.bucket;
  let origin: string | undefined;
  return {
    kind: 's3',
    checksumHeader: 'x-amz-checksum-sha256',
    async uploadUrl(target: UploadTarget) {
      const command = new PutObjectCommand({
        Bucket,
        Key: target.key,
        ContentType: target.mimeType,
        ContentLength: target.bytes,
        ChecksumSHA256: target.checksumSha256,
        IfNoneMatch: '*',
      });
      return getSignedUrl(s3, command, {
        expiresIn: seconds(target.expiresAt),
        unhoistableHeaders: new Set(['x-amz-checksum-sha256', 'if-none-match']),
        signableHeaders: new Set(['content-type', 'content-length']),
      });
    },
    async downloadUrl(key: string, expiresAt: Date) {
      return getSignedUrl(s3, new GetObjectCommand({ Bucket, Key: key }), { expiresIn: seconds(expiresAt) });
    },
    async get(key) {
      try {
        const response = await s3.send(new GetObjectCommand({ Bucket, Key: key }));
        return Buffer.from(await response.Body!.transformToByteArray());
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return null;
        throw error;
      }
    },
    async put(key, body, contentType) {
      await s3.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType }));
    },
    async delete(key) {
      await s3.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    // Presigning is local (no request), and it resolves the endpoint exactly as real URLs do.
    async urlOrigin() {
      origin ??= new URL(await getSignedUrl(s3, new GetObjectCommand({ Bucket, Key: 'origin' }), { expiresIn: 60 })).origin;
      return origin;
    },
  };
}
