import type { FailureReason } from '../errors.ts';

export interface GenerateInput {
  jobId: string;
  /** The sanitized person photo. */
  person: Buffer;
  /** The catalog's reference image of the product variant. */
  reference: Buffer;
  /** Aborted when the job is cancelled or the worker stops. */
  signal: AbortSignal;
}

export interface GeneratedImage {
  image: Buffer;
  mimeType: 'image/jpeg' | 'image/png';
}

/** Turns a person photo plus a product image into a try-on image. */
export interface Generator {
  readonly kind: string;
  generate(input: GenerateInput): Promise<GeneratedImage>;
}

/** A failure the client may learn about, as one of the safe reason codes. */
export class GenerationError extends Error {
  constructor(
    readonly reason: FailureReason,
    detail: string,
  ) {
    super(detail);
  }
}
