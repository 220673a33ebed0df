import { z } from "@hono/zod-openapi";
import { listSchema } from "../lib/lists";

export const EventSchema = z
  .object({
    id: z.string().openapi({ example: "evt_4f9XoT2qLw8bZ1mN3pQ7rS5u" }),
    object: z.literal("event"),
    type: z.string().openapi({ example: "session.processed", description: "`session.processed` or `session.failed`" }),
    created: z.number().int(),
    data: z
      .object({
        object: z.record(z.string(), z.unknown()).openapi({ description: "The full Session object (with `metadata`) as it was when the event was emitted" }),
      })
      .openapi("EventData"),
  })
  .openapi("Event");

export const EventListSchema = listSchema(EventSchema, "EventList");
