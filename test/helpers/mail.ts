/**
 * D30: an e-mail is read by a person, who cannot call an API: it links to a page of the service and names the API only
 * in the API's own documentation. What in `text` reads as API wording (an /api/ path, an HTTP verb, GraphQL or one of
 * its camelCase operation names); empty when it is worded for people.
 */
export function apiWordingIn(text: string): string[] {
  return [/\/api\/\S*/g, /\bGraphQL\b/gi, /\b(?:GET|POST|PUT|PATCH|DELETE)\b/g, /\b[a-z]+(?:[A-Z][a-z]+)+\b/g].flatMap(
    (pattern) => text.match(pattern) ?? [],
  );
}
