# Roofline Lab: time jitted JAX functions and print rows that the
# measurements panel reads (paste the output into "Your measurements").
# FLOPs and bytes are XLA's cost analysis; the time is measured here.
import time

import jax
import jax.numpy as jnp


def measure(name, f, *args, repeats=20):
    compiled = jax.jit(f).lower(*args).compile()
    cost = compiled.cost_analysis()
    if isinstance(cost, list):  # JAX before 0.4.38: a list of one dict
        cost = cost[0]
    if not cost or "flops" not in cost:
        raise SystemExit(f"{name}: this backend gives no cost analysis")
    compiled(*args).block_until_ready()  # compile and warm up
    start = time.perf_counter()
    for _ in range(repeats):
        out = compiled(*args)
    out.block_until_ready()
    seconds = (time.perf_counter() - start) / repeats
    print(f"{name},{cost['flops']:.6g},{cost['bytes accessed']:.6g},{seconds:.6g}")


print("name,flops,bytes,time_s")
x = jnp.ones((4096, 4096), jnp.bfloat16)
measure("matmul 4096", lambda a, b: a @ b, x, x)
measure("matmul B=64", lambda a, b: a @ b, x[:64], x)
measure("gelu", jax.nn.gelu, x)
