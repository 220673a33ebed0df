// A small client of the operator API (/admin/v1), shared by the ops CLI,
// `npm start` seeding and tests.
export class OperatorClient {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
  ) {}

  async request<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${this.token}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    let parsed: any;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = { raw: text };
    }
    if (!res.ok) {
      const err = parsed?.error;
      throw new Error(`${method} ${path} failed: ${res.status} ${err?.code ?? ""} ${err?.message ?? text}`.trim());
    }
    return parsed as T;
  }

  createOrganization(name: string) {
    return this.request("POST", "/admin/v1/organizations", { name });
  }
  createGroup(orgId: string, name: string) {
    return this.request("POST", `/admin/v1/organizations/${orgId}/groups`, { name });
  }
  createApiKey(orgId: string, name?: string) {
    return this.request("POST", `/admin/v1/organizations/${orgId}/api_keys`, name ? { name } : {});
  }
  revokeApiKey(keyId: string) {
    return this.request("DELETE", `/admin/v1/api_keys/${keyId}`);
  }
  addCredits(orgId: string, grant: { amount_cents: number; source?: string; expires_at?: number; note?: string }) {
    return this.request("POST", `/admin/v1/organizations/${orgId}/credits`, grant);
  }
  createTopUpLink(orgId: string, amountCents: number) {
    return this.request("POST", `/admin/v1/organizations/${orgId}/top_up_links`, { amount_cents: amountCents });
  }
  getTopUpLink(id: string) {
    return this.request("GET", `/admin/v1/top_up_links/${id}`);
  }
  createRunnerToken(name?: string) {
    return this.request("POST", "/admin/v1/runner_tokens", name ? { name } : {});
  }
  revokeRunnerToken(id: string) {
    return this.request("DELETE", `/admin/v1/runner_tokens/${id}`);
  }
}
