"""Checks that onnx_torch reproduces onnxruntime on the source model (run before training):
   /path/to/venv/bin/python models/train/check_interpreter.py [models/centernet.onnx]"""
import sys, glob, time
import numpy as np, cv2, torch, onnxruntime as ort
sys.path.insert(0, __file__.rsplit("/", 1)[0])
from onnx_torch import load

torch.set_num_threads(2)
path = sys.argv[1] if len(sys.argv) > 1 else "models/centernet.onnx"
net = load(path).eval()
sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
files = sorted(glob.glob("../shared/datasets/basketball-det/images/*/*.jpg"))[::500][:3]
worst = {}
for f, (h, w) in zip(files, [(512, 512), (320, 384), (256, 256)]):
    img = cv2.cvtColor(cv2.resize(cv2.imread(f), (w, h)), cv2.COLOR_BGR2RGB).astype(np.float32)[None]
    ref = dict(zip([o.name for o in sess.get_outputs()], sess.run(None, {"images": img})))
    t = time.time()
    with torch.no_grad():
        out = net(torch.from_numpy(img))
    for k, v in out.items():
        d = float(np.abs(v.numpy() - ref[k]).max())
        worst[k] = max(worst.get(k, 0), d)
        print(f"{f.split('/')[-1]} {h}x{w} {k}: max|diff| {d:.2e} (max |value| {np.abs(ref[k]).max():.3g})")
    print(f"torch forward {time.time() - t:.2f}s")
print("worst", worst)
ok = worst["heatmap"] < 1e-4 and worst["ball"] < 1e-4 and worst["rim"] < 1e-4 and worst["wh"] < 5e-2
print("OK" if ok else "MISMATCH")
sys.exit(0 if ok else 1)
