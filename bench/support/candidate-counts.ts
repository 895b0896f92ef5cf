/**
 * Counting the candidates and provider summaries in a GET /allocation_candidates answer
 * (microversion 1.29+) without parsing it, for load generators that read big answers on the
 * same cores the server runs on.
 */

/** Occurrences of `needle` in `text`. */
export function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    count++;
  }
  return count;
}

/**
 * Candidates and summaries in an answer (1.29+), counted in the text: each allocation
 * request has exactly one "allocations" key and each summary one "root_provider_uuid" (no
 * uuid or name can hold a quote). A full JSON.parse of a 1,000-provider answer costs the
 * load generator ~5 ms of the same two cores the server runs on, more than the server
 * spends on the request, so callers parse only some answers whole (`parse`: the parsed body is
 * returned too); a parsed answer whose counts disagree with the text's gives -1 for both.
 */
export function candidateCounts(
  text: string,
  parse: boolean,
  // biome-ignore lint/suspicious/noExplicitAny: the parsed answer, when `parse`
): { requests: number; summaries: number; body?: any } {
  const requests = occurrences(text, '"allocations":');
  const summaries = occurrences(text, '"root_provider_uuid":');
  if (parse) {
    const body = JSON.parse(text);
    const parsed = {
      requests: body.allocation_requests.length,
      summaries: Object.keys(body.provider_summaries).length,
    };
    if (parsed.requests !== requests || parsed.summaries !== summaries)
      return { requests: -1, summaries: -1 };
    return { requests, summaries, body };
  }
  return { requests, summaries };
}
