#!/usr/bin/env -S npx tsx
// Operator CLI: manages organizations, API keys, credits, card top-up links, auto-recharge and runner tokens
// through the operator API. Works against the local stack (defaults read from
// .local/dev.json) or a deployed Worker (--url and --token, or the
// HOOPS_API_URL and HOOPS_OPERATOR_TOKEN environment variables).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { OperatorClient } from "./lib/operator-client";
import { ROOT } from "./lib/local-stack";

const USAGE = `Usage: npm run ops -- <command> [options]

Commands:
  org:create --name NAME                      create an organization (with its default group)
  group:create --org ORG_ID --name NAME       create a group in an organization
  key:create --org ORG_ID [--name NAME]       mint an API key (plaintext printed once)
  key:revoke KEY_ID                           revoke an API key, effective immediately
  credits:add --org ORG_ID --cents N [--source invoice|card_top_up|promotional|manual]
              [--expires-at UNIX_SECONDS] [--note TEXT]
                                              add credit (default expiry: one year)
  top-up:create --org ORG_ID --cents N         a card top-up link (Stripe Checkout; locally, the stand-in)
                                              for N cents: send the printed URL to the payer; paying it adds
                                              N cents once, on the provider's signed confirmation (24 h)
  top-up:get LINK_ID                          a top-up link's status (open, paid, expired)
  auto-recharge:set --org ORG_ID --threshold-cents N --amount-cents N --customer cus_… --payment-method pm_…
                                              charge N cents off-session (at most hourly) when a settle
                                              leaves available credit below the threshold
  auto-recharge:disable --org ORG_ID          switch auto-recharge off
  runner-token:create [--name NAME]           mint a GPU runner token (plaintext printed once)
  runner-token:revoke TOKEN_ID                revoke a runner token

Options:
  --url URL        API base URL     (default: $HOOPS_API_URL, else .local/dev.json)
  --token TOKEN    operator secret  (default: $HOOPS_OPERATOR_TOKEN, else .local/dev.json)
  --json           print the raw JSON answer
`;

function localDefaults(): { base_url?: string; operator_token?: string } {
  const file = path.join(ROOT, ".local/dev.json");
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: "string" },
      token: { type: "string" },
      json: { type: "boolean", default: false },
      name: { type: "string" },
      org: { type: "string" },
      cents: { type: "string" },
      source: { type: "string" },
      "expires-at": { type: "string" },
      note: { type: "string" },
      "threshold-cents": { type: "string" },
      "amount-cents": { type: "string" },
      customer: { type: "string" },
      "payment-method": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [command, arg] = positionals;
  if (!command || values.help) {
    process.stdout.write(USAGE);
    return command ? 0 : 1;
  }
  const defaults = localDefaults();
  const url = values.url ?? process.env.HOOPS_API_URL ?? defaults.base_url;
  const token = values.token ?? process.env.HOOPS_OPERATOR_TOKEN ?? defaults.operator_token;
  if (!url || !token) {
    process.stderr.write("No API URL or operator token: pass --url and --token, or run `npm start` first.\n");
    return 1;
  }
  const client = new OperatorClient(url.replace(/\/$/, ""), token);
  const need = (value: string | undefined, flag: string): string => {
    if (!value) throw new Error(`${command} needs ${flag}`);
    return value;
  };

  let result: any;
  let summary: (r: any) => string;
  switch (command) {
    case "org:create":
      result = await client.createOrganization(need(values.name, "--name"));
      summary = (r) => `Organization ${r.id} (default group ${r.default_group})`;
      break;
    case "group:create":
      result = await client.createGroup(need(values.org, "--org"), need(values.name, "--name"));
      summary = (r) => `Group ${r.id} in ${r.organization}`;
      break;
    case "key:create":
      result = await client.createApiKey(need(values.org, "--org"), values.name);
      summary = (r) => `API key ${r.id} (${r.environment}). Store it now; it is not shown again:\n${r.key}`;
      break;
    case "key:revoke":
      result = await client.revokeApiKey(need(arg, "KEY_ID"));
      summary = (r) => `Revoked ${r.id}`;
      break;
    case "credits:add": {
      const cents = Number(need(values.cents, "--cents"));
      if (!Number.isInteger(cents) || cents <= 0) throw new Error("--cents must be a positive integer");
      result = await client.addCredits(need(values.org, "--org"), {
        amount_cents: cents,
        ...(values.source ? { source: values.source } : {}),
        ...(values["expires-at"] ? { expires_at: Number(values["expires-at"]) } : {}),
        ...(values.note ? { note: values.note } : {}),
      });
      summary = (r) => `Added ${r.amount_cents} cents to ${r.organization} (grant ${r.id}, expires ${new Date(r.expires_at * 1000).toISOString()})`;
      break;
    }
    case "top-up:create": {
      const cents = Number(need(values.cents, "--cents"));
      if (!Number.isInteger(cents) || cents <= 0) throw new Error("--cents must be a positive integer");
      result = await client.createTopUpLink(need(values.org, "--org"), cents);
      summary = (r) => `Top-up link ${r.id}: ${r.amount_cents} cents for ${r.organization}, open until ${new Date(r.expires_at * 1000).toISOString()}. Send the payer:\n${r.url}`;
      break;
    }
    case "top-up:get":
      result = await client.getTopUpLink(need(arg, "LINK_ID"));
      summary = (r) => `Top-up link ${r.id}: ${r.amount_cents} cents for ${r.organization}, ${r.status}${r.credit_grant ? ` (grant ${r.credit_grant})` : ""}`;
      break;
    case "auto-recharge:set": {
      const cents = (flag: "--threshold-cents" | "--amount-cents", value: string | undefined) => {
        const n = Number(need(value, flag));
        if (!Number.isInteger(n) || n < 0) throw new Error(`${flag} must be a non-negative integer`);
        return n;
      };
      result = await client.request("PATCH", `/admin/v1/organizations/${need(values.org, "--org")}/auto_recharge`, {
        enabled: true,
        threshold_cents: cents("--threshold-cents", values["threshold-cents"]),
        amount_cents: cents("--amount-cents", values["amount-cents"]),
        payment_customer_id: need(values.customer, "--customer"),
        payment_method_id: need(values["payment-method"], "--payment-method"),
      });
      summary = (r) => `Auto-recharge on for ${r.organization}: ${r.amount_cents} cents when available credit falls below ${r.threshold_cents} cents`;
      break;
    }
    case "auto-recharge:disable":
      result = await client.request("PATCH", `/admin/v1/organizations/${need(values.org, "--org")}/auto_recharge`, { enabled: false });
      summary = (r) => `Auto-recharge off for ${r.organization}`;
      break;
    case "runner-token:create":
      result = await client.createRunnerToken(values.name);
      summary = (r) => `Runner token ${r.id}. Store it now; it is not shown again:\n${r.token}`;
      break;
    case "runner-token:revoke":
      result = await client.revokeRunnerToken(need(arg, "TOKEN_ID"));
      summary = (r) => `Revoked ${r.id}`;
      break;
    default:
      process.stderr.write(`Unknown command: ${command}\n\n${USAGE}`);
      return 1;
  }
  process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : `${summary(result)}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`Error: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
