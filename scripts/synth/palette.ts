// Colours of the synthetic world. The default detector (models/build-default-detector.ts) is
// built from these, which is exactly why it works on generated footage and not on real video.
export type RGB = [number, number, number];
export const PALETTE = {
  wood: [196, 148, 96] as RGB,
  line: [245, 245, 240] as RGB,
  paint: [112, 34, 48] as RGB,
  outOfBounds: [70, 80, 95] as RGB,
  wall: [40, 42, 50] as RGB,
  ball: [232, 108, 28] as RGB,
  rim: [220, 30, 30] as RGB,
  backboard: [235, 235, 235] as RGB,
  backboardMark: [20, 20, 20] as RGB,
  net: [240, 240, 240] as RGB,
  pole: [90, 90, 100] as RGB,
  skin: [198, 140, 105] as RGB,
  hair: [30, 25, 20] as RGB,
};
/** Jersey colours; a game uses two of them. Number colour chosen for contrast. */
export const JERSEYS: Array<{ name: string; rgb: RGB; number: RGB }> = [
  { name: "blue", rgb: [30, 70, 200], number: [245, 245, 245] },
  { name: "yellow", rgb: [240, 200, 30], number: [20, 20, 20] },
  { name: "green", rgb: [20, 140, 70], number: [245, 245, 245] },
  { name: "purple", rgb: [110, 40, 150], number: [245, 245, 245] },
];
