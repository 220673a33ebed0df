/**
 * The 80 COCO detection classes in the order of CenterNet's heatmap channels (COCO category ids
 * 1..90 with the 10 unused ids dropped). The same list as @vladmandic/human's
 * `src/object/labels.ts`, which indexes it with the model's class channel.
 */
export const COCO_CLASSES = [
  "person", "bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat", "traffic light",
  "fire hydrant", "stop sign", "parking meter", "bench", "bird", "cat", "dog", "horse", "sheep", "cow",
  "elephant", "bear", "zebra", "giraffe", "backpack", "umbrella", "handbag", "tie", "suitcase", "frisbee",
  "skis", "snowboard", "sports ball", "kite", "baseball bat", "baseball glove", "skateboard", "surfboard", "tennis racket", "bottle",
  "wine glass", "cup", "fork", "knife", "spoon", "bowl", "banana", "apple", "sandwich", "orange",
  "broccoli", "carrot", "hot dog", "pizza", "donut", "cake", "chair", "couch", "potted plant", "bed",
  "dining table", "toilet", "tv", "laptop", "mouse", "remote", "keyboard", "cell phone", "microwave", "oven",
  "toaster", "sink", "refrigerator", "book", "clock", "vase", "scissors", "teddy bear", "hair drier", "toothbrush",
] as const;

export const PERSON_CHANNEL = COCO_CLASSES.indexOf("person");
export const SPORTS_BALL_CHANNEL = COCO_CLASSES.indexOf("sports ball");

/** The heatmap channels the runner reads (vision/basketball.ts): the shipped model keeps only these. */
export const RUNNER_CLASSES = ["person", "sports ball"] as const;
