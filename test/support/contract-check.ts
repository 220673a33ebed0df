// Checks a value against a contract schema the strict way. zod drops keys a
// schema does not know and fills in defaults, so a field renamed on one side
// parses "fine" and arrives as its default: here a key that the schema would
// drop is a failure too, with its path.
import { z } from "zod";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Why `value` is not exactly what `schema` describes (does not parse, or carries keys it would drop); empty when it is. */
export function contractViolations(schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value);
  if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
  const dropped: string[] = [];
  const walk = (input: unknown, output: unknown, at: string) => {
    if (Array.isArray(input) && Array.isArray(output)) {
      input.forEach((item, i) => walk(item, output[i], `${at}[${i}]`));
    } else if (isObject(input) && isObject(output)) {
      for (const key of Object.keys(input)) {
        const path = at ? `${at}.${key}` : key;
        if (!(key in output)) dropped.push(`${path}: not in the contract`);
        else walk(input[key], output[key], path);
      }
    }
  };
  walk(value, parsed.data, "");
  return dropped;
}
