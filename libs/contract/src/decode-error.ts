import { Failure } from '@devtrail/failures';

/** A message that can never be decoded: permanent, so the consumer dead-letters it. */
export class DecodeError extends Failure {
  constructor(message: string) {
    super(message, false);
  }
}

/** A message of a schema version this build does not know (a newer receiver's): the consumer decides (docs/topics.md, "Evolution"). */
export class UnsupportedVersion extends DecodeError {
  constructor(readonly version: number) {
    super(`unsupported schema_version ${version}`);
  }
}
