"""Runs the converted CenterNet ONNX graph with PyTorch ops, its convolutions as trainable parameters.

A developer tool for models/train/train.py (never imported by the runner or the tests): no pretrained
PyTorch weights can be downloaded here, so the only pretrained network is the ONNX file the npm build
makes (models/centernet.onnx, COCO CenterNet + the basketball heads). This module turns that graph's
Conv weights and biases into nn.Parameters, executes its nodes in order with torch ops, and after
training writes the parameters back into a copy of the same graph (`write_onnx`), so the trained
file has exactly the original nodes, inputs, outputs, dynamic shapes and metadata: swapping models
is a file swap.

Only the ops the converter emits are supported (Transpose, Conv, Mul, Add, Clip, Relu, Sigmoid,
GlobalAveragePool, Resize linear/asymmetric, Concat); anything else raises.
"""
from __future__ import annotations

import copy
import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F
from onnx import numpy_helper


def _attrs(node: onnx.NodeProto) -> dict:
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def _resize_asymmetric_linear(x: torch.Tensor, scale_h: float, scale_w: float) -> torch.Tensor:
    """ONNX Resize mode=linear, coordinate_transformation_mode=asymmetric (TF's align_corners=False,
    half_pixel_centers=False): source coordinate = destination / scale, edge-clamped."""
    def along(t: torch.Tensor, dim: int, scale: float) -> torch.Tensor:
        n_in = t.shape[dim]
        n_out = int(n_in * scale)
        src = torch.arange(n_out, dtype=torch.float32, device=t.device) / scale
        i0 = src.floor().clamp(max=n_in - 1).long()
        i1 = (i0 + 1).clamp(max=n_in - 1)
        frac = (src - i0.float()).clamp(0, 1)
        shape = [1] * t.dim()
        shape[dim] = n_out
        frac = frac.view(shape)
        return t.index_select(dim, i0) * (1 - frac) + t.index_select(dim, i1) * frac
    return along(along(x, 2, scale_h), 3, scale_w)


class OnnxNet(nn.Module):
    """The ONNX graph as a module: `forward(images NHWC 0–255)` returns a dict of the graph's outputs."""

    def __init__(self, model: onnx.ModelProto):
        super().__init__()
        self.model = model
        g = model.graph
        self.input_name = g.input[0].name
        self.output_names = [o.name for o in g.output]
        inits = {i.name: numpy_helper.to_array(i) for i in g.initializer}
        conv_params = set()
        for n in g.node:
            if n.op_type == "Conv":
                conv_params.update(n.input[1:])
        self.params = nn.ParameterDict()
        self.param_key = {}  # initializer name -> ParameterDict key (names hold '/' and ':')
        self.consts = {}
        for name, arr in inits.items():
            if name in conv_params:
                key = f"p{len(self.param_key)}"
                self.param_key[name] = key
                self.params[key] = nn.Parameter(torch.from_numpy(arr.copy()).float())
            else:
                self.consts[name] = torch.from_numpy(arr.copy())
        self.nodes = list(g.node)
        self.node_attrs = [_attrs(n) for n in self.nodes]
        for n, a in zip(self.nodes, self.node_attrs):
            if n.op_type not in _OPS:
                raise ValueError(f"unsupported op {n.op_type} ({n.name})")
            # Constant bounds and scales as Python numbers, read once: reading a tensor's value each
            # call would wait for the GPU at every Clip and Resize.
            if n.op_type == "Clip":
                a["_lo"], a["_hi"] = (float(self.consts[i]) if i in self.consts else None for i in (list(n.input[1:3]) + ["", ""])[:2])
            if n.op_type == "Resize":
                a["_scales"] = [float(v) for v in self.consts[n.input[2]].reshape(-1)] if len(n.input) > 2 and n.input[2] in self.consts else None

    def to_device(self, device: str) -> "OnnxNet":
        """Moves the parameters and the graph's constant tensors (not registered buffers) to `device`."""
        self.to(device)
        self.consts = {k: v.to(device) for k, v in self.consts.items()}
        return self

    def value(self, env: dict, name: str):
        if name == "":
            return None
        if name in env:
            return env[name]
        if name in self.param_key:
            return self.params[self.param_key[name]]
        return self.consts[name]

    def forward(self, images: torch.Tensor, outputs: list[str] | None = None) -> dict:
        env = {self.input_name: images}
        for node, attrs in zip(self.nodes, self.node_attrs):
            ins = [self.value(env, i) for i in node.input]
            out = _OPS[node.op_type](ins, attrs)
            env[node.output[0]] = out
        return {k: env[k] for k in (outputs or self.output_names)}

    def head_param_names(self, output_names: list[str]) -> set[str]:
        """Initializer names of the Conv nodes that only feed the given outputs (the heads)."""
        consumers: dict[str, list[onnx.NodeProto]] = {}
        for n in self.nodes:
            for i in n.input:
                consumers.setdefault(i, []).append(n)
        producer = {o: n for n in self.nodes for o in n.output}
        # Walk back from each head output while a node's outputs are used only inside the head.
        head_nodes: set[str] = set()
        for out in output_names:
            stack = [producer[out]]
            while stack:
                n = stack.pop()
                if n.name in head_nodes:
                    continue
                used_by = [c for o in n.output for c in consumers.get(o, [])]
                if any(c.name not in head_nodes for c in used_by) and n.output[0] != out:
                    continue
                head_nodes.add(n.name)
                for i in n.input:
                    if i in producer:
                        stack.append(producer[i])
        names = set()
        for n in self.nodes:
            if n.name in head_nodes and n.op_type == "Conv":
                names.update(n.input[1:])
        return names

    def write_onnx(self, metadata: dict[str, str] | None = None) -> onnx.ModelProto:
        """A copy of the source graph with the current parameter values as its Conv initializers."""
        m = copy.deepcopy(self.model)
        for init in m.graph.initializer:
            if init.name in self.param_key:
                arr = self.params[self.param_key[init.name]].detach().cpu().numpy().astype("float32")
                init.CopyFrom(numpy_helper.from_array(arr, init.name))
        if metadata:
            props = {p.key: p.value for p in m.metadata_props}
            props.update(metadata)
            del m.metadata_props[:]
            for k, v in props.items():
                m.metadata_props.add(key=k, value=v)
        return m


