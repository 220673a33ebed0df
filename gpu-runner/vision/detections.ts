// One frame's detections, the value that flows from the model wrappers to the basketball rules
// (roboflow/supervision's `Detections`, ../shared/STYLE.md): every box of a frame with its class
// from a closed set, its score and, where a stage measured something about it, extra per-box data
// (the rim watch's `motion` of each ball, the scan's shirt `color` of each person). The helpers are
// pure functions that take detections and return detections, so stages compose and each is tested
// on small arrays. Pure: no model, no decoder (the rules may load it, test/lint/analysis-roles.test.ts).
//
// A frame's detections are a plain array of plain boxes rather than a class over column arrays: they
// cross the model thread by structured clone (vision/model-thread.ts), which keeps data and drops
// prototypes, and the rules read them box by box.
import { boxIou } from "./boxes.ts";

/** What the basketball logic tells apart. A YOLO export's own names are mapped onto these (vision/detector.ts). */
export const DETECTION_CLASSES = ["ball", "rim", "person"] as const;
export type DetectionClass = (typeof DETECTION_CLASSES)[number];

/** One box: centre and size in the pixels of the image it was found in (source pixels once mapped back), and the model's score (0–1). */
export interface Detection {
  className: DetectionClass;
  cx: number;
  cy: number;
  w: number;
  h: number;
  score: number;
}

/** A box of class `C` (as a type). */
export type DetectionOf<C extends DetectionClass> = Detection & { className: C };

/**
 * A frame's detections. `X` is extra data carried by the boxes of the classes `C` (all classes when
 * left out), e.g. `Detections<{ motion: number }, "ball">`: every ball knows its motion, rims and
 * people carry nothing more.
 */
export type Detections<X extends object = object, C extends DetectionClass = DetectionClass> = ReadonlyArray<(DetectionOf<C> & X) | DetectionOf<Exclude<DetectionClass, C>>>;

/** The boxes of one class, in their order (their extra data kept). */
export function ofClass<D extends Detection, C extends DetectionClass>(detections: ReadonlyArray<D>, className: C): Array<D & { className: C }> {
  return detections.filter((d): d is D & { className: C } => d.className === className);
}

/** The boxes scoring at least `min`, in their order. */
export function withMinScore<D extends Detection>(detections: ReadonlyArray<D>, min: number): D[] {
  return detections.filter((d) => d.score >= min);
}

/** The `k` best-scoring boxes, best first (equal scores keep their order). */
export function topK<D extends Detection>(detections: ReadonlyArray<D>, k: number): D[] {
  return [...detections].sort((a, b) => b.score - a.score).slice(0, k);
}

/** The boxes whose centre lies inside `rect` (left and top inclusive). */
export function centredIn<D extends Detection>(detections: ReadonlyArray<D>, rect: { x: number; y: number; w: number; h: number }): D[] {
  return detections.filter((d) => d.cx >= rect.x && d.cx < rect.x + rect.w && d.cy >= rect.y && d.cy < rect.y + rect.h);
}

/**
 * From a letterboxed model input back to source pixels: source = (input − pad) / scale (the
 * letterbox of media/frames.ts, `letterboxFor`).
 */
export function fromLetterbox<D extends Detection>(detections: ReadonlyArray<D>, lb: { scale: number; padX: number; padY: number }): D[] {
  return detections.map((d) => ({ ...d, cx: (d.cx - lb.padX) / lb.scale, cy: (d.cy - lb.padY) / lb.scale, w: d.w / lb.scale, h: d.h / lb.scale }));
}

/**
 * From a region cut out of a frame and resampled to a model input back to source pixels: the
 * region's corner is at (x, y) in source pixels and one input pixel is `k` source pixels.
 */
export function fromRegion<D extends Detection>(detections: ReadonlyArray<D>, region: { x: number; y: number }, k: number): D[] {
  return detections.map((d) => ({ ...d, cx: region.x + d.cx * k, cy: region.y + d.cy * k, w: d.w * k, h: d.h * k }));
}

/** A box given by its corners [x1, y1, x2, y2]. */
export function fromXyxy(className: DetectionClass, [x1, y1, x2, y2]: readonly [number, number, number, number], score: number): Detection {
  return { className, cx: (x1 + x2) / 2, cy: (y1 + y2) / 2, w: x2 - x1, h: y2 - y1, score };
}

/** Like Ultralytics' max_det: bounds the cost of suppression when a frame lights up everywhere (e.g. a jersey-coloured wall). */
export const NMS_DEFAULTS = {
  /** Only this many best-scoring boxes are considered… */
  MAX_CANDIDATES: 300,
  /** …and at most this many are kept. */
  MAX_KEPT: 50,
};

/**
 * Greedy non-maximum suppression, best score first: a box is dropped when it overlaps a kept one by
 * more than `iou`, or when its centre sits inside a kept box (partial-window duplicates of one blob).
 * Apply it to one class at a time.
 */
export function nms<D extends Detection>(detections: ReadonlyArray<D>, iou: number, limits = NMS_DEFAULTS): D[] {
  const keep: D[] = [];
  for (const d of topK(detections, limits.MAX_CANDIDATES)) {
    if (keep.length >= limits.MAX_KEPT) break;
    if (keep.some((k) => boxIou(k, d) > iou || (Math.abs(k.cx - d.cx) < k.w / 2 && Math.abs(k.cy - d.cy) < k.h / 2))) continue;
    keep.push(d);
  }
  return keep;
}

/**
 * Extra data on the boxes of one class (supervision's `data`), e.g. each ball's motion; the other
 * boxes are left as they are. `data` gets the box and its index in `detections`.
 */
export function withData<C extends DetectionClass, X extends object>(detections: ReadonlyArray<Detection>, className: C, data: (d: DetectionOf<C>, index: number) => X): Array<Detections<X, C>[number]> {
  return detections.map((d, i) => (d.className === className ? { ...d, ...data(d as DetectionOf<C>, i) } : d) as Detections<X, C>[number]);
}
