// gRPC's status of a call from what HTTP/2 gave: its grpc-status trailer (or the HTTP status, by
// gRPC's http-grpc-status-mapping), or the error code of a reset.

/** gRPC status names by code (the gRPC spec's table). */
export const GRPC_STATUS_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
] as const;

/** A gRPC status from its trailer, or (no grpc-status) from the HTTP status (gRPC's http-grpc-status-mapping). */
export function grpcStatusOf(grpcStatus: string | undefined, httpStatus: number): string {
  if (grpcStatus !== undefined) {
    const code = /^\d{1,3}$/.test(grpcStatus) ? Number(grpcStatus) : NaN;
    return GRPC_STATUS_NAMES[code] ?? `status-${grpcStatus.slice(0, 16)}`;
  }
  if (httpStatus === 200) return 'UNKNOWN';
  if (httpStatus === 400) return 'INTERNAL';
  if (httpStatus === 401) return 'UNAUTHENTICATED';
  if (httpStatus === 403) return 'PERMISSION_DENIED';
  if (httpStatus === 404) return 'UNIMPLEMENTED';
  if (httpStatus === 429 || httpStatus === 502 || httpStatus === 503 || httpStatus === 504) return 'UNAVAILABLE';
  return 'UNKNOWN';
}

/** A reset gRPC call's status (gRPC's mapping of HTTP/2 error codes). */
export function grpcStatusOfReset(code: number): string {
  if (code === 0x7) return 'UNAVAILABLE'; // REFUSED_STREAM: not processed, safe to retry
  if (code === 0x8) return 'CANCELLED';
  if (code === 0xb) return 'RESOURCE_EXHAUSTED'; // ENHANCE_YOUR_CALM
  if (code === 0xc) return 'PERMISSION_DENIED'; // INADEQUATE_SECURITY
  return 'INTERNAL';
}
