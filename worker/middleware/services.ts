import { createMiddleware } from "hono/factory";
import type { AppEnv, Env, Services } from "../env";
import { ApiError } from "../errors";
import { openDatabase } from "../lib/database";
import { HttpClient, runtimeFetch } from "../services/http-client";
import { DEFAULT_DOH_URL, DohResolver } from "../../contract/url-policy";

export function buildServices(env: Env, now: () => number = () => Math.floor(Date.now() / 1000)): Services {
  const environment = env.ENVIRONMENT === "production" ? "production" : "staging";
  const allowLoopbackUrls = env.ALLOW_LOOPBACK_URLS === "true";
  // The loopback escape hatch exists for local development only. A production
  // deployment that has it switched on fails closed rather than running with
  // its SSRF protection weakened.
  // The same for the local stand-in for Stripe: checkout pages anyone could "pay".
  if ((allowLoopbackUrls || env.LOCAL_PAYMENTS === "true") && environment === "production") {
    throw new ApiError("service_misconfigured", "This deployment is misconfigured. The operator has been notified.");
  }
  // The one outbound client; the DoH resolver behind its URL checks uses the same runtime fetch.
  const http = new HttpClient(new DohResolver(env.DOH_URL || DEFAULT_DOH_URL, runtimeFetch), allowLoopbackUrls);
  return { db: openDatabase(env.DB), env, environment, http, now };
}

/** Checks the bindings once per request and hands handlers their services. */
export const services = createMiddleware<AppEnv>(async (c, next) => {
  c.set("services", buildServices(c.env));
  await next();
});
