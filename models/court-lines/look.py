"""The learned mask (green) on frames of real clips, beside the frames: python look.py WEIGHTS.pt OUT.png CLIP@SECONDS …
Clips are read from ../shared/realclips at run time (tuning clips only while developing)."""
import os, sys, subprocess, numpy as np, torch
from PIL import Image
from train import LineNet
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
FF = os.path.join(ROOT, "node_modules/@ffmpeg-installer/linux-x64/ffmpeg")
CLIPS = os.path.join(ROOT, "..", "shared", "realclips", "clips")
net = LineNet(); net.load_state_dict(torch.load(sys.argv[1])); net.eval()
rows = []
for spec in sys.argv[3:]:
    clip, t = spec.split("@")
    W, H = 480, 270
    raw = subprocess.run([FF, "-loglevel", "error", "-ss", t, "-i", os.path.join(CLIPS, f"{clip}.mp4"), "-frames:v", "1", "-vf", f"scale={W}:{H}", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], capture_output=True).stdout
    img = np.frombuffer(raw, np.uint8).reshape(H, W, 3)
    with torch.no_grad():
        p = torch.sigmoid(net(torch.from_numpy(img.copy()).permute(2, 0, 1).float()[None]))[0, 0].numpy()
    over = (img * 0.5).astype(np.uint8); over[p > 0.5] = [0, 255, 0]
    rows.append(np.concatenate([img, over], 1))
Image.fromarray(np.concatenate(rows, 0)).save(sys.argv[2])
