/**
 * What a request Node's HTTP parser refused (or one that took too long to arrive) is answered,
 * whatever the service: the status and a sentence; each service puts them in its own format.
 */
import { maxHeaderSize } from 'node:http';

/** A parser error as Node raises it (`code`, and `reason` for llhttp's). */
export type ParserError = Error & { code?: string; reason?: string };

/** The status and message of a request the parser refused. */
export function parserRefusal(error: ParserError): { status: number; message: string } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        message: `The request line and headers exceed ${maxHeaderSize} bytes.`,
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'The request was not received in time.' };
    default:
      return {
        status: 400,
        message: `Malformed HTTP request: ${error.reason ?? error.message}.`,
      };
  }
}
