// The introductions at the top of the two API references (/docs and /docs/runner), in Markdown.

export const PUBLIC_OPENAPI_PATH = "/v1/openapi.json";
export const RUNNER_OPENAPI_PATH = "/runner/v1/openapi.json";

export const PUBLIC_API_DESCRIPTION = `Send video of one basketball game; get back, asynchronously, highlight clips, shots, players with box scores, team totals, video renditions and raw model output — paid from a prepaid credit balance.

**Authentication.** Every \`/v1\` request carries \`Authorization: Bearer <API key>\` (\`hk_prod_…\` in production, \`hk_stg_…\` in staging). Keys belong on servers only.

**Flow.** Reserve an upload (\`POST /v1/uploads\`) and send the file to its \`upload_url\`, or pass a public link; submit with \`POST /v1/sessions\`; learn of completion from a webhook (\`session.processed\`, \`session.failed\`) or by polling \`GET /v1/sessions/{id}\`. To show the result to people without an API key, make a share link with \`POST /v1/sessions/{id}/share_links\`: it opens the session's hub page (progress, game video, highlights, shot chart, box scores).

**Conventions.** JSON bodies; money in integer cents; times in integer Unix seconds; every list is \`{object: "list", data, has_more, total_count}\`. Errors are \`{error: {type, code, message, param?}}\` with a \`Request-Id\` header; paths take no trailing slash (\`/v1/sessions/\` is a 404 naming \`/v1/sessions\`); 60 requests per minute per key (429 with \`Retry-After\` beyond). Media links in answers are signed and expire after 7 days: read the session again for fresh ones.

AI assistants use the same API through the tool server at \`/mcp\` (MCP, Streamable HTTP).`;

export const RUNNER_API_DESCRIPTION = `For operators: the API that GPU runners (\`npm run runner\`) pull work from. Runners authenticate with a runner token (\`hr_…\`, minted with \`npm run ops -- runner-token:create\`) and only make outbound HTTPS requests, so they can run anywhere.

**Lifecycle.** \`claim\` long-polls for a job and leases it; \`heartbeat\` renews the lease (about every half lease; the answer can ask the runner to \`cancel\`); \`measured\` reports the probed length before any analysis (the hold is raised to the measured cost, or, when the balance cannot cover it, the session fails and the answer says \`proceed: false\`: stop); \`outputs\` reserves a resumable upload per result file; then exactly one of \`complete\` (with the analysis result), \`fail\` (with an error code) or \`release\` (hand the job back, e.g. on shutdown). A lease that expires makes the job claimable again; a stale lease gets \`409 lease_lost\`.`;

export const OPERATOR_API_DESCRIPTION = `For operators: organizations, API keys, credits, auto-recharge, top-up links, runner tokens and test events (\`npm run ops\` calls it). Every route takes the operator token (\`OPERATOR_TOKEN\`, 16 characters or more) as a bearer token; a missing or wrong token is \`401 invalid_operator_token\`, and the whole API answers \`500 service_misconfigured\` while the secret is unset. The operator token has no rate limit.`;
