import ffmpegInstaller from "@ffmpeg-installer/ffmpeg";
import ffprobeInstaller from "@ffprobe-installer/ffprobe";

// Paths come from the npm-installed static builds so nothing depends on a system ffmpeg;
// FFMPEG_PATH/FFPROBE_PATH let a GPU host point at a build with NVDEC.
export const FFMPEG = process.env.FFMPEG_PATH ?? ffmpegInstaller.path;
export const FFPROBE = process.env.FFPROBE_PATH ?? ffprobeInstaller.path;
