// Minimal helpers to write ONNX graphs from TypeScript with onnx-proto.
import onnxProto from "onnx-proto";
const { onnx } = onnxProto;

export class GraphBuilder {
  nodes: InstanceType<typeof onnx.NodeProto>[] = [];
  initializers: InstanceType<typeof onnx.TensorProto>[] = [];
  private n = 0;

  name(prefix: string) {
    return `${prefix}_${this.n++}`;
  }

  const(values: Float32Array | number[], dims: number[], prefix = "c"): string {
    const name = this.name(prefix);
    const data = values instanceof Float32Array ? values : Float32Array.from(values);
    this.initializers.push(
      onnx.TensorProto.create({ name, dims, dataType: onnx.TensorProto.DataType.FLOAT, rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) }),
    );
    return name;
  }

  constI64(values: number[], prefix = "i"): string {
    const name = this.name(prefix);
    const data = BigInt64Array.from(values.map(BigInt));
    this.initializers.push(onnx.TensorProto.create({ name, dims: [values.length], dataType: onnx.TensorProto.DataType.INT64, rawData: new Uint8Array(data.buffer) }));
    return name;
  }

  op(opType: string, inputs: string[], attrs: Record<string, number | number[] | string> = {}, outputs = 1, outName?: string): string[] {
    const outs = Array.from({ length: outputs }, (_, k) => (outName && k === 0 ? outName : this.name(opType.toLowerCase())));
    const attribute = Object.entries(attrs).map(([name, v]) =>
      typeof v === "string"
        ? onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.STRING, s: new TextEncoder().encode(v) })
        : Array.isArray(v)
        ? onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: v })
        : Number.isInteger(v) && !["alpha", "beta", "epsilon"].includes(name)
          ? onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INT, i: v })
          : onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.FLOAT, f: v }),
    );
    this.nodes.push(onnx.NodeProto.create({ opType, input: inputs, output: outs, attribute, name: this.name(`n_${opType}`) }));
    return outs;
  }

  op1(opType: string, inputs: string[], attrs: Record<string, number | number[] | string> = {}, outName?: string): string {
    return this.op(opType, inputs, attrs, 1, outName)[0];
  }

  /**
   * Encodes a model with any number of float inputs and outputs; a string dimension is symbolic
   * (`dim_param`), so the model accepts any size there.
   */
  encodeModel(opts: {
    graphName: string;
    opset: number;
    inputs: { name: string; dims: (number | string)[] }[];
    outputs: { name: string; dims: (number | string)[] }[];
    metadata: Record<string, string>;
    docString?: string;
  }): Uint8Array {
    const vi = (name: string, dims: (number | string)[]) =>
      onnx.ValueInfoProto.create({
        name,
        type: onnx.TypeProto.create({
          tensorType: onnx.TypeProto.Tensor.create({
            elemType: onnx.TensorProto.DataType.FLOAT,
            shape: onnx.TensorShapeProto.create({
              dim: dims.map((d) => onnx.TensorShapeProto.Dimension.create(typeof d === "string" ? { dimParam: d } : { dimValue: d })),
            }),
          }),
        }),
      });
    const graph = onnx.GraphProto.create({
      name: opts.graphName,
      node: this.nodes,
      initializer: this.initializers,
      input: opts.inputs.map((i) => vi(i.name, i.dims)),
      output: opts.outputs.map((o) => vi(o.name, o.dims)),
    });
    const model = onnx.ModelProto.create({
      irVersion: 8,
      opsetImport: [onnx.OperatorSetIdProto.create({ domain: "", version: opts.opset })],
      producerName: "hoops-models",
      docString: opts.docString,
      graph,
      metadataProps: Object.entries(opts.metadata).map(([key, value]) => onnx.StringStringEntryProto.create({ key, value })),
    });
    return onnx.ModelProto.encode(model).finish();
  }

  encode(opts: { input: { name: string; dims: number[] }; output: { name: string; dims: number[] }; metadata: Record<string, string>; graphName: string }): Uint8Array {
    const vi = (name: string, dims: number[]) =>
      onnx.ValueInfoProto.create({
        name,
        type: onnx.TypeProto.create({ tensorType: onnx.TypeProto.Tensor.create({ elemType: onnx.TensorProto.DataType.FLOAT, shape: onnx.TensorShapeProto.create({ dim: dims.map((d) => onnx.TensorShapeProto.Dimension.create({ dimValue: d })) }) }) }),
      });
    const graph = onnx.GraphProto.create({
      name: opts.graphName,
      node: this.nodes,
      initializer: this.initializers,
      input: [vi(opts.input.name, opts.input.dims)],
      output: [vi(opts.output.name, opts.output.dims)],
    });
    const model = onnx.ModelProto.create({
      irVersion: 8,
      opsetImport: [onnx.OperatorSetIdProto.create({ domain: "", version: 17 })],
      producerName: "hoops-models",
      graph,
      metadataProps: Object.entries(opts.metadata).map(([key, value]) => onnx.StringStringEntryProto.create({ key, value })),
    });
    return onnx.ModelProto.encode(model).finish();
  }
}
