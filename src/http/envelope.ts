// The response envelope of seed 2.1, used by every answer.

/** The JSON body of every API answer. */
export interface Envelope {
  status: 'success' | 'error';
  statusCode: number;
  result: { module: string; message: string; content: unknown };
}

/** Builds the envelope for `statusCode`; 2xx/3xx are `success`, the rest `error`. */
export function envelope(statusCode: number, module: string, message: string, content: unknown): Envelope {
  return { status: statusCode < 400 ? 'success' : 'error', statusCode, result: { module, message, content } };
}

/** JSON.stringify(envelope(...)) byte for byte, around content that is already JSON. */
export function envelopeJson(statusCode: number, module: string, message: string, contentJson: string): string {
  const status = statusCode < 400 ? 'success' : 'error';
  return `{"status":"${status}","statusCode":${statusCode},"result":{"module":${JSON.stringify(module)},"message":${JSON.stringify(message)},"content":${contentJson}}}`;
}
