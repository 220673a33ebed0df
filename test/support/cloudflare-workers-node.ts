// `cloudflare:workers` for the Node test projects that load Worker modules (test/lint builds the
// OpenAPI documents from worker/apis.ts): the Durable Object classes only extend `DurableObject`
// there, none is constructed, so the base class is all they need. vitest.config.ts aliases it.
export class DurableObject {
  constructor(
    readonly ctx: unknown,
    readonly env: unknown,
  ) {}
}
