// One object per (organization, Idempotency-Key). Implemented with the
// sessions work; the class is declared now so the binding and its migration
// exist from the first deployment.
import { DurableObject } from "cloudflare:workers";

export class IdempotencyKey extends DurableObject {}
