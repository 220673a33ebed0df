// The tus rules of one upload target, without a Durable Object, storage or R2
// (worker/durable-objects/tus-buffer.ts); upload.test.ts drives the same rules through the object.
import { describe, expect, it } from "vitest";
import {
  allBytesLanded,
  bufferRows,
  closedTargetRefusal,
  durableOffset,
  offsetRefusal,
  overflowRefusal,
  PartBuffer,
  patchLimit,
  singlePutRefusal,
  singlePutSizeRefusal,
} from "../../worker/durable-objects/tus-buffer";
import { MAX_CHUNK_BYTES, MAX_SINGLE_PUT_BYTES, type TusTargetSpec } from "../../worker/lib/tus";

const bytes = (from: number, length: number) => Uint8Array.from({ length }, (_, i) => (from + i) % 256);
const spec = (over: Partial<TusTargetSpec> = {}): TusTargetSpec => ({
  id: "up_test",
  kind: "customer_upload",
  orgId: "org_test",
  r2Key: "uploads/up_test",
  size: 1000,
  contentType: "video/mp4",
  expiresAt: 2_000_000_000,
  ...over,
});

describe("PartBuffer", () => {
  it("cuts whole parts off the front in arrival order, the stored remainder first", () => {
    const buffer = new PartBuffer([bytes(0, 3)], 4);
    buffer.push(bytes(3, 2));
    expect(buffer.bytes).toBe(5);
    expect([...buffer.takePart()!]).toEqual([0, 1, 2, 3]);
    expect(buffer.takePart()).toBeNull();
    buffer.push(bytes(5, 7));
    expect([...buffer.takePart()!]).toEqual([4, 5, 6, 7]);
    expect([...buffer.takePart()!]).toEqual([8, 9, 10, 11]);
    expect(buffer.takePart()).toBeNull();
    expect(buffer.bytes).toBe(0);
  });

  it("asks to store only the bytes storage does not have: none of the old remainder while no part took it", () => {
    const buffer = new PartBuffer([bytes(0, 2), bytes(2, 1)], 8);
    buffer.push(bytes(3, 2));
    expect([...buffer.unstoredTail()]).toEqual([3, 4]);
  });

  it("once a part took the stored remainder, everything left is to be stored", () => {
    const buffer = new PartBuffer([bytes(0, 3)], 4);
    buffer.push(bytes(3, 3));
    buffer.takePart();
    expect([...buffer.unstoredTail()]).toEqual([4, 5]);
  });

  it("never changes the stored chunks it was given", () => {
    const stored = [bytes(0, 3)];
    const buffer = new PartBuffer(stored, 2);
    buffer.takePart();
    expect(stored).toHaveLength(1);
    expect([...stored[0]]).toEqual([0, 1, 2]);
  });
});

describe("offsets and rows", () => {
  it("counts parts and the stored remainder until complete, then the whole size", () => {
    expect(durableOffset(spec(), "pending", 2, 7, 100)).toBe(207);
    expect(durableOffset(spec(), "expired", 0, 0, 100)).toBe(0);
    expect(durableOffset(spec(), "complete", 0, 0, 100)).toBe(1000);
    expect(allBytesLanded(spec(), 9, 100, 100)).toBe(true);
    expect(allBytesLanded(spec(), 9, 99, 100)).toBe(false);
  });

  it("splits a remainder into rows of at most the row size, bytes unchanged", () => {
    const rows = bufferRows(bytes(0, 10), 4);
    expect(rows.map((r) => r.byteLength)).toEqual([4, 4, 2]);
    expect(rows.flatMap((r) => [...r])).toEqual([...bytes(0, 10)]);
    expect(bufferRows(new Uint8Array(0), 4)).toEqual([]);
  });

  it("lets one PATCH add what the file lacks, never more than a chunk", () => {
    expect(patchLimit(spec({ size: 1000 }), 400)).toBe(600);
    expect(patchLimit(spec({ size: MAX_CHUNK_BYTES * 3 }), 0)).toBe(MAX_CHUNK_BYTES);
  });
});

describe("refusals", () => {
  it("refuses writes to a missing, expired or terminated target and admits a pending one", () => {
    expect(closedTargetRefusal(undefined, "pending", 0)?.code).toBe("resource_missing");
    expect(closedTargetRefusal(spec(), "expired", 0)?.code).toBe("upload_expired");
    expect(closedTargetRefusal(spec({ expiresAt: 100 }), "pending", 100)?.code).toBe("upload_expired");
    expect(closedTargetRefusal(spec(), "terminated", 0)?.code).toBe("resource_missing");
    expect(closedTargetRefusal(spec({ expiresAt: 100 }), "pending", 99)).toBeNull();
    expect(closedTargetRefusal(spec({ expiresAt: 100 }), "complete", 500)).toBeNull();
  });

  it("names both offsets when the client's is not the server's", () => {
    expect(offsetRefusal(5, 5)).toBeNull();
    const refusal = offsetRefusal(7, 5)!;
    expect(refusal.code).toBe("upload_offset_mismatch");
    expect(refusal.message).toContain("Upload-Offset is 7 but the server has 5 bytes");
  });

  it("says past Upload-Length when the file lacked less than a chunk, else names a chunk size", () => {
    expect(overflowRefusal(spec(), 600, 1000).message).toContain("goes past Upload-Length (1000 bytes); bytes up to offset 1000 were kept");
    const big = overflowRefusal(spec({ size: MAX_CHUNK_BYTES * 2 }), MAX_CHUNK_BYTES * 2, 12);
    expect(big.code).toBe("payload_too_large");
    expect(big.message).toContain("from offset 12 in chunks of");
  });

  it("judges a single PUT by type, size limit, Content-Length and body, in that order", () => {
    const put = (over: Partial<{ contentType: string | null; contentLength: number | null; hasBody: boolean }>, s = spec()) =>
      singlePutRefusal(s, { contentType: "video/mp4", contentLength: 1000, hasBody: true, ...over });
    expect(put({})).toBeNull();
    expect(put({ contentType: "Video/MP4; codecs=avc1" })).toBeNull();
    expect(put({ contentType: "video/quicktime", contentLength: 1 })?.code).toBe("upload_content_type_mismatch");
    expect(put({ contentType: null })?.message).toContain("Content-Type is missing");
    expect(put({}, spec({ size: MAX_SINGLE_PUT_BYTES + 1 }))?.code).toBe("payload_too_large");
    expect(put({ contentLength: 999 })?.message).toContain("Content-Length is 999");
    expect(put({ contentLength: null })).toBeNull();
    expect(put({ hasBody: false })?.message).toContain("no body");
    expect(singlePutSizeRefusal(spec(), 10).message).toContain("ended after 10 bytes, short of the 1000");
    expect(singlePutSizeRefusal(spec(), 1001).message).toContain("is longer than the 1000");
  });
});