def _conv(ins, a):
    x, w, b = ins[0], ins[1], ins[2] if len(ins) > 2 else None
    pads = list(a.get("pads", [0, 0, 0, 0]))
    if a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
        raise ValueError("auto_pad is not supported")
    top, left, bottom, right = pads
    if top == bottom and left == right:
        return F.conv2d(x, w, b, stride=tuple(a.get("strides", [1, 1])), padding=(top, left), dilation=tuple(a.get("dilations", [1, 1])), groups=a.get("group", 1))
    x = F.pad(x, (left, right, top, bottom))
    return F.conv2d(x, w, b, stride=tuple(a.get("strides", [1, 1])), dilation=tuple(a.get("dilations", [1, 1])), groups=a.get("group", 1))


def _clip(ins, a):
    return torch.clamp(ins[0], min=a["_lo"], max=a["_hi"])


def _resize(ins, a):
    mode = a.get("mode", b"nearest")
    ctm = a.get("coordinate_transformation_mode", b"half_pixel")
    if mode not in (b"linear",) or ctm not in (b"asymmetric",):
        raise ValueError(f"Resize {mode} {ctm} is not supported")
    scales = a["_scales"]
    if scales is None or len(scales) != 4:
        raise ValueError("Resize needs constant scale factors")
    return _resize_asymmetric_linear(ins[0], scales[2], scales[3])


_OPS = {
    "Transpose": lambda ins, a: ins[0].permute(*a["perm"]),
    "Conv": _conv,
    "Mul": lambda ins, a: ins[0] * ins[1],
    "Add": lambda ins, a: ins[0] + ins[1],
    "Clip": _clip,
    "Relu": lambda ins, a: F.relu(ins[0]),
    "Sigmoid": lambda ins, a: torch.sigmoid(ins[0]),
    "GlobalAveragePool": lambda ins, a: ins[0].mean(dim=(2, 3), keepdim=True),
    "Concat": lambda ins, a: torch.cat(ins, dim=a["axis"]),
    "Resize": _resize,
}


def load(path: str) -> OnnxNet:
    return OnnxNet(onnx.load(path))
