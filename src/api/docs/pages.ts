import { escapeHtml } from '../http/html';
import { assetUrl } from './vendor-assets';

const head = (title: string, extra = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>${extra}</head>`;

/** `/`: where a person who opens the service's address in a browser finds the references. */
export function landingPage(operator: string): string {
  return `${head(`${operator} API`, '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}</style>')}<body>
<h1>${escapeHtml(operator)} API</h1>
<ul>
<li><a href="/docs">REST API reference</a> (v1, from <a href="/api/v1/openapi.json">the OpenAPI document</a>)</li>
<li><a href="/graphql">GraphQL explorer</a></li>
</ul></body></html>`;
}

/** `/` to a client that does not ask for HTML (`curl`): where each door and probe is. */
export function entryPoints(operator: string) {
  return {
    name: `${operator} API`,
    rest_api: '/api/v1',
    links: {
      openapi: '/api/v1/openapi.json',
      api_reference: '/docs',
      graphql: '/graphql',
      certificate_verification: '/verify/{code}',
      health: '/healthz',
      readiness: '/readyz',
      metrics: '/metrics',
    },
  };
}

/** `/docs`: Redoc over the served OpenAPI document, with every asset from this service. */
export function referencePage(operator: string): string {
  return `${head(`${operator} REST API reference`)}<body style="margin:0">
<redoc spec-url="/api/v1/openapi.json" hide-download-button="false"></redoc>
<script src="${assetUrl('redoc.standalone.js')}"></script></body></html>`;
}

/**
 * The explorer fills the window. On a narrow screen GraphiQL's side-by-side panes leave the result a sliver, so
 * they stack: the editors above, the result below, each half of the height (the drag bar resizes sideways only).
 */
const EXPLORER_STYLE = `html,body,#graphiql{height:100%;margin:0}
@media (max-width:40rem){.graphiql-container .graphiql-session{flex-direction:column}
.graphiql-container .graphiql-session>div{flex:1 1 0!important;min-height:0}
.graphiql-container .graphiql-horizontal-drag-bar{display:none}}`;

/**
 * GET /graphql from a browser: GraphiQL over this endpoint. The Headers tab sends the bearer key or staff
 * token (`{"Authorization": "Bearer ..."}`); `?query=` opens a query.
 */
export function explorerPage(operator: string, scriptNonce: string): string {
  return `${head(`${operator} GraphQL explorer`, `<link rel="stylesheet" href="${assetUrl('graphiql.min.css')}"><style>${EXPLORER_STYLE}</style>`)}<body>
<div id="graphiql"></div>
<script src="${assetUrl('react.production.min.js')}"></script>
<script src="${assetUrl('react-dom.production.min.js')}"></script>
<script src="${assetUrl('graphiql.min.js')}"></script>
<script nonce="${scriptNonce}">
  const params = new URLSearchParams(location.search);
  const fetcher = GraphiQL.createFetcher({ url: '/graphql' });
  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    React.createElement(GraphiQL, {
      fetcher,
      defaultQuery: params.get('query') || '# Add {"Authorization": "Bearer <your key>"} in Headers below, then run.\\n{\\n  me { id name email status }\\n}\\n',
      defaultEditorToolsVisibility: 'headers',
      shouldPersistHeaders: true,
    }),
  );
</script></body></html>`;
}
