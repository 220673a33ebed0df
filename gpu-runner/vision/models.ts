// The models an analysis runs, opened once and handed to analyzeGame (`input.models`): a runner
// process opens one set at start-up and closes it at shutdown; a test or bench opens its own. No
// stage opens a model or reads the environment: which models and how they run is decided here, from
// settings the caller gives (modelSettingsFromEnv reads them from the runner's environment once).
import { loadBasketballModel, type BasketballModel } from "./basketball.ts";
import { defaultCenterNetPath } from "./centernet.ts";
import { chooseDetector, DEFAULT_MODEL_DIR, loadYoloDetector, type Detector, type DetectorChoice } from "./detector.ts";
import { courtLineModelPath, loadCourtLineModel, type CourtLineModel } from "./court-lines.ts";
import { loadJerseyReader, type JerseyReader } from "./jersey-ocr.ts";
import { startModelThread, type ModelThread } from "./model-thread.ts";
import type { SessionSettings } from "./session.ts";

export interface ModelSettings {
  /** Folder of dropped-in models (`detector.onnx`, `centernet.onnx`, `court-lines/linenet.onnx`); the repository's models/ otherwise. */
  dir: string;
  /** Run the real-footage model on a thread of its own (default) or on the calling thread (profiling, comparison). */
  modelThread: boolean;
  /** A detector asked for by name (the synthetic fixture's, for tests and benches of generated games). */
  detector?: string;
  /** How every model session runs: onnxruntime threads, and CPU only even where CUDA is usable. */
  session?: SessionSettings;
}

/** The runner's environment: HOOPS_MODEL_DIR, HOOPS_MODEL_THREAD=off, HOOPS_DETECTOR, HOOPS_ORT_THREADS, HOOPS_EXECUTION_PROVIDER=cpu. */
export function modelSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): ModelSettings {
  const threads = Number(env.HOOPS_ORT_THREADS);
  return {
    dir: env.HOOPS_MODEL_DIR || DEFAULT_MODEL_DIR,
    modelThread: env.HOOPS_MODEL_THREAD !== "off",
    detector: env.HOOPS_DETECTOR || undefined,
    session: { threads: Number.isInteger(threads) && threads > 0 ? threads : 1, cpuOnly: env.HOOPS_EXECUTION_PROVIDER === "cpu" },
  };
}

/**
 * Opens each model on first use and keeps it: sessions are expensive to create. A load that fails is
 * forgotten, so the next job tries again; a model thread that died (out of memory, a native fault)
 * is replaced rather than failing every later job.
 */
export class AnalysisModels {
  private readonly yolo = new Map<string, Promise<Detector>>();
  private basketballModel: Promise<BasketballModel> | null = null;
  private reader: Promise<JerseyReader> | null = null;
  private lines: Promise<CourtLineModel> | null = null;

  constructor(readonly settings: ModelSettings = modelSettingsFromEnv()) {}

  /** Which detector a video of this orientation gets (a `requested` name wins over the settings'). */
  choose(orientation: "landscape" | "portrait", requested?: string): DetectorChoice {
    return chooseDetector(orientation, requested ?? this.settings.detector, this.settings.dir);
  }

  /** The real-footage model's file. */
  get centerNetPath(): string {
    return defaultCenterNetPath(this.settings.dir);
  }

  yoloDetector(modelPath: string): Promise<Detector> {
    let p = this.yolo.get(modelPath);
    if (!p) {
      p = loadYoloDetector(modelPath, this.settings.session);
      p.catch(() => this.yolo.delete(modelPath));
      this.yolo.set(modelPath, p);
    }
    return p;
  }

  async basketball(): Promise<BasketballModel> {
    const model = await this.openBasketball();
    if ("usable" in model && !(model as ModelThread).usable) {
      this.basketballModel = null;
      return this.openBasketball();
    }
    return model;
  }

  jerseyReader(): Promise<JerseyReader> {
    if (!this.reader) {
      this.reader = loadJerseyReader(this.settings.session);
      this.reader.catch(() => (this.reader = null));
    }
    return this.reader;
  }

  /** The learned painted-line mask the court pass registers real footage on. */
  courtLines(): Promise<CourtLineModel> {
    if (!this.lines) {
      this.lines = loadCourtLineModel(courtLineModelPath(this.settings.dir), this.settings.session);
      this.lines.catch(() => (this.lines = null));
    }
    return this.lines;
  }

  /** Ends the model thread (the process may then exit); the sessions go with the process. */
  async close(): Promise<void> {
    const model = await this.basketballModel?.catch(() => null);
    this.basketballModel = null;
    if (model && "close" in model) await (model as ModelThread).close();
  }

  private openBasketball(): Promise<BasketballModel> {
    if (!this.basketballModel) {
      const path = this.centerNetPath;
      this.basketballModel = this.settings.modelThread ? startModelThread(path, this.settings.session) : loadBasketballModel(path, this.settings.session);
      this.basketballModel.catch(() => (this.basketballModel = null));
    }
    return this.basketballModel;
  }
}
